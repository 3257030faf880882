import { existsSync } from "node:fs";
import { join } from "node:path";
import { codeStatus } from "../../src/train/pipeline.ts";
import { trainingCodeVersion } from "../../src/train/code-version.ts";
import { MANIFEST_FILE, readManifest, type ToolGenManifest } from "../../src/toolgen/model-folder.ts";
import type { Stage } from "../../src/train/datasets.ts";
import type { Plan } from "./plans.ts";

/**
 * The default plan's model as a user builds it (same fingerprint as the bench's: same data, options and seed).
 * StableToolBench's G1 train part is three files less a dev part, written by bench/toolgen/write-split.ts.
 */
export const CLI_REBUILD = {
  metatool: [
    "npx toolgen eval split --queries DATA/metatool/queries.csv --seed 1 --train-out mt-train.csv " +
      "--dev-out mt-dev.csv --test-out mt-test.csv",
    "npx toolgen train --catalog DATA/metatool/tools.json --queries mt-train.csv --out mt-tiny --preset tiny",
  ],
  stabletoolbench: [
    "TOOLGEN_BENCH_DATA=DATA npx tsx bench/toolgen/write-split.ts stabletoolbench .",
    "npx toolgen train --catalog DATA/stabletoolbench/apis.json --queries stb-g1-train.jsonl --out stb-tiny " +
      "--preset tiny",
  ],
};

/** The folder's manifest when every stage is trained, else undefined (the bench then lists it as not trained). */
export function readyManifest(out: string, stages: readonly Stage[]): ToolGenManifest | undefined {
  if (!existsSync(join(out, MANIFEST_FILE))) return undefined;
  const m = readManifest(out);
  return m && stages.every((s) => m.done.some((r) => r.stage === s)) ? m : undefined;
}

/**
 * What the results JSON says about one trained model: its training cost per stage (seconds, tokens/s, peak RSS)
 * and its provenance — the data/options fingerprint, the code version it was trained with and whether that is
 * the code this run has (`code_status`: same, changed or unknown), and the one command that rebuilds it.
 */
export function modelSummary(
  group: "metatool" | "stabletoolbench",
  plan: Plan,
  manifest: ToolGenManifest,
): Record<string, unknown> {
  return {
    training: manifest.done.map((r) => ({
      stage: r.stage,
      samples: r.samples,
      epochs: r.epochs,
      steps: r.steps,
      token_dropout: r.tokenDropout ?? 0,
      user_loss: r.userLoss ?? false,
      seconds: Math.round(r.seconds),
      tokens_per_second: Math.round(r.tokensPerSecond),
      peak_rss_mb: r.peakRssMb,
      final_loss: Math.round(r.finalLoss * 1e4) / 1e4,
      code: r.code ?? null,
    })),
    train_seconds: Math.round(manifest.done.reduce((s, r) => s + r.seconds, 0)),
    peak_rss_mb: Math.max(...manifest.done.map((r) => r.peakRssMb)),
    fingerprint: manifest.fingerprint,
    code: manifest.code?.hash ?? null,
    code_status: codeStatus(manifest),
    current_code: trainingCodeVersion().hash,
    rebuild: `TOOLGEN_BENCH_DATA=… npx tsx bench/toolgen/train.ts ${group} ${plan.name}`,
    ...(plan.cliDefaults ? { rebuild_with_the_cli: CLI_REBUILD[group] } : {}),
  };
}

/**
 * The ToolGen plans a previous results file reports (and the earlier runs it carried) that this run did not
 * evaluate: their figures, cost and provenance, each marked with the run it comes from. A plan evaluated now
 * whose earlier model had another fingerprint (the plan changed, e.g. the default preset's schedule) stays on
 * record as `PLAN@FINGERPRINT`.
 */
export function earlierRuns(
  previous: Record<string, unknown>,
  key: string,
  evaluatedNow: Readonly<Record<string, { fingerprint?: unknown }>>,
  run: Record<string, unknown>,
): Record<string, unknown> {
  const keep = [
    "plan",
    "dev",
    "test",
    "g2_test",
    "memorization_g1_trained_queries",
    "train_seconds",
    "fingerprint",
  ];
  const sameModel = (name: string, entry: Record<string, unknown>) =>
    evaluatedNow[name] !== undefined &&
    (entry.fingerprint === undefined || evaluatedNow[name].fingerprint === entry.fingerprint);
  const out: Record<string, unknown> = {};
  const carried = (previous.earlier_runs ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, entry] of Object.entries(carried))
    if (!sameModel(name, entry))
      out[evaluatedNow[name] ? `${name}@${String(entry.fingerprint)}` : name] = entry;
  for (const [name, entry] of Object.entries(
    (previous[key] ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    if (sameModel(name, entry)) continue;
    const label = evaluatedNow[name] ? `${name}@${String(entry.fingerprint)}` : name;
    out[label] = {
      run,
      ...Object.fromEntries(keep.filter((k) => entry[k] !== undefined).map((k) => [k, entry[k]])),
      peak_rss_mb: entry.peak_rss_mb,
      code: entry.code,
    };
  }
  return out;
}
