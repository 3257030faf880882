/** The shapes the BFCL checkers share: a call as the model made it, and a verdict with BFCL's error names. */

export interface BfclCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface CheckResult {
  valid: boolean;
  /** BFCL's error type names (`simple_function_checker:missing_required`, `value_error:string`, …). */
  errorType?: string;
  error?: string;
}
