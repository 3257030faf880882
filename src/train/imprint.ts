import type { Llama } from "../nn/llama.ts";
import type { ChatFormat, ChatTokenizer } from "../toolgen/chat-encoding.ts";
import { answerStates } from "./answer-states.ts";

/** What imprinting reads: a new token and the user turns after which the model should write it. */
export interface Imprint {
  tokenId: number;
  /** The tool's document (its memorisation prompt) and, when known, queries that name the tool. */
  prompts: readonly string[];
}

export interface ImprintOptions {
  format: ChatFormat;
  maxContentTokens: number;
  /** Tokens whose lm_head rows set the scale of the new rows (the model's own tool tokens). */
  scaleFrom: readonly number[];
}

/**
 * Weight imprinting (Qi et al., 2018) for new tool tokens: each new token's lm_head row is set to the mean
 * direction of the model's final hidden states where it would write the tool — after the tool's document and
 * after the queries that name it — with the mean length of the existing tool rows. The model then already
 * scores the new tool for inputs it reads like the tool's own, before any training; a row made from the mean of
 * the name's token rows (virtualisation) leaves the new tool all but unreachable, and the short training that
 * follows starts from there. Only lm_head rows change; the embedding rows stay as virtualisation set them.
 */
export function imprintToolRows(
  model: Llama,
  tokenizer: ChatTokenizer,
  imprints: readonly Imprint[],
  o: ImprintOptions,
): void {
  const prompts = imprints.flatMap((x) => x.prompts);
  const targets = imprints.flatMap((x) => x.prompts.map(() => x.tokenId));
  const H = answerStates(model, tokenizer, prompts, o);
  imprintFromStates(
    model.lmHead,
    model.config.hiddenSize,
    H,
    targets,
    meanRowLength(model.lmHead, model.config.hiddenSize, o.scaleFrom),
  );
}

/** The mean length of the lm_head rows of `ids` (1 when there are none). */
export function meanRowLength(head: Float32Array, d: number, ids: readonly number[]): number {
  const norm = (at: number) => Math.hypot(...head.subarray(at * d, (at + 1) * d));
  return ids.reduce((s, id) => s + norm(id), 0) / Math.max(1, ids.length) || 1;
}

/**
 * Sets the row of every token in `targets` to the mean direction of the states (rows of `H`, d each) whose target
 * it is, each state normalised first, at length `scale`. Tokens without a state keep their rows.
 */
export function imprintFromStates(
  head: Float32Array,
  d: number,
  H: Float32Array,
  targets: readonly number[],
  scale: number,
): void {
  const sums = new Map<number, Float32Array>();
  targets.forEach((id, j) => {
    const sum = sums.get(id) ?? new Float32Array(d);
    sums.set(id, sum);
    const n = Math.hypot(...H.subarray(j * d, (j + 1) * d)) || 1;
    for (let i = 0; i < d; i++) sum[i]! += H[j * d + i]! / n;
  });
  for (const [id, sum] of sums) {
    const n = Math.hypot(...sum) || 1;
    for (let i = 0; i < d; i++) head[id * d + i] = (sum[i]! / n) * scale;
  }
}
