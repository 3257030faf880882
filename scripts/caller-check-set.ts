// The function caller's own-kind check set, read by build-caller.ts --synth-check and caller-loss-check.ts:
// synth questions (seed 999, not a training seed) over every 50th StableToolBench API, one-call and 2-4-call
// ones, no declines and no distractors. One definition, so both scripts read the same questions.
import { loadCatalog } from "../src/catalog/load.ts";
import { synthesize } from "../src/synth/index.ts";
import { callerExamples, type CallerExample } from "../src/train/caller-data.ts";

export function callerCheckSet(): CallerExample[] {
  const catalog = loadCatalog("../shared/data/stabletoolbench/apis.json").filter((_, i) => i % 50 === 7);
  const items = synthesize(catalog, {
    seed: 999,
    perTool: 2,
    multiCallShare: 1,
    maxCalls: 4,
    declineShare: 0,
    distractors: 0,
  });
  return callerExamples(items, catalog);
}
