/**
 * Next-token log-probabilities from one llama.cpp context sequence, shared by any number of token sessions.
 * Each request names its whole token prefix; the KV cache keeps the longest common prefix with what the
 * sequence holds and evaluates only the rest, so beams that share a prompt pay for it once. Requests run one
 * at a time (the sequence is a single KV cache).
 */
import { pickToken } from "../../nn/infer/decode.ts";
import { Rng } from "../../nn/rng.ts";
import type { TokenSession } from "../model.ts";
import type { LlamaCppEvaluateOptions, LlamaCppSequence, LlamaCppToken } from "./runtime.ts";
import { ToolgenError } from "../../errors.ts";

type EvaluateOptions = LlamaCppEvaluateOptions;

export interface TokenGeneration {
  maxTokens: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  grammarEvaluationState?: EvaluateOptions["grammarEvaluationState"];
  tokenBias?: EvaluateOptions["tokenBias"];
  /** Keep generating after end-of-generation tokens (they are returned like any other token). */
  ignoreEog?: boolean;
  /** Called with each new token; returning true stops generation (the token is kept). */
  onToken?: (id: number) => boolean;
  signal?: AbortSignal;
}

export interface GeneratedTokens {
  ids: number[];
  /** "stop": an end-of-generation token (not included) or onToken said stop; "length": maxTokens or a full context. */
  finishReason: "stop" | "length";
}

export class SharedSequence {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sequence: LlamaCppSequence,
    readonly vocabSize: number,
    readonly contextSize: number,
  ) {}

  /** Runs `task` after every earlier request has finished. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Drops what the sequence holds beyond the common prefix with `tokens` (at most `keep` tokens kept). */
  private async alignTo(tokens: readonly number[], keep: number): Promise<number> {
    const held = this.sequence.contextTokens;
    let common = 0;
    while (common < held.length && common < tokens.length && held[common] === tokens[common]) common++;
    common = Math.min(common, keep);
    if (held.length > common) {
      await this.sequence.eraseContextTokenRanges([{ start: common, end: this.sequence.nextTokenIndex }]);
    }
    return common;
  }

  /** Samples tokens after `prompt` (greedy unless a temperature is given), reusing the cached prefix. */
  generate(prompt: readonly number[], o: TokenGeneration): Promise<GeneratedTokens> {
    if (prompt.length === 0) return Promise.reject(new Error("llama.cpp: the prompt is empty"));
    if (prompt.length >= this.contextSize) {
      return Promise.reject(
        new Error(
          `llama.cpp: the prompt (${prompt.length} tokens) leaves no room in the context (${this.contextSize})`,
        ),
      );
    }
    return this.exclusive(async () => {
      const common = await this.alignTo(prompt, prompt.length - 1);
      const max = Math.min(o.maxTokens, this.contextSize - prompt.length);
      const ids: number[] = [];
      if (max <= 0) return { ids, finishReason: "length" as const };
      const temperature = o.temperature ?? 0;
      const iterator = this.sequence.evaluate(prompt.slice(common) as LlamaCppToken[], {
        temperature,
        topP: temperature > 0 ? o.topP : undefined,
        seed: o.seed,
        grammarEvaluationState: o.grammarEvaluationState,
        tokenBias: o.tokenBias,
        yieldEogToken: o.ignoreEog === true,
      });
      let finishReason: "stop" | "length" = "stop";
      for await (const token of iterator) {
        ids.push(token);
        if (o.onToken?.(token)) break;
        if (o.signal?.aborted) break;
        if (ids.length >= max) {
          finishReason = "length";
          break;
        }
      }
      return { ids, finishReason };
    });
  }

  /**
   * Generation restricted to `allowed` ids at every step (node-llama-cpp's TokenBias cannot forbid
   * end-of-generation tokens, so the mask is applied here to the log-probabilities). Stops after an id for
   * which `isEnd` is true, or after maxTokens.
   */
  async generateAmong(
    prompt: readonly number[],
    allowed: readonly number[],
    o: TokenGeneration & { isEnd: (id: number) => boolean },
  ): Promise<GeneratedTokens> {
    if (allowed.length === 0) throw new ToolgenError("invalid_option", "a tokens constraint needs at least one id");
    const rng = new Rng(o.seed ?? 0);
    const ids: number[] = [];
    const max = Math.min(o.maxTokens, this.contextSize - prompt.length);
    while (ids.length < max && !o.signal?.aborted) {
      const logProbs = await this.logProbs([...prompt, ...ids]);
      const id = pickToken(logProbs, { temperature: o.temperature, topP: o.topP }, rng, allowed);
      ids.push(id);
      if (o.onToken?.(id) || o.isEnd(id)) return { ids, finishReason: "stop" };
    }
    return { ids, finishReason: ids.length >= max ? "length" : "stop" };
  }

  /** Log-probabilities of the next token after `tokens`, at the last position. */
  async logProbs(tokens: readonly number[]): Promise<Float32Array> {
    const [last] = await this.logProbsAt(tokens, [tokens.length - 1]);
    return last!;
  }

  /**
   * Log-probabilities of the next token after each of the given positions of `tokens` (a softmax of llama.cpp's
   * logits; they differ from the raw logits by one constant per position, so argmax and beam scores agree).
   */
  logProbsAt(tokens: readonly number[], positions: readonly number[]): Promise<Float32Array[]> {
    if (tokens.length === 0)
      return Promise.reject(new Error("llama.cpp: cannot evaluate an empty token prefix"));
    if (tokens.length > this.contextSize) {
      return Promise.reject(
        new Error(`llama.cpp: ${tokens.length} tokens exceed the context size (${this.contextSize})`),
      );
    }
    for (const t of tokens) {
      if (!(Number.isInteger(t) && t >= 0 && t < this.vocabSize)) {
        return Promise.reject(
          new Error(`llama.cpp: token id ${t} is outside the vocabulary (size ${this.vocabSize})`),
        );
      }
    }
    const first = Math.min(...positions);
    return this.exclusive(async () => {
      // The positions asked for must be (re)evaluated to produce their outputs.
      const common = await this.alignTo(tokens, first);
      const want = new Set(positions.map((p) => p - common));
      const input = tokens
        .slice(common)
        .map((t, i) =>
          want.has(i)
            ? ([t as LlamaCppToken, { generateNext: { probabilities: true } }] as const)
            : (t as LlamaCppToken),
        );
      const results = await this.sequence.controlledEvaluate(
        input as Parameters<LlamaCppSequence["controlledEvaluate"]>[0],
      );
      return positions.map((p) => {
        const probs = results[p - common]?.next.probabilities;
        if (!probs) throw new ToolgenError("model_failure", `llama.cpp returned no probabilities at position ${p}`);
        const out = new Float32Array(this.vocabSize).fill(-Infinity);
        for (const [id, prob] of probs) out[id] = Math.log(prob);
        return out;
      });
    });
  }
}

/** A TokenSession: a token prefix; forks are free, evaluation goes through the shared sequence. */
export class LlamaCppTokenSession implements TokenSession {
  private disposed = false;

  constructor(
    private readonly shared: SharedSequence,
    private tokens: number[] = [],
  ) {}

  async append(ids: number[]): Promise<Float32Array> {
    if (this.disposed) throw new ToolgenError("invalid_option", "llama.cpp token session was disposed");
    if (ids.length === 0 && this.tokens.length === 0) throw new ToolgenError("invalid_option", "append needs at least one token");
    this.tokens = [...this.tokens, ...ids];
    return this.shared.logProbs(this.tokens);
  }

  async fork(): Promise<TokenSession> {
    if (this.disposed) throw new ToolgenError("invalid_option", "llama.cpp token session was disposed");
    return new LlamaCppTokenSession(this.shared, this.tokens.slice());
  }

  dispose(): void {
    this.disposed = true;
  }
}
