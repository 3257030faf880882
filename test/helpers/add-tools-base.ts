import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { trainToolGen } from "../../src/train/pipeline.ts";
import { tinyToolGenOptions } from "./tiny-toolgen.ts";

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
    ...tinyToolGenOptions({ averageLast: 0 }),
  });
}
