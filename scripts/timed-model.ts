// Per-item latency for the caller build scripts' BFCL runs: one wrapper and one quantile, read by
// build-caller.ts and build-factored-caller.ts alike.
import type { ChatModel } from "../src/models/model.ts";

/** The model with each generate call's wall time pushed onto `times` (milliseconds). */
export function timed(model: ChatModel, times: number[]): ChatModel {
  return {
    id: model.id,
    stream: model.stream.bind(model),
    generate: async (messages, options) => {
      const t = performance.now();
      try {
        return await model.generate(messages, options);
      } finally {
        times.push(performance.now() - t);
      }
    },
  };
}

/** The q-quantile of `xs` (nearest rank), rounded to `decimals`. */
export function quantile(xs: readonly number[], q: number, decimals = 0): number {
  const s = [...xs].sort((a, b) => a - b);
  const scale = 10 ** decimals;
  return Math.round((s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0) * scale) / scale;
}
