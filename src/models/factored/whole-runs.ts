/**
 * A name written as a run of capitalised words is one value: a text value that is a strict part of such a run
 * ("Diego" of "San Diego County") is widened to the whole run where the run is a free candidate of the same
 * parameter. Reads the question's capitals only (DecideOptions.wholeRuns, false for the ablation).
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

/** The candidate (index) writing the whole run `c` is a strict part of; -1 when none. */
export function wholeRun(tokens: readonly QToken[], candidates: readonly Candidate[], c: Candidate): number {
  if (c.family !== "span" || c.quoted) return -1;
  const run = runAround(tokens, c.start, c.end);
  if (!run || (run[0] === c.start && run[1] === c.end)) return -1;
  return candidates.findIndex((d) => d.family === "span" && !d.quoted && d.start === run[0] && d.end === run[1]);
}
