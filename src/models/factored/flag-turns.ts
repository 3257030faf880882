/**
 * Flags asked both ways: a boolean parameter whose name the question writes at two places, once beside a negating
 * word and once not ("The process is isothermal. … What if the process is not isothermal?"; "considering the impact of
 * human activities … without considering human impact"), asks for a call with each value, in the order written.
 * The negating words are the language policy of negations.ts; a name word commoner than `common` in training
 * questions ("with" of with_verdict) names nothing here.
 */
import { NEGATION_WINDOW } from "./negations.ts";
import type { QToken } from "./text.ts";

/** How far apart (in words) two of a name's words may stand and still be one mention of it. */
const MENTION_GAP = 2;

/**
 * The flag's values in question order (true where a mention is plain, false where negated; one value per run of
 * mentions said the same way), or undefined unless both ways are written. `inPart` says which tokens count.
 */
export function flagTurns(
  tokens: readonly QToken[],
  stems: ReadonlySet<string>,
  negations: ReadonlySet<string>,
  joiners: ReadonlySet<string>,
  inPart: (k: number) => boolean,
): boolean[] | undefined {
  const words = tokens.map((t, k) => ({ t, k })).filter(({ t }) => t.kind === "word");
  // mentions: runs of the name's words, each within MENTION_GAP words of the one before
  const mentions: number[][] = [];
  words.forEach(({ t, k }, i) => {
    if (!stems.has(t.stem) || joiners.has(t.lower) || !inPart(k)) return;
    const last = mentions.at(-1);
    if (last && i - last.at(-1)! <= MENTION_GAP) last.push(i);
    else mentions.push([i]);
  });
  if (mentions.length < 2) return undefined;
  const negated = (m: readonly number[]) =>
    m.some((i) => words.slice(Math.max(0, i - NEGATION_WINDOW), i + NEGATION_WINDOW + 1).some((w) => negations.has(w.t.lower)));
  const values: boolean[] = [];
  for (const m of mentions) {
    const v = !negated(m);
    if (values.at(-1) !== v) values.push(v);
  }
  return values.includes(true) && values.includes(false) ? values : undefined;
}
