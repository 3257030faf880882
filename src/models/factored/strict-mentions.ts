/**
 * Strict mentions: with several functions mentioned, a function is asked for by a word of its own only when no
 * other of them documents that word (its name, description, parameters' names or descriptions). "the displacement of
 * a car at an initial speed of 20 m/s" mentions calculate_final_speed by "speed", but "speed" is the displacement
 * function's parameter initial_speed: the word names a value of the other, not a second request. From the
 * functions' own documentation alone.
 */
import type { FunctionView } from "./features.ts";
import { nameWords, stemOf } from "./text.ts";

/** What strictMentions reads of a function. */
export interface MentionedFunction {
  view: Pick<FunctionView, "tool" | "toolStems" | "docStems" | "stats" | "view">;
}

/**
 * Which functions the question mentions strictly: by a word of their name no other's name has, or (with `docs`)
 * by a word of their description no other's has that is rarer than `docs` in training questions, and in either
 * case a word no other function documents in any way.
 */
export function strictMentions(fs: readonly MentionedFunction[], docs?: number): boolean[] {
  const tokens = fs[0]?.view.view.tokens ?? [];
  const said = new Set(tokens.map((t) => t.stem).filter((s) => s !== ""));
  const names = fs.map((s) => new Set(nameWords(s.view.tool.function.name).map(stemOf)));
  const documented = fs.map((s) => new Set([...s.view.toolStems, ...s.view.docStems]));
  return fs.map((s, i) => {
    const others = (x: string) => documented.some((d, j) => j !== i && d.has(x)) || names.some((n, j) => j !== i && n.has(x));
    for (const x of names[i]!) if (said.has(x) && !others(x)) return true;
    if (docs === undefined) return false;
    for (const x of s.view.toolStems) if (said.has(x) && (s.view.stats.get(x) ?? 0) < docs && !others(x)) return true;
    return false;
  });
}
