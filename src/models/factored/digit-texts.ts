/**
 * A number written alone in digits is a number parameter's value, not a text's: where a function has a parameter of
 * type integer or number, its text parameters take no span that is one number token ("violent crime in San
 * Francisco in 2020" gave city "2020" while year, an integer, stayed empty). Reads the schema's types and the
 * question's digits only (DecideOptions.digitTexts, false for the ablation).
 */
import type { Candidate, ParamKind } from "./candidates.ts";
import type { QToken } from "./text.ts";

const isNumberKind = (k: ParamKind): boolean => (k.type === "integer" || k.type === "number") && !k.enumValues;

/** Is `c`, for a parameter of kind `k`, a lone number a number parameter among `kinds` should have instead? */
export function digitText(tokens: readonly QToken[], kinds: readonly ParamKind[], k: ParamKind, c: Candidate): boolean {
  if (k.type !== "string" || k.enumValues || c.family !== "span" || c.quoted || c.start < 0) return false;
  const inside = tokens.slice(c.start, c.end).filter((t) => t.kind !== "punct");
  return inside.length === 1 && inside[0]!.kind === "number" && kinds.some(isNumberKind);
}
