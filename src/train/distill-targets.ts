import type { Llama } from "../nn/llama.ts";
import type { ChatFormat, ChatTokenizer } from "../toolgen/chat-encoding.ts";
import { answerStates } from "./answer-states.ts";

/** A model's distribution over tool tokens after one prompt: its `topK` most likely, renormalised. */
export interface ToolDistribution {
  ids: Int32Array;
  probs: Float32Array;
}

export interface DistillTargetOptions {
  format: ChatFormat;
  maxContentTokens: number;
  /** Softmax temperature (the student's soft term uses the same one). */
  temperature: number;
  /** Tokens kept per prompt (the rest of the mass is dropped and the kept part renormalised). */
  topK: number;
}

/**
 * What `model` predicts over `toolIds` where it answers each prompt: softmax(h·W_tool / T), its top `topK`
 * renormalised (ties broken by token id, so the targets do not depend on anything but the model and prompt).
 * Computed once from the model before an addition changes it, these are the soft targets that distillation
 * (learning without forgetting) holds the old tools' queries to: the changed model keeps ranking the old tools
 * for them as the model did, second and third choices included, which a hard label alone does not ask for.
 */
export function distillTargets(
  model: Llama,
  tokenizer: ChatTokenizer,
  prompts: readonly string[],
  toolIds: readonly number[],
  o: DistillTargetOptions,
): ToolDistribution[] {
  const d = model.config.hiddenSize;
  const head = model.lmHead;
  const H = answerStates(model, tokenizer, prompts, o);
  const K = Math.min(o.topK, toolIds.length);
  const z = new Float64Array(toolIds.length);
  return prompts.map((_, n) => {
    for (let j = 0; j < toolIds.length; j++) {
      const r = toolIds[j]! * d;
      let s = 0;
      for (let i = 0; i < d; i++) s += H[n * d + i]! * head[r + i]!;
      z[j] = s / o.temperature;
    }
    const order = [...toolIds.keys()].sort((a, b) => z[b]! - z[a]! || toolIds[a]! - toolIds[b]!).slice(0, K);
    const max = z[order[0]!]!;
    const e = order.map((j) => Math.exp(z[j]! - max));
    const sum = e.reduce((a, x) => a + x, 0);
    return {
      ids: Int32Array.from(order, (j) => toolIds[j]!),
      probs: Float32Array.from(e, (x) => x / sum),
    };
  });
}
