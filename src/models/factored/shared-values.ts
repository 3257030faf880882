/**
 * Shared values: with several functions called, a text parameter whose value in its own function's segment is
 * written plainly (no capital letter, not quoted), or a required one left without a value, takes the name a
 * parameter of the same name took in another called function (capitalised or quoted): a value said once serves
 * every function that asks for it ("the conviction status of John Doe in New York, and the nature of the
 * offenses he committed"). Only from the schema (parameter names and types) and how values are written.
 */
import type { ParamInfo } from "./features.ts";

/** What shareValues reads of a scored function: its parameters. */
export interface SharingFunction {
  params: readonly { info: ParamInfo }[];
}

export interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

/** Is a text value written as a name: a capitalised word in it, or quoted in the question? */
const named = (v: unknown, quoted: ReadonlySet<string>): boolean =>
  typeof v === "string" && (/(^|\s)\p{Lu}/u.test(v) || quoted.has(v));

/** `calls[i]` are `chosen[i]`'s calls; changed in place. */
export function shareValues(chosen: readonly SharingFunction[], calls: Call[][], quoted: ReadonlySet<string>): void {
  if (chosen.length < 2) return;
  chosen.forEach((s, i) => {
    if (calls[i]!.length === 0) return;
    for (const p of s.params) {
      const k = p.info.kind;
      if (k.type !== "string" || k.enumValues) continue;
      const name = p.info.name;
      const own = calls[i]!.map((c) => c.arguments[name]);
      if (own.some((v) => named(v, quoted))) continue;
      if (own.every((v) => v === undefined) && !p.info.required) continue;
      const theirs = new Set<string>();
      chosen.forEach((t, j) => {
        if (j === i || !t.params.some((q) => q.info.name === name && q.info.kind.type === "string")) return;
        for (const c of calls[j]!) if (named(c.arguments[name], quoted)) theirs.add(c.arguments[name] as string);
      });
      if (theirs.size !== 1) continue;
      const [v] = [...theirs];
      for (const c of calls[i]!) c.arguments[name] = v;
    }
  });
}
