/**
 * A number's unit names its parameter: "a duration of 5 seconds" and "a speed of 10 meters/second" for `time`
 * ("… applied in seconds") and `initial_velocity` ("… in meters/second"), "440Hz" for `frequency` ("… in Hz"). The
 * unit is what the question writes right after the number, glued to it or as the next word, up to a space
 * ("meters/second^2" whole); it counts for a number parameter whose description writes it as a whole word
 * and for not every number parameter of the function (a word all of them write tells none apart). Such a
 * parameter's chances of the numbers so written are `factor` times likelier, those of its other numbers as they
 * were, its chance of leaving the value out unchanged (DecideOptions.units; false for the ablation).
 */
import type { Candidate } from "./candidates.ts";
import type { FunctionView, ParamInfo } from "./features.ts";

/** The unit written right after the number at token `i` ("" when a sentence's punctuation or nothing follows). */
export function unitAfter(question: string, end: number): string {
  const rest = question.slice(end);
  const m = /^ ?([^\s]+)/u.exec(rest);
  if (!m) return "";
  const unit = m[1]!.replace(/[.,;:!?)"'’]+$/u, "");
  return /\p{L}/u.test(unit) ? unit : "";
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** Does a description write the unit as a whole word (not inside a longer one: "meters/second" is not "meters/second^2")? */
export function writesUnit(description: string, unit: string): boolean {
  if (unit === "") return false;
  return new RegExp(`(?:^|[^\\p{L}\\p{N}^/])${escape(unit)}(?![\\p{L}\\p{N}^/])`, "iu").test(description);
}

const isNumber = (p: ParamInfo) => (p.kind.type === "integer" || p.kind.type === "number") && !p.kind.enumValues;

/** `probs` holds one chance per candidate and the null's last: a number parameter's numbers reweighted by their units. */
export function weighUnits(f: FunctionView, p: ParamInfo, probs: number[], factor: number): void {
  if (!isNumber(p)) return;
  const description = (q: ParamInfo) => (typeof q.schema.description === "string" ? q.schema.description : "");
  const numbers = f.params.filter(isNumber);
  const t = f.view.tokens;
  const unitOf = (c: Candidate) => (c.family === "number" && c.start >= 0 ? unitAfter(f.view.question, t[c.end - 1]!.end) : "");
  const mass = p.candidates.reduce((a, _, i) => a + probs[i]!, 0);
  let moved = false;
  p.candidates.forEach((c, i) => {
    const unit = unitOf(c);
    if (unit === "" || !writesUnit(description(p), unit)) return;
    if (numbers.every((q) => writesUnit(description(q), unit))) return;
    probs[i] = probs[i]! * factor;
    moved = true;
  });
  if (!moved) return;
  const now = p.candidates.reduce((a, _, i) => a + probs[i]!, 0);
  for (let i = 0; i < p.candidates.length; i++) probs[i] = (probs[i]! * mass) / now;
}
