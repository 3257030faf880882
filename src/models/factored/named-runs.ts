/**
 * A name written with capitals that holds a parameter's own name word ("the Hilton Hotel" for hotel_name, "the
 * Premier League" for league, "Louvre Museum" for museum) is that parameter's value: the word names what kind of
 * thing the run is. The scorer learnt the opposite from synth questions, where a name word stands beside its value
 * and never inside it ("Museum in Paris" gave museum "Paris"). Reads the schema's parameter names and the question's
 * capitals only (DecideOptions.namedRuns, false for the ablation).
 */
import type { Candidate } from "./candidates.ts";
import type { QToken } from "./text.ts";

/** The run of capitalised words around [start, end), or undefined when the span is not all capitalised words. */
export function runAround(tokens: readonly QToken[], start: number, end: number): [number, number] | undefined {
  if (start < 0 || end <= start || !tokens.slice(start, end).every((k) => k.capital && k.kind === "word")) return undefined;
  let s = start;
  let e = end;
  while (s > 0 && tokens[s - 1]!.capital && tokens[s - 1]!.kind === "word") s--;
  while (e < tokens.length && tokens[e]!.capital && tokens[e]!.kind === "word") e++;
  return [s, e];
}

/**
 * The index of the candidate that is a whole run of capitalised words holding one of `nameStems` written with a
 * capital, when exactly one such run is among the candidates; -1 otherwise.
 */
export function namedRun(tokens: readonly QToken[], nameStems: ReadonlySet<string>, candidates: readonly Candidate[]): number {
  const found: number[] = [];
  candidates.forEach((c, i) => {
    if (c.family !== "span" || c.quoted) return;
    const run = runAround(tokens, c.start, c.end);
    if (!run || run[0] !== c.start || run[1] !== c.end || c.end - c.start < 2) return;
    if (tokens.slice(c.start, c.end).some((k) => k.stem !== "" && nameStems.has(k.stem))) found.push(i);
  });
  return found.length === 1 ? found[0]! : -1;
}
