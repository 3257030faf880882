import type { ScoredParam } from "../../src/models/factored/decide.ts";
import type { functionView } from "../../src/models/factored/features.ts";
import type { JsonSchema, ToolJson } from "../../src/tools/types.ts";

// What the factored caller's rule tests build again and again: a function from its properties, and a parameter's
// chances set by hand instead of by the learnt scorer.

/** A function offering `properties`, of which `required` are required. */
export const tool = (
  name: string,
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  description = "",
): ToolJson => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required } },
});

/**
 * Each parameter's chances by candidate text (`table[param][text]`; unlisted candidates 0.001) and of leaving it
 * out (`pNull[param]`; by default 0 for a parameter the table lists, 1 for one it does not: left out).
 */
export function scoredFromTable(
  f: ReturnType<typeof functionView>,
  table: Record<string, Record<string, number>>,
  pNull: Record<string, number> = {},
): ScoredParam[] {
  return f.params.map((info) => {
    const raw = info.candidates.map((c) => table[info.name]?.[String(c.value)] ?? 0.001);
    const none = pNull[info.name] ?? (table[info.name] ? 0 : 1);
    const total = raw.reduce((a, b) => a + b, 0) + none;
    return { info, probs: raw.map((r) => r / total), pNull: none / total };
  });
}
