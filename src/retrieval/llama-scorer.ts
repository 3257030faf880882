import type { Llama } from "../nn/llama.ts";
import type { BatchScorer } from "./generative.ts";

/**
 * Next-token logits for many prompts in one forward pass of the engine (right-padded rows; each prompt's logits
 * are read at its last real position, which causal attention keeps independent of the padding). This is what
 * makes evaluating thousands of queries with atomic ids quick.
 */
export function llamaBatchScorer(model: Llama): BatchScorer {
  return {
    async nextTokenLogits(prompts) {
      if (prompts.length === 0) return [];
      const V = model.config.vocabSize;
      const T = Math.min(
        model.config.maxPositions,
        prompts.reduce((m, p) => Math.max(m, p.length), 1),
      );
      const B = prompts.length;
      const tokens = new Int32Array(B * T).fill(model.config.padTokenId ?? 0);
      const positions = new Int32Array(B * T);
      const last: number[] = [];
      prompts.forEach((p, b) => {
        // A prompt longer than the context keeps its end (the assistant header the id follows).
        const ids = p.length > T ? p.slice(p.length - T) : p;
        ids.forEach((id, t) => (tokens[b * T + t] = id));
        for (let t = 0; t < T; t++) positions[b * T + t] = t;
        last.push(b * T + ids.length - 1);
      });
      const logits = model.logitsAt(
        { B, T, tokens, targets: new Int32Array(B * T).fill(-1), positions },
        last,
      );
      return last.map((_, j) => logits.slice(j * V, (j + 1) * V));
    },
  };
}
