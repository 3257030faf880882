import { findPlan, metaToolData, planVariant, stableToolBenchData } from "./plans.ts";
import { trainVariant } from "./common.ts";

/**
 * Rebuilds one bench model: `npx tsx bench/toolgen/train.ts metatool d64x2-m8-r8-drop0.3` trains (or resumes)
 * WORK/metatool/d64x2-m8-r8-drop0.3 on the protocol's train queries (plans.ts), exactly as bench:toolgen does.
 */
const [group, name] = process.argv.slice(2);
if (!group || !name) {
  process.stderr.write("usage: tsx bench/toolgen/train.ts metatool|stabletoolbench PLAN\n");
  process.exit(1);
}
const plan = findPlan(group, name);
const data = group === "metatool" ? metaToolData() : stableToolBenchData();
if (!data) {
  process.stderr.write(`bench/toolgen/train.ts: the ${group} data is absent (set TOOLGEN_BENCH_DATA)\n`);
  process.exit(1);
}
const { out, manifest, wallSeconds } = await trainVariant(group, planVariant(plan), data.catalog, data.train);
process.stdout.write(
  JSON.stringify({ out, fingerprint: manifest.fingerprint, code: manifest.code, wallSeconds }) + "\n",
);
