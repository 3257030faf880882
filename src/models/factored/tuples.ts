/**
 * Tuples: a question that writes its values as bracketed groups of numbers, "(45, 60) and (81, 63)", for a
 * function with that many required number parameters asks one call per group, the group's numbers dealt to the
 * parameters in the schema's order. Only the written form (brackets, commas) and the schema's types are read.
 */
import type { QToken } from "./text.ts";

/** The numbers of each "(a, b, ...)" group of two or more numbers separated by commas alone. */
export function numberTuples(tokens: readonly QToken[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.text !== "(") continue;
    const group: number[] = [];
    let k = i + 1;
    for (; k < tokens.length; k += 2) {
      const t = tokens[k]!;
      if (t.kind !== "number" || t.value === undefined) break;
      group.push(t.value);
      if (tokens[k + 1]?.text !== ",") {
        k++;
        break;
      }
    }
    if (group.length >= 2 && tokens[k]?.text === ")") {
      out.push(group);
      i = k;
    }
  }
  return out;
}

/**
 * The calls the tuples ask for: with `names` the function's required number parameters in schema order (whole
 * numbers where `integer`), two or more groups of exactly that many numbers, and no group of another size.
 */
export function tupleCalls(
  tokens: readonly QToken[],
  params: readonly { name: string; integer: boolean }[],
  base: Record<string, unknown>,
): Record<string, unknown>[] | undefined {
  if (params.length < 2) return undefined;
  const groups = numberTuples(tokens);
  if (groups.length < 2 || groups.some((g) => g.length !== params.length)) return undefined;
  if (groups.some((g) => g.some((x, j) => params[j]!.integer && !Number.isInteger(x)))) return undefined;
  return groups.map((g) => ({ ...base, ...Object.fromEntries(params.map((p, j) => [p.name, g[j]])) }));
}
