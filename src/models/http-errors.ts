import { ToolgenError, type ToolgenErrorCode } from "../errors.ts";

/** Errors of the HTTP model adapters, each saying what happened and where, so a CLI can print them as they are. */

export class ModelHttpError extends ToolgenError {
  override name = "ModelHttpError";
  constructor(
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    /** The server's own error message, when it sent one. */
    readonly serverMessage?: string,
    /** How many attempts were made. */
    readonly attempts = 1,
  ) {
    super("model_http", message);
  }
}

/** No answer within the time limit (headers, body, or the gap between two stream chunks). */
export class ModelTimeoutError extends ModelHttpError {
  override name = "ModelTimeoutError";
  override readonly code: ToolgenErrorCode = "model_timeout";
}

/** The server answered, but not with what the protocol promises (not JSON, no choices, a stream cut short). */
export class ModelResponseError extends ModelHttpError {
  override name = "ModelResponseError";
  override readonly code: ToolgenErrorCode = "model_response";
}

/** A constraint kind the backend cannot enforce. */
export class UnsupportedConstraintError extends ToolgenError {
  override name = "UnsupportedConstraintError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("unsupported_constraint", message, options);
  }
}

/** Extracts the human message from an error body: OpenAI's `{error: {message}}`, `{error: "…"}`, `{message}`, or text. */
export function serverErrorMessage(body: string): string {
  const text = body.trim();
  if (text === "") return "";
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const error = record.error;
      if (typeof error === "string") return error;
      if (
        typeof error === "object" &&
        error !== null &&
        typeof (error as Record<string, unknown>).message === "string"
      ) {
        return (error as Record<string, unknown>).message as string;
      }
      if (typeof record.message === "string") return record.message;
      if (typeof record.detail === "string") return record.detail;
    }
  } catch {
    // not JSON: the text itself
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Whether an exception from fetch is a broken connection worth retrying (reset, refused, closed early). */
export function isConnectionError(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as Error & { code?: unknown }).code;
    if (
      typeof code === "string" &&
      /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(code)
    ) {
      return true;
    }
    if (/other side closed|socket hang up|fetch failed|terminated/i.test(current.message)) return true;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return false;
}
