/**
 * toolgen's one error type: every error a caller can catch is a ToolgenError with a `code` that says what kind
 * of failure it is (docs/errors.md lists them). Check with `ToolgenError.isInstance(e)` or
 * `ToolgenError.hasCode(e, "model_timeout")` rather than `instanceof` or the error's name: two copies of the
 * package (a bundled one and a linked one, say) have two different classes, but they mark their errors with the
 * same global symbol. This file imports nothing from the project, so any folder may use it.
 */

/** The codes, one per kind of failure; docs/errors.md says when each is thrown. */
export const TOOLGEN_ERROR_CODES = [
  // generic kinds, for errors without a class of their own
  "invalid_option",
  "invalid_input",
  "invalid_tool",
  "parse",
  "model_failure",
  "upstream_failure",
  // one per error class
  "invalid_catalog",
  "tool_input",
  "unserializable_result",
  "wire_format",
  "chat_template",
  "model_http",
  "model_timeout",
  "model_response",
  "unsupported_constraint",
  "model_spec",
  "scripted_model",
  "scripted_model_exhausted",
  "bfcl_model_abort",
  "router",
  "http_request",
  "command",
] as const;

export type ToolgenErrorCode = (typeof TOOLGEN_ERROR_CODES)[number];

// Symbol.for: the same symbol in every copy of the package, so the check works across copies.
const MARKER = Symbol.for("toolgen.error");

export class ToolgenError extends Error {
  override name = "ToolgenError";
  readonly code: ToolgenErrorCode;

  constructor(code: ToolgenErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // Not a class field: a private symbol-keyed member would have to be named in the published .d.ts.
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** Whether `error` is a toolgen error, from this copy of the package or another one. */
  static isInstance(error: unknown): error is ToolgenError {
    return (
      typeof error === "object" &&
      error !== null &&
      (error as Record<symbol, unknown>)[MARKER] === true &&
      typeof (error as { code?: unknown }).code === "string"
    );
  }

  /** Whether `error` is a toolgen error with this code. */
  static hasCode(error: unknown, code: ToolgenErrorCode): error is ToolgenError {
    return ToolgenError.isInstance(error) && error.code === code;
  }
}
