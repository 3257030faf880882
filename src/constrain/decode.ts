/**
 * Decoding under a schema constraint on the built-in engine: the prompt goes into the KV cache, then each step
 * picks among the ids the constraint allows (greedy, or temperature + top-p over the allowed ids only) until an
 * end id or `maxTokens`. The budget is passed to the constraint, so the reply is a complete value either way.
 */
import { pickToken } from "../nn/infer/decode.ts";
import { Rng } from "../nn/rng.ts";
import type { TokenConstraint } from "./token-mask.ts";
import { ToolgenError } from "../errors.ts";

/** What a decoding loop needs from a model: the KV-cache session's `append` (next-token logits). */
export interface LogitsSource {
  append(ids: readonly number[]): Float32Array;
}

export interface ConstrainedDecodeOptions {
  maxTokens: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  signal?: AbortSignal;
  /** Called with each accepted id (not the end id). */
  onToken?: (id: number) => void;
}

export interface ConstrainedDecodeResult {
  /** The generated ids, without the end id. */
  ids: number[];
  /** "stop": an end id was chosen; "length": maxTokens was reached (the value is complete all the same). */
  finishReason: "stop" | "length";
}

export function decodeConstrained(
  session: LogitsSource,
  prompt: readonly number[],
  constraint: TokenConstraint,
  o: ConstrainedDecodeOptions,
): ConstrainedDecodeResult {
  if (constraint.bytesToComplete > o.maxTokens) {
    throw new ToolgenError(
      "invalid_option",
      `maxTokens ${o.maxTokens} is too small for the schema: its shortest value takes ${constraint.bytesToComplete} bytes`,
    );
  }
  const rng = new Rng(o.seed ?? 0);
  const ids: number[] = [];
  let logits = session.append(prompt);
  while (ids.length < o.maxTokens) {
    if (o.signal?.aborted) throw o.signal.reason ?? new Error("aborted");
    const allowed = constraint.allowed(o.maxTokens - ids.length);
    if (allowed.length === 0) return { ids, finishReason: "stop" };
    const id = pickToken(logits, { temperature: o.temperature, topP: o.topP }, rng, allowed);
    if (!constraint.accept(id)) return { ids, finishReason: "stop" };
    ids.push(id);
    o.onToken?.(id);
    if (ids.length < o.maxTokens) logits = session.append([id]);
  }
  return { ids, finishReason: "length" };
}
