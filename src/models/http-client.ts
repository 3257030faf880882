import { ModelHttpError, ModelTimeoutError, isConnectionError, serverErrorMessage } from "./http-errors.ts";

/** How an HTTP adapter talks to its server: time limits and retries. */
export interface HttpPolicy {
  /** Milliseconds to wait for the response headers, for a whole non-streamed body, and between stream chunks. */
  timeoutMs: number;
  /** Retries after the first attempt, on 429, 5xx and broken connections (never on other 4xx). */
  maxRetries: number;
  /** First backoff in milliseconds; it doubles each retry, with jitter, capped by maxRetryDelayMs. */
  retryBaseMs: number;
  maxRetryDelayMs: number;
  fetch: typeof fetch;
}

export const DEFAULT_HTTP_POLICY: HttpPolicy = {
  timeoutMs: 120_000,
  maxRetries: 3,
  retryBaseMs: 500,
  maxRetryDelayMs: 10_000,
  fetch: (input, init) => fetch(input, init),
};

const RETRY_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

/** A response whose body is still to be read, with the timer that guards reading it. */
export interface OpenResponse {
  response: Response;
  attempts: number;
  /** Re-arms the time limit (call on every chunk); `done` clears it. */
  touch(): void;
  done(): void;
  /** Aborts when the time limit passes or the caller's signal fires. */
  signal: AbortSignal;
  /** Whether the abort came from the time limit (vs the caller). */
  timedOut(): boolean;
}

/**
 * Sends a request, retrying 429/5xx and broken connections with exponential backoff (honouring Retry-After),
 * and returns the first response with a success status. Other 4xx become ModelHttpError with the server's
 * message. The returned response's body is guarded by the same time limit, re-armed by `touch`.
 */
export async function openWithRetry(
  url: string,
  init: RequestInit,
  policy: HttpPolicy,
  callerSignal: AbortSignal | undefined,
  what: string,
): Promise<OpenResponse> {
  let lastProblem = "";
  for (let attempt = 1; ; attempt++) {
    callerSignal?.throwIfAborted();
    const guard = timeoutGuard(policy.timeoutMs, callerSignal);
    let response: Response;
    try {
      response = await policy.fetch(url, { ...init, signal: guard.signal });
    } catch (error) {
      guard.done();
      if (guard.timedOut()) {
        throw new ModelTimeoutError(
          `${what}: no response from ${url} within ${policy.timeoutMs} ms`,
          undefined,
          undefined,
          attempt,
        );
      }
      callerSignal?.throwIfAborted();
      if (isConnectionError(error) && attempt <= policy.maxRetries) {
        lastProblem = describeError(error);
        await sleep(backoff(policy, attempt, undefined), callerSignal);
        continue;
      }
      const reason = describeError(error);
      throw new ModelHttpError(
        `${what}: cannot reach ${url}: ${reason}${retried(attempt)}`,
        undefined,
        undefined,
        attempt,
      );
    }
    if (response.ok) {
      return {
        response,
        attempts: attempt,
        touch: guard.touch,
        done: guard.done,
        signal: guard.signal,
        timedOut: guard.timedOut,
      };
    }
    let body = "";
    try {
      body = await response.text();
    } catch {
      // the body is only for the message
    }
    guard.done();
    const serverMessage = serverErrorMessage(body);
    if (RETRY_STATUS.has(response.status) && attempt <= policy.maxRetries) {
      lastProblem = `HTTP ${response.status}`;
      await sleep(backoff(policy, attempt, response.headers.get("retry-after")), callerSignal);
      continue;
    }
    const detail = serverMessage ? `: ${serverMessage}` : "";
    const after = lastProblem && attempt > 1 ? ` (earlier attempts: ${lastProblem})` : "";
    throw new ModelHttpError(
      `${what}: ${url} answered HTTP ${response.status}${detail}${retried(attempt)}${after}`,
      response.status,
      serverMessage || undefined,
      attempt,
    );
  }
}

function retried(attempts: number): string {
  return attempts > 1 ? ` (after ${attempts} attempts)` : "";
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = cause instanceof Error ? (cause as Error & { code?: unknown }).code : undefined;
  if (cause instanceof Error)
    return `${error.message} (${typeof code === "string" ? `${code}: ` : ""}${cause.message})`;
  return error.message;
}

function backoff(policy: HttpPolicy, attempt: number, retryAfter: string | null | undefined): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
    if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, policy.maxRetryDelayMs);
  }
  const exponential = policy.retryBaseMs * 2 ** (attempt - 1);
  // Jitter in [50 %, 100 %] so many clients do not retry in lockstep.
  return Math.min(exponential * (0.5 + Math.random() / 2), policy.maxRetryDelayMs);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** An AbortController that fires after `ms` of silence (re-armed by touch) or when the caller aborts. */
function timeoutGuard(ms: number, callerSignal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new ModelTimeoutError(`no data for ${ms} ms`));
    }, ms);
  };
  const onAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener("abort", onAbort, { once: true });
  arm();
  return {
    signal: controller.signal,
    touch: arm,
    timedOut: () => timedOut,
    done: () => {
      if (timer) clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onAbort);
    },
  };
}
