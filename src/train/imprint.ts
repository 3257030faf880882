import type { Llama } from "../nn/llama.ts";
import type { ChatFormat, ChatTokenizer } from "../toolgen/chat-encoding.ts";
import { answerStates } from "./fit-new-rows.ts";

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
  const d = model.config.hiddenSize;
  const head = model.lmHead;
  const norm = (v: Float32Array, at = 0) => Math.hypot(...v.subarray(at, at + d));
  const scale =
    o.scaleFrom.reduce((s, id) => s + norm(head, id * d), 0) / Math.max(1, o.scaleFrom.length) || 1;
  for (const { tokenId, prompts } of imprints) {
    const h = answerStates(model, tokenizer, prompts, o);
    const sum = new Float32Array(d);
    for (let j = 0; j < prompts.length; j++) {
      const n = norm(h, j * d) || 1;
      for (let i = 0; i < d; i++) sum[i]! += h[j * d + i]! / n;
    }
    const n = norm(sum) || 1;
    const row = head.subarray(tokenId * d, (tokenId + 1) * d);
    for (let i = 0; i < d; i++) row[i] = (sum[i]! / n) * scale;
  }
}
