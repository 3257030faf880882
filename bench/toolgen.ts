import { execSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { trainingCodeVersion } from "../src/train/code-version.ts";
import { writeBenchResult } from "./lib/result.ts";
import { modelDir, modelDirOverrides, WORK } from "./toolgen/common.ts";
import { actionTurnHallucination, retrievalHallucination } from "./toolgen/hallucination.ts";
import { runMetaTool } from "./toolgen/metatool.ts";
import {
  DATA,
  DEFAULT_PLAN,
  METATOOL_PLANS,
  PLAN_SETS,
  SIZES,
  metaToolData,
  selectedPlans,
} from "./toolgen/plans.ts";
import { earlierRuns, readyManifest } from "./toolgen/provenance.ts";
import { runStableToolBench } from "./toolgen/stabletoolbench.ts";

/**
 * bench:toolgen (issue 16): an honest protocol. MetaTool on a seeded train / dev / test split and StableToolBench
 * (G1 train / G1 dev / G2 test); baselines tuned on dev (BM25 k1, b, stemming; Naive Bayes α; softmax regression
 * lr, L2, epochs); ToolGen plans selected on dev; the hybrid's gate chosen on dev; everything reported on test
 * with every configuration tried; McNemar top-1 tests Holm-corrected; hallucination counted on raw outputs.
 *
 * Configuration (environment):
 *   TOOLGEN_BENCH_PLANS   `default` (the default preset's model, `tiny-preset`, plus one small model per
 *                         multi-token index kind), `today` (d64 × 2 plans), `full` (every plan) or plan names
 *   TOOLGEN_BENCH_MODELS  GROUP/PLAN=DIR pairs: folders trained elsewhere, e.g. by `toolgen train --preset tiny`
 *                         (only read; the bench stops unless the folder is finished and its fingerprint is the
 *                         plan's: same data, options and seed)
 *   TOOLGEN_BENCH_TRAIN   1 (default): train plans that are missing; 0: evaluate only trained ones (others are
 *                         listed under not_trained)
 *   TOOLGEN_BENCH_PARTS   metatool,stabletoolbench,hallucination (default all three)
 *   TOOLGEN_BENCH_DATA    the data folder (default ../shared/data beside the checkout)
 *   TOOLGEN_BENCH_WORK    where models are kept (default .cache/toolgen-bench); a rerun only evaluates
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const plansSpec = process.env.TOOLGEN_BENCH_PLANS ?? "default";
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
    models: Object.fromEntries(modelDirOverrides()),
    sizes: SIZES,
    default_plan: DEFAULT_PLAN,
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
    defaultPlan: DEFAULT_PLAN,
  });
}
if (parts.includes("stabletoolbench"))
  figures.stabletoolbench = await runStableToolBench(stbPlans, train, seed);
if (parts.includes("hallucination")) {
  const data = metaToolData();
  // The plans of this run that are trained (and any other trained plan in WORK), wherever their folder is.
  const trained = METATOOL_PLANS.map((p) => ({ p, out: modelDir("metatool", p.name).out }))
    .filter(({ p, out }) => readyManifest(out, p.stages))
    .map(({ p, out }) => ({ name: p.name, out, maxContentTokens: p.maxContentTokens }));
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
// ToolGen plans an earlier run evaluated on the same split and this run did not (their folders may be gone):
// listed with that run's date and revision, so the configurations tried stay on record.
if (existsSync(previousFile)) {
  const previous = JSON.parse(readFileSync(previousFile, "utf8")) as Record<string, unknown>;
  for (const [part, key] of [
    ["metatool", "toolgen"],
    ["stabletoolbench", "models"],
  ] as const) {
    const now = figures[part] as Record<string, unknown> | undefined;
    const before = previous[part] as Record<string, unknown> | undefined;
    if (!now || !before || now.carried_over) continue;
    now.earlier_runs = earlierRuns(
      before,
      key,
      (now[key] ?? {}) as Record<string, { fingerprint?: unknown }>,
      {
        date: previous.date,
        git_revision: previous.git_revision,
      },
    );
  }
}
figures.load_at_end = execSync("uptime").toString().trim();
writeBenchResult("toolgen", `TOOLGEN_BENCH_PLANS=${plansSpec} npm run bench:toolgen`, figures);
