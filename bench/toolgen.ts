import { execSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { trainingCodeVersion } from "../src/train/code-version.ts";
import { writeBenchResult } from "./lib/result.ts";
import { WORK } from "./toolgen/common.ts";
import { actionTurnHallucination, retrievalHallucination } from "./toolgen/hallucination.ts";
import { runMetaTool } from "./toolgen/metatool.ts";
import { DATA, METATOOL_PLANS, PLAN_SETS, SIZES, metaToolData, selectedPlans } from "./toolgen/plans.ts";
import { readyManifest } from "./toolgen/provenance.ts";
import { runStableToolBench } from "./toolgen/stabletoolbench.ts";

/**
 * bench:toolgen (issue 16): an honest protocol. MetaTool on a seeded train / dev / test split and StableToolBench
 * (G1 train / G1 dev / G2 test); baselines tuned on dev (BM25 k1, b, stemming; Naive Bayes α; softmax regression
 * lr, L2, epochs); ToolGen plans selected on dev; the hybrid's gate chosen on dev; everything reported on test
 * with every configuration tried; McNemar top-1 tests Holm-corrected; hallucination counted on raw outputs.
 *
 * Configuration (environment):
 *   TOOLGEN_BENCH_PLANS   `today` (default: what fits a shared 2-core machine now), `full` (the grid,
 *                         the tiny preset's size; for after the engine speed-up) or plan names, comma-separated
 *   TOOLGEN_BENCH_TRAIN   1 (default): train plans that are missing; 0: evaluate only trained ones (others are
 *                         listed under not_trained)
 *   TOOLGEN_BENCH_PARTS   metatool,stabletoolbench,hallucination (default all three)
 *   TOOLGEN_BENCH_DATA    the data folder (default ../shared/data beside the checkout)
 *   TOOLGEN_BENCH_WORK    where models are kept (default .cache/toolgen-bench); a rerun only evaluates
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const plansSpec = process.env.TOOLGEN_BENCH_PLANS ?? "today";
const train = process.env.TOOLGEN_BENCH_TRAIN !== "0";
const parts = (process.env.TOOLGEN_BENCH_PARTS ?? "metatool,stabletoolbench,hallucination").split(",");
const seed = 1;
const metatoolPlans = selectedPlans("metatool", plansSpec);
const stbPlans = selectedPlans("stabletoolbench", plansSpec);
if (metatoolPlans.length + stbPlans.length === 0)
  throw new Error(
    `TOOLGEN_BENCH_PLANS=${plansSpec} names no plan (sets: ${Object.keys(PLAN_SETS).join(", ")})`,
  );
const load = execSync("uptime").toString().trim();
const figures: Record<string, unknown> = {
  load_at_start: load,
  config: {
    plans: plansSpec,
    train,
    parts,
    data: DATA.replace(ROOT, "."),
    work: WORK.replace(ROOT, "."),
    sizes: SIZES,
    command_after_engine_speedup: "TOOLGEN_BENCH_PLANS=full npm run bench:toolgen",
  },
  code_version: trainingCodeVersion(),
  notes: {
    protocol:
      "all selection (baseline configurations, ToolGen plan, hybrid gate) on dev; every figure under `test` is on " +
      "queries no choice saw. The tiny preset's own schedule (32 + 16 epochs, dropout 0.3) was chosen in earlier " +
      "benches on the old 80/20 dev part, which is this split's dev + test: that older choice saw the test queries.",
    metrics:
      "NDCG/recall in percent over the top 5; ndcg_toolgen = ToolGen's eval (ideal over retrieved relevant)",
    paired: "McNemar on top-1 correctness, Holm-corrected over the comparisons listed in each family",
  },
};
if (parts.includes("metatool")) {
  figures.metatool = await runMetaTool({
    plans: metatoolPlans,
    train,
    seed,
    csv: join(ROOT, "bench", "results", "toolgen-metatool-test.csv"),
    defaultPlan: "d128x4-m32-r16-drop0.3",
  });
}
if (parts.includes("stabletoolbench"))
  figures.stabletoolbench = await runStableToolBench(stbPlans, train, seed);
if (parts.includes("hallucination")) {
  const data = metaToolData();
  const trained = METATOOL_PLANS.filter((p) => readyManifest(join(WORK, "metatool", p.name), p.stages)).map(
    (p) => ({ name: p.name, out: join(WORK, "metatool", p.name), maxContentTokens: p.maxContentTokens }),
  );
  figures.hallucination = {
    retrieval_metatool_test: data ? await retrievalHallucination(trained, data.test, 500) : null,
    agent_action_turns: await actionTurnHallucination(300),
  };
}
// Parts not run this time are carried over from the previous results file, marked with that run's date and
// revision, so one part can be re-run alone without losing the others.
const previousFile = join(ROOT, "bench", "results", "toolgen.json");
if (existsSync(previousFile)) {
  const previous = JSON.parse(readFileSync(previousFile, "utf8")) as Record<string, unknown>;
  for (const part of ["metatool", "stabletoolbench", "hallucination"])
    if (!parts.includes(part) && previous[part] !== undefined)
      figures[part] = {
        carried_over: { date: previous.date, git_revision: previous.git_revision },
        ...(previous[part] as Record<string, unknown>),
      };
}
figures.load_at_end = execSync("uptime").toString().trim();
writeBenchResult("toolgen", `TOOLGEN_BENCH_PLANS=${plansSpec} npm run bench:toolgen`, figures);
