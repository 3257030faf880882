import type { BfclCall, CheckResult } from "./bfcl-types.ts";

/**
 * How a BFCL category is scored. `irrelevance` / `live_irrelevance` and `live_relevance` are not AST-checked:
 * the leaderboard's runner only asks whether the reply holds a call (its `is_empty_output` test on the decoded
 * reply). Every other category goes through the AST checker against its possible answers.
 */
export type BfclScoring = "ast" | "irrelevance" | "relevance";

export function scoringOf(category: string): BfclScoring {
  if (category.includes("irrelevance")) return "irrelevance";
  if (category.includes("relevance")) return "relevance";
  return "ast";
}

/**
 * Whether a decoded reply counts as a call: a non-empty list of calls, each naming a function. `[]`, `[{}]` and
 * a reply that does not decode to calls at all (the caller passes `[]` then) count as no call.
 */
export function hasCall(calls: readonly BfclCall[]): boolean {
  return calls.length > 0 && calls.every((c) => c.name !== "");
}

/**
 * Irrelevance: correct when there is no call. Relevance: correct when there is at least one call, whatever its
 * function, arguments or count. Error names as the leaderboard's runner writes them.
 */
export function checkRelevance(
  scoring: "irrelevance" | "relevance",
  calls: readonly BfclCall[],
): CheckResult {
  const called = hasCall(calls);
  if (scoring === "irrelevance") {
    return called
      ? {
          valid: false,
          errorType: "irrelevance_error:decoder_success",
          error: `expected no call, got ${calls.map((c) => c.name).join(", ")}`,
        }
      : { valid: true };
  }
  return called
    ? { valid: true }
    : { valid: false, errorType: "relevance_error:decoder_failed", error: "expected a call, got none" };
}
