import type { Llama } from "../nn/llama.ts";
import { encodeChat, type ChatFormat, type ChatTokenizer } from "../toolgen/chat-encoding.ts";

/**
 * The final hidden state where the model writes its answer, one row of d per prompt (forward passes only).
 * Prompts are batched by length, so that a batch is not padded to its longest document.
 */
export function answerStates(
  model: Llama,
  tokenizer: ChatTokenizer,
  prompts: readonly string[],
  o: { format: ChatFormat; maxContentTokens: number; batch?: number },
): Float32Array {
  const d = model.config.hiddenSize;
  const out = new Float32Array(prompts.length * d);
  const size = o.batch ?? 64;
  const encoded = prompts.map(
    (text) =>
      encodeChat(tokenizer, [{ role: "user", content: text }], {
        format: o.format,
        generationPrompt: true,
        maxContentTokens: o.maxContentTokens,
        maxLength: model.config.maxPositions,
      }).ids,
  );
  const byLength = [...encoded.keys()].sort((a, b) => encoded[a]!.length - encoded[b]!.length);
  for (let start = 0; start < byLength.length; start += size) {
    const members = byLength.slice(start, start + size);
    const T = members.reduce((m, i) => Math.max(m, encoded[i]!.length), 1);
    const B = members.length;
    const tokens = new Int32Array(B * T).fill(model.config.padTokenId ?? 0);
    const positions = new Int32Array(B * T);
    members.forEach((i, b) => {
      tokens.set(encoded[i]!, b * T);
      for (let t = 0; t < T; t++) positions[b * T + t] = t;
    });
    const rows = members.map((i, b) => b * T + encoded[i]!.length - 1);
    const h = model.hiddenAt({ B, T, tokens, targets: new Int32Array(B * T).fill(-1), positions }, rows);
    members.forEach((i, b) => out.set(h.subarray(b * d, (b + 1) * d), i * d));
  }
  return out;
}
