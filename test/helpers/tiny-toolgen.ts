import type { ToolGenTrainOptions } from "../../src/train/pipeline.ts";

/**
 * The schedule and shape the end-to-end tests train ToolGen with: two layers of 64, a 400-token vocabulary and a
 * retrieval stage long enough to rank the synthetic catalog's tools well in seconds. Scored on its own training
 * queries, so no token dropout and no query loss. `averageLast` is set only when given: an absent key keeps the
 * stage's default.
 */
export function tinyToolGenOptions(
  options: { maxPositions?: number; averageLast?: number } = {},
): Pick<ToolGenTrainOptions, "preset" | "seed" | "progress" | "log" | "schedule" | "config"> {
  const retrieval = { epochs: 20, lr: 3e-3, tokenDropout: 0, userLoss: false };
  return {
    preset: "tiny",
    seed: 1,
    progress: false,
    log: () => {},
    schedule: {
      tokenizerVocab: 400,
      batchSize: 16,
      stages: {
        memorization: { epochs: 8 },
        retrieval:
          options.averageLast === undefined ? retrieval : { ...retrieval, averageLast: options.averageLast },
      },
    },
    config: {
      hiddenSize: 64,
      intermediateSize: 160,
      numLayers: 2,
      numHeads: 2,
      maxPositions: options.maxPositions ?? 64,
    },
  };
}
