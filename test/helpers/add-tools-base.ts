import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { trainToolGen } from "../../src/train/pipeline.ts";

/**
 * The small ToolGen model the add-tools tests add to: two layers of 64, a 400-token vocabulary, a retrieval stage
 * long enough to rank the synthetic catalog's tools well (seconds to train).
 */
export async function trainAddToolsBase(
  out: string,
  catalog: readonly CatalogEntry[],
  queries: readonly LabelledQuery[],
): Promise<void> {
  await trainToolGen({
    catalog,
    queries,
    out,
    preset: "tiny",
    seed: 1,
    progress: false,
    log: () => {},
    schedule: {
      tokenizerVocab: 400,
      batchSize: 16,
      stages: {
        memorization: { epochs: 8 },
        retrieval: { epochs: 20, lr: 3e-3, tokenDropout: 0, userLoss: false, averageLast: 0 },
      },
    },
    config: { hiddenSize: 64, intermediateSize: 160, numLayers: 2, numHeads: 2, maxPositions: 64 },
  });
}
