/**
 * Role words: which words people write right before or after a parameter's values ("from" before an origin, "to"
 * before a destination, "in" before a city, "on" before a date). A table learnt from training questions
 * (src/train/role-words.ts), keyed by a parameter-name stem and the stem of the word beside a value, holding a
 * smoothed log-odds: how much likelier that word stands beside that parameter's values than beside any span.
 * features.ts x[49] (the word before) and x[50] (the word after) read it; the weights are learnt, the words are
 * the counts', no list written here.
 */
import type { QToken } from "./text.ts";

/** `before` / `after`: "<name stem> <context>" → log-odds, only the pairs seen often enough. */
export interface RoleWordTable {
  before: Record<string, number>;
  after: Record<string, number>;
}

/** Quote marks that open or close a quoted value: how the value is written, not a word beside it. */
const QUOTE = /^["'`“”‘’«»]$/u;

/**
 * The context of a token next to a span: a word's stem, "#" for a number, a mark's own text; undefined past the
 * question's ends.
 */
const contextOf = (t: QToken | undefined): string | undefined =>
  t === undefined ? undefined : t.kind === "number" ? "#" : t.kind === "word" ? t.stem || t.lower : t.text;

/**
 * The token just before (`side` "before") or just after ("after") the span [start, end), past a quote mark
 * written onto the span ("in 'New York'" reads "in").
 */
export function roleContext(tokens: readonly QToken[], start: number, end: number, side: "before" | "after"): string | undefined {
  let i = side === "before" ? start - 1 : end;
  const glued = (a: number, b: number) => a >= 0 && b < tokens.length && tokens[a]!.end === tokens[b]!.start;
  if (side === "before" && i >= 0 && QUOTE.test(tokens[i]!.text) && glued(i, i + 1)) i--;
  if (side === "after" && i < tokens.length && QUOTE.test(tokens[i]!.text) && glued(i - 1, i)) i++;
  return contextOf(tokens[i]);
}

/** The table's key of a name stem and a context. */
export const roleKey = (stem: string, context: string): string => `${stem} ${context}`;

/** The largest log-odds over the parameter's name stems for `context` (0 where no stem has the pair). */
export function roleScore(table: Record<string, number>, nameStems: ReadonlySet<string>, context: string | undefined): number {
  if (context === undefined) return 0;
  let best: number | undefined;
  for (const s of nameStems) {
    const v = table[roleKey(s, context)];
    if (v !== undefined && (best === undefined || v > best)) best = v;
  }
  return best ?? 0;
}
