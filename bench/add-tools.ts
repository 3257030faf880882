import { existsSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogEntry, LabelledQuery } from "../src/catalog/catalog.ts";
import { seededShuffle } from "../src/eval/split.ts";
import { writeFileAtomic } from "../src/io/atomic.ts";
import { trainToolGen } from "../src/train/pipeline.ts";
import { SCHEDULES } from "../src/train/schedule.ts";
import type { LlamaConfig } from "../src/nn/config.ts";
import { metaToolData } from "./toolgen/plans.ts";
import { figuresOf, WORK, type Figures } from "./toolgen/common.ts";
import { writeBenchResult } from "./lib/result.ts";
import { readManifest } from "../src/toolgen/model-folder.ts";
import type { AddToolsOptions } from "../src/train/add-tools.ts";

/**
 * Adding tools to a trained ToolGen model (issue 41), on MetaTool: a fifth of the tools (seeded) is held out of
 * the first training; the bench's query split (train / dev / test by query, bench/toolgen/plans.ts) is kept.
 *   base  — the tiny preset trained on the other 80 % of the tools and their train queries;
 *   full  — the tiny preset trained from scratch on every tool and every train query (the retraining it saves);
 *   add   — `base` plus the held-out tools and their train queries, through addToolsToModel (src/train/add-tools.ts).
 * Phases: `npx tsx bench/add-tools.ts base|full|add|report` (the trainings are heavy: run them under the lock).
 * Each training phase records its wall and CPU seconds next to its model (timing.json).
 */
export const HOLDOUT = { seed: 41, fraction: 0.2 };
export const TRAIN_SEED = 1;
/**
 * A smaller scale for both trainings alike (TOOLGEN_ADD_TOOLS_EPOCHS=memorization=8,retrieval=4), recorded in
 * the result; absent: the tiny preset's own schedule.
 */
export const EPOCHS: Record<string, { epochs: number }> | undefined = process.env.TOOLGEN_ADD_TOOLS_EPOCHS
  ? Object.fromEntries(
      process.env.TOOLGEN_ADD_TOOLS_EPOCHS.split(",").map((p) => {
        const [stage, n] = p.split("=");
        return [stage!, { epochs: Number(n) }];
      }),
    )
  : undefined;
/**
 * A smaller model than the tiny preset's for both trainings alike
 * (TOOLGEN_ADD_TOOLS_MODEL=hiddenSize=64,intermediateSize=160,numLayers=2,numHeads=2), recorded in the result.
 */
export const MODEL: Partial<LlamaConfig> | undefined = process.env.TOOLGEN_ADD_TOOLS_MODEL
  ? Object.fromEntries(
      process.env.TOOLGEN_ADD_TOOLS_MODEL.split(",").map((p) => {
        const [key, n] = p.split("=");
        return [key!, Number(n)];
      }),
    )
  : undefined;
/** The models' folder: one per scale, so that runs at two scales never meet. */
const scale = [process.env.TOOLGEN_ADD_TOOLS_EPOCHS, process.env.TOOLGEN_ADD_TOOLS_MODEL]
  .filter(Boolean)
  .join(",");
export const DIR = join(WORK, scale ? `add-tools-${scale.replace(/[^a-z0-9.]+/gi, "-")}` : "add-tools");

/** The tool split and the query parts restricted to each side. */
/** How a full (re)training is trained here and timed by add-tools-retime.ts: the tiny preset's whole schedule. */
export const FULL_TRAINING = {
  preset: "tiny",
  seed: TRAIN_SEED,
  progress: false,
  ...(EPOCHS ? { schedule: { stages: EPOCHS } } : {}),
  ...(MODEL ? { config: MODEL } : {}),
} as const;

/**
 * Where add-tools-retime.ts keeps its first timed full retraining (inside DIR): the retraining rebuilt by the same
 * code as the rebuilt base and additions, which add-tools-rebuild.ts scores (`full`).
 */
export const KEPT_FULL = "rebuild-full";

export function addToolsData() {
  const data = metaToolData();
  if (!data) return undefined;
  const ids = data.catalog.map((e) => e.id);
  const shuffled = seededShuffle(ids, HOLDOUT.seed);
  const newIds = new Set(shuffled.slice(0, Math.round(ids.length * HOLDOUT.fraction)));
  const isNew = (e: CatalogEntry) => newIds.has(e.id);
  const only = (rows: readonly LabelledQuery[], wantNew: boolean) =>
    rows.filter((q) => q.relevant.every((id) => newIds.has(id) === wantNew));
  return {
    ...data,
    newIds: [...newIds].sort(),
    oldCatalog: data.catalog.filter((e) => !isNew(e)),
    newCatalog: data.catalog.filter(isNew),
    parts: {
      old: { train: only(data.train, false), dev: only(data.dev, false), test: only(data.test, false) },
      new: { train: only(data.train, true), dev: only(data.dev, true), test: only(data.test, true) },
    },
  };
}

export interface Timing {
  wall_s: number;
  cpu_s: number;
  /** The machine's 1-minute load average at the start and at the end (2 cores; other work shares them). */
  load: [number, number];
}

/** Runs `work`, measuring the process's wall and CPU seconds (user + system, worker threads included). */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; timing: Timing }> {
  const load0 = loadavg()[0]!;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const cpu = process.cpuUsage(cpu0);
  return {
    result,
    timing: {
      wall_s: (performance.now() - t0) / 1000,
      cpu_s: (cpu.user + cpu.system) / 1e6,
      load: [load0, loadavg()[0]!],
    },
  };
}

export function readTiming(dir: string): Timing | undefined {
  const file = join(dir, "timing.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Timing) : undefined;
}

async function trainPhase(name: "base" | "full"): Promise<void> {
  const d = addToolsData();
  if (!d) throw new Error("bench/add-tools.ts: the MetaTool data is absent (set TOOLGEN_BENCH_DATA)");
  const out = join(DIR, name);
  const catalog = name === "base" ? d.oldCatalog : d.catalog;
  const queries = name === "base" ? d.parts.old.train : d.train;
  process.stderr.write(`${name}: ${catalog.length} tools, ${queries.length} train queries → ${out}\n`);
  // Only a run that starts from nothing is timed (a resumed or finished folder would time a part of it).
  const fresh = !existsSync(join(out, "toolgen.json"));
  const { timing } = await timed(() => trainToolGen({ catalog, queries, out, ...FULL_TRAINING }));
  if (fresh) writeFileAtomic(join(out, "timing.json"), JSON.stringify(timing) + "\n");
  process.stderr.write(`${name}: ${JSON.stringify(timing)}\n`);
}

/** A `divisor`-th of the base schedule's epochs per stage, for the `all` method. */
function fractionOfSchedule(divisor: number): Record<"memorization" | "retrieval", number> {
  return {
    memorization: (EPOCHS?.memorization?.epochs ?? SCHEDULES.tiny.stages.memorization.epochs) / divisor,
    retrieval: (EPOCHS?.retrieval?.epochs ?? SCHEDULES.tiny.stages.retrieval.epochs) / divisor,
  };
}

const TRIED_AFTER_TEST =
  "tried after the first five configurations' test figures at the default scale were seen; test scored once";

const AFTER_DEV =
  TRIED_AFTER_TEST + "; chosen after earlier configurations' dev figures of this round were seen";

/** rows-first-all-sixteenth-replay-4 at a quarter of the base's learning rates. */
const LR_QUARTER: Partial<AddToolsOptions> = {
  method: "all",
  rowsFirst: true,
  replay: 4,
  epochs: fractionOfSchedule(16),
  lr: {
    memorization: SCHEDULES.tiny.stages.memorization.lr / 4,
    retrieval: SCHEDULES.tiny.stages.retrieval.lr / 4,
  },
};

/**
 * h41e's pick (spread replay 2, retrieval 3, no user loss on replayed samples) at another addition seed; with
 * `retrieval` 2.5 the same with a shorter retrieval stage (its name says so).
 */
function noUserLossPickAt(
  seed: number,
  retrieval: 3 | 2.5 = 3,
): { name: string; options: Partial<AddToolsOptions> } {
  return {
    name: `rows-first-all-sixteenth-replay-4-lr-quarter-replay-2-retrieval-${retrieval}-spread-replay-no-user-loss-seed-${seed}`,
    options: {
      ...LR_QUARTER,
      replay: 2,
      epochs: { ...fractionOfSchedule(16), retrieval: fractionOfSchedule(16).retrieval * retrieval },
      spreadReplay: true,
      replayUserLoss: false,
      seed,
    },
  };
}

/**
 * The configurations of the addition that were tried, all recorded; the one reported as the method is chosen on
 * dev (new tools' dev NDCG@1, among those whose old tools' dev NDCG@1 is within 1 point of the base model's).
 */
export const CONFIGS: Array<{
  name: string;
  options: Partial<AddToolsOptions>;
  note?: string;
  /** Why its test split is not scored (dev lost to the configuration it was meant to beat): dev alone reported. */
  devOnly?: string;
  /** Declared with rule D (bench/add-tools-floors.ts floorD): its offset is also picked at floor D. */
  floorD?: true;
}> = [
  { name: "rows", options: {} },
  { name: "rows-no-imprint", options: { imprint: false } },
  { name: "rows-replay-1", options: { replay: 1 } },
  // Every old sample replayed (8 per new one is more than there are): added after the first four had been scored
  // on test at the reduced scale (rows lost 2.5 points on the old tools), so it is recorded as such.
  { name: "rows-replay-all", options: { replay: 8 } },
  // Every weight trained, one old sample replayed per new one, for an eighth of the base schedule's epochs.
  {
    name: "all-eighth",
    options: { method: "all", epochs: fractionOfSchedule(8) },
  },
  // Tried after the five above had been scored at the default scale (none kept the old tools within 1 point on
  // dev): the middle ground between them. Every weight trained with four old samples per new one (the old tools
  // seen as often as the new), for an eighth and a sixteenth of the epochs; the rows fit for 30 passes. Run and
  // reported once (06:19-06:22 UTC, worktree /work/wt41 at 78af89d), so their test figures are recorded as scored.
  {
    name: "all-eighth-replay-4",
    options: { method: "all", replay: 4, epochs: fractionOfSchedule(8) },
    note: TRIED_AFTER_TEST,
  },
  {
    name: "all-sixteenth-replay-4",
    options: { method: "all", replay: 4, epochs: fractionOfSchedule(16) },
    note: TRIED_AFTER_TEST,
  },
  { name: "rows-replay-all-30", options: { replay: 8, rowEpochs: 30 }, note: TRIED_AFTER_TEST },
  // This session's middle ground (chosen before running, after the eight above): the new rows fit first on the
  // frozen model (what `rows` does, 1.7 % of the CPU), then every weight for a sixteenth of the epochs with four
  // old samples per new one (all-sixteenth-replay-4, 6.2 %), at the base's rates and at a quarter of them (the
  // stages then adjust a model that already tells the new tools apart instead of learning them from a guess).
  {
    name: "rows-first-all-sixteenth-replay-4",
    options: { method: "all", rowsFirst: true, replay: 4, epochs: fractionOfSchedule(16) },
    note: TRIED_AFTER_TEST,
  },
  { name: "rows-first-all-sixteenth-replay-4-lr-quarter", options: LR_QUARTER, note: TRIED_AFTER_TEST },
  // Chosen before running, after the ten above (the reported lr-quarter lost 2.7 points of old dev): the same
  // addition held near the base model. L2-SP (anchor λ: AdamW's decay pulled toward the start, not zero): the
  // lr-quarter model's matrices moved ~0.007 a weight (old lm_head rows 0.024), and a pull of lr·λ a step holds
  // a steady push at ~1/λ, so λ 100 (~0.01) and 400 (~0.0025). And only the last layer, the final norm and
  // lm_head trained (the embedding and layers 0-2 held).
  ...[100, 400].map((anchor) => ({
    name: `rows-first-all-sixteenth-replay-4-lr-quarter-anchor-${anchor}`,
    options: { ...LR_QUARTER, anchor },
    note: TRIED_AFTER_TEST,
  })),
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-last-layer",
    options: { ...LR_QUARTER, trainLayers: 1 },
    note: TRIED_AFTER_TEST,
  },
  // Chosen before running, after the thirteen above (the anchor kept the old tools but held the new ones back
  // too): distillation instead, which holds what the model predicts for the old tools' replayed samples (the base
  // model's top 8 tool tokens at temperature 2, the usual setting of learning without forgetting) and leaves the
  // weights free to move for the new ones; at weights 0.5 and 0.9 of the soft term.
  ...[0.5, 0.9].map((weight) => ({
    name: `rows-first-all-sixteenth-replay-4-lr-quarter-distill-${weight}-t2`,
    options: { ...LR_QUARTER, distill: { weight, temperature: 2, topK: 8 } },
    note: TRIED_AFTER_TEST,
  })),
  // Chosen after the two above had been scored on dev only (old dev 79.50 / 79.57, new dev 60.00 / 56.31: both
  // just under the rule's 79.64): distillation 0.5 with a light anchor (λ 25, a quarter of the smallest tried).
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-distill-0.5-t2-anchor-25",
    options: { ...LR_QUARTER, distill: { weight: 0.5, temperature: 2, topK: 8 }, anchor: 25 },
    note: TRIED_AFTER_TEST,
  },
  // Chosen before running, after the sixteen above (distill 0.5 at T 2 kept the old tools best but held the new
  // ones at 60 new-dev where lr-quarter alone gets 70): the soft targets at temperature 1 (sharper targets, the soft
  // term's gradient at its own scale instead of T² times a flatter softmax over the whole vocabulary); and the
  // targets taken after the rows-first fit (teacher "rows": the model whose softmax already holds the new tools'
  // fitted rows, so that an old query a new tool also answers is not trained away from it), at T 2 and T 1.
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-distill-0.5-t1",
    options: { ...LR_QUARTER, distill: { weight: 0.5, temperature: 1, topK: 8 } },
    note: TRIED_AFTER_TEST,
  },
  // (The same at T 1 was declared with it and not run: at T 2 the rows teacher fell below lr-quarter alone on both
  // old and new dev, 76.91 / 68.62, and T 1 holds less, as distill-0.5-t1's 77.82 / 70.15 shows.)
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-distill-0.5-t2-rows-teacher",
    options: { ...LR_QUARTER, distill: { weight: 0.5, temperature: 2, topK: 8, teacher: "rows" } },
    note: TRIED_AFTER_TEST,
  },
  // Chosen after the two above had been scored on dev only (T 1: 77.82 / 70.15; rows teacher: 76.91 / 68.62, both
  // under lr-quarter-distill-0.5-t2's 79.50 old dev, 0.14 under the rule's threshold): that configuration again
  // with the addition's seed 2 (the spread a seed alone gives, against which the rule's margin can be read);
  // temperature 4 (a flatter teacher, a stronger hold on the old queries' ranking); and the new tools' share of
  // the mix raised at the same cost (two old samples per new one instead of four, retrieval for 1.5 sixteenths
  // of the epochs instead of one: the new tools seen 1.5 times as often, the old ones 0.75 times).
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-distill-0.5-t2-seed-2",
    options: { ...LR_QUARTER, distill: { weight: 0.5, temperature: 2, topK: 8 }, seed: 2 },
    note: AFTER_DEV,
  },
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-distill-0.5-t4",
    options: { ...LR_QUARTER, distill: { weight: 0.5, temperature: 4, topK: 8 } },
    note: AFTER_DEV,
  },
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-distill-0.5-t2-replay-2-retrieval-1.5",
    options: {
      ...LR_QUARTER,
      replay: 2,
      epochs: { ...fractionOfSchedule(16), retrieval: fractionOfSchedule(16).retrieval * 1.5 },
      distill: { weight: 0.5, temperature: 2, topK: 8 },
    },
    note: AFTER_DEV,
  },
  // Dev figures (NDCG@1 old / new; the rule's old-dev threshold 79.64), written before the report scored test:
  // T 1 77.82 / 70.15; rows teacher (T 2) 76.91 / 68.62; seed 2 79.73 / 59.69; T 4 78.05 / 39.69. The rule picks
  // lr-quarter-distill-0.5-t2-seed-2 (the first configuration over the threshold with new dev above
  // anchor-400's 45.85), on a margin of 0.09 where the same configuration at seed 1 misses by 0.14: a seed moves
  // old dev by 0.23 and new dev by 0.31, so the rule's choice between them is the seed's. Replay 2 with retrieval
  // 1.5 (run last, still before test): 78.51 / 69.54, under the threshold, so the pick stands.
  // Chosen after the report above had scored these on test (replay 2 reached 91 % of the retraining's new-tool
  // NDCG@1 by 0.78 points, the only configuration over 90 % within the time goal): the same at seed 2, to see
  // whether that holds on another seed. Not a candidate for the rule's pick (its choice is made above).
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-distill-0.5-t2-replay-2-retrieval-1.5-seed-2",
    options: {
      ...LR_QUARTER,
      replay: 2,
      epochs: { ...fractionOfSchedule(16), retrieval: fractionOfSchedule(16).retrieval * 1.5 },
      distill: { weight: 0.5, temperature: 2, topK: 8 },
      seed: 2,
    },
    note: "tried after this round's test figures were seen (a seed check of replay-2-retrieval-1.5); test scored once",
  },
  // Chosen after bench/add-tools-calibrate.ts had traced every addition's dev curve under one offset on the new
  // tools' logits (before any calibrated test figure): lr-quarter calibrated is the best new dev at the full
  // retraining's old dev - 1 (72.92) and at the base's - 1 (62.46), on seed 1 only; seeds 2 and 3 give the mean.
  ...[2, 3].map((seed) => ({
    name: `rows-first-all-sixteenth-replay-4-lr-quarter-seed-${seed}`,
    options: { ...LR_QUARTER, seed },
    note: "tried after the calibration's dev curves were seen (a seed check of lr-quarter); test scored once",
  })),
  // The offset chosen inside the addition (--new-tool-offset auto, src/train/choose-offset.ts) on a fifth of the
  // new tools' train queries and a fifth of the replayed old ones, both held out of the addition: the default
  // method and lr-quarter. Declared before either ran; the bench's own dev and test queries are not used to choose.
  ...[
    { name: "rows-offset-auto", options: { newToolOffset: "auto" as const } },
    {
      name: "rows-first-all-sixteenth-replay-4-lr-quarter-offset-auto",
      options: { ...LR_QUARTER, newToolOffset: "auto" as const },
    },
  ].map((c) => ({
    ...c,
    note: "--new-tool-offset auto (issue 41), declared after the calibration's figures; test scored once",
  })),
  // Declared before running (h41, 2026-12-06), after every figure above: distillation over the old tool tokens
  // alone (distill scope old). The base model gives the new tokens nothing, so distillation over the vocabulary
  // pushes them down on every replayed old query; over the old tool tokens the soft term holds the old tools'
  // ranking among themselves and leaves the new tokens to the labels. lr-quarter's setting otherwise, weight 0.5
  // at T 2 (the distillation tried before). Declared for seeds 1 and 2, test to be scored only if the mean rule-B
  // new dev beat lr-quarter's (72.92 and 66.77). Run for seed 1 only (seed 2 stopped unfinished at the session's
  // deadline), on a base model rebuilt on 2026-12-06 that is not the recorded one (same fingerprint, old dev
  // NDCG@1 79.65 against 80.64: bench/results/add-tools-rebuild.json): dev NDCG@1 old 75.69, new 63.69 at offset
  // 0, against lr-quarter rerun on the same rebuilt base 76.52 / 62.77 (add-tools-rebuild.json, "add
  // …-lr-quarter"): about a point moved from old to new, inside a seed's spread. Not calibrated, test not scored.
  {
    name: "rows-first-all-sixteenth-replay-4-lr-quarter-distill-0.5-t2-scope-old",
    options: {
      ...LR_QUARTER,
      distill: { weight: 0.5, temperature: 2, topK: 8, scope: "old" as const },
    },
    note: "distill scope old (h41), declared after every figure above; run on a rebuilt base that differs",
    devOnly:
      "dev (75.69 / 63.69) under lr-quarter's on its own base; the rebuilt base is not the recorded one, and the " +
      "calibrated comparison was not run before the deadline",
  },
  // Declared before running (h41, 2026-12-06 02:45 UTC), all three run on the rebuilt base by
  // bench/add-tools-rebuild.ts (`add NAME`: dev figures, dev curve under one offset on the new tools, the offsets
  // floors A and B pick there; `test NAME`: test once per offset), recorded in bench/results/add-tools-rebuild.json,
  // not in add-tools.json (whose models are the recorded base's). Hard replay (--hard-replay, replay-risk.ts): the
  // replayed old samples are the ones the new tools, once their rows are fitted, take the most softmax mass from,
  // instead of a random draw; at replay 4 every old query is replayed anyway, so the trade is made at replay 2
  // (the riskiest half) with the retrieval stage 1.5 sixteenths long (as replay-2-retrieval-1.5, without the
  // distillation), against the same with a random draw; and at replay 1 with retrieval 2.5 sixteenths (the new
  // queries seen 2.5 times, the same sample count as lr-quarter's). Rule: hard replay is kept if its new dev at
  // floor B (and A) beats its random-draw twin's, on seed 1 and on the mean of seeds 1 and 2 (the twins at the
  // addition's seed 2 declared with them; the replay-1 variant at seed 1 only, a probe without a twin).
  ...[
    { suffix: "replay-2-retrieval-1.5", replay: 2, retrieval: 1.5 },
    { suffix: "replay-2-retrieval-1.5-hard-1", replay: 2, retrieval: 1.5, hardReplay: 1 },
    { suffix: "replay-1-retrieval-2.5-hard-1", replay: 1, retrieval: 2.5, hardReplay: 1 },
    { suffix: "replay-2-retrieval-1.5-seed-2", replay: 2, retrieval: 1.5, seed: 2 },
    { suffix: "replay-2-retrieval-1.5-hard-1-seed-2", replay: 2, retrieval: 1.5, hardReplay: 1, seed: 2 },
    // Chosen at 04:07 UTC after the random twins' dev and test figures were seen (they cost ~4.5 % of the
    // retraining's CPU on this machine): the same with the retrieval stage twice as long, within the 10 %.
    { suffix: "replay-2-retrieval-3", replay: 2, retrieval: 3, afterTest: true },
    // Seed 2: dev only (76.37 / 71.08 at floor B), its test not scored before the deadline (h41, nor h41b: its model
    // was lost with a removed worktree and there was no time to add it again).
    { suffix: "replay-2-retrieval-3-seed-2", replay: 2, retrieval: 3, seed: 2, afterTest: true },
    // Declared before running (h41b, 2026-12-06 05:40 UTC), after every figure above; run on a base rebuilt
    // again (bench/add-tools-rebuild.ts base). Spread replay (src/train/add-tools-spread.ts): each epoch of the
    // retrieval stage replays other old samples instead of the same draw again (one draw of 2 per new query
    // covers half the 10,654 old queries; three spread draws cover all of them), at the same steps, so the same
    // CPU as replay-2-retrieval-3 (7.5-8 %). Hard replay lost because the old queries left out of the replay were
    // forgotten: this leaves none out. And the same with the retrieval stage 3.5 sixteenths long (about 9 %),
    // run only if the time allows. Rule (dev only): mean over seeds 1 and 2 of new dev NDCG@1 at the offset
    // floor B picks, against replay-2-retrieval-3's (69.54, 71.08); test scored once for the pick, both seeds.
    { suffix: "replay-2-retrieval-3-spread", replay: 2, retrieval: 3, spread: true },
    { suffix: "replay-2-retrieval-3-spread-seed-2", replay: 2, retrieval: 3, spread: true, seed: 2 },
    { suffix: "replay-2-retrieval-3.5-spread", replay: 2, retrieval: 3.5, spread: true },
    { suffix: "replay-2-retrieval-3.5-spread-seed-2", replay: 2, retrieval: 3.5, spread: true, seed: 2 },
    // Declared before running (h41c, 2026-12-06 08:50 UTC), after every figure above. The retrieval stage's
    // samples a pass, over the full retraining's (16 epochs of 13,180 queries, 210,880): replay 2 / retrieval 3
    // trains 3 × 3 × 2,526 = 22,734 (10.8 %), so its 7.5-8.0 % CPU could only come from a denominator timed under
    // heavier load (bench/add-tools-retime.ts times both the same way), and retrieval 3.5 (26,523, 12.6 %) cannot
    // reach 10 %. Three spread replays at 7-7.5 units of the new queries instead of 9 (about 8.4-9.0 %): less
    // replay with more retrieval (1.5 / 3, 1 / 3.5) and the same replay with less retrieval (2 / 2.5). Rule (dev
    // only): among these whose CPU share is at most 10 %, the best mean over seeds 1 and 2 of new dev NDCG@1 at the
    // offset floor B picks; test scored once for the pick, both seeds. (h41c ran the first two pairs and picked
    // 1.5 / 3; h41d ran 1 / 3.5 later under the same rule, where it beat 1.5 / 3 on dev: test scored for it too.)
    { suffix: "replay-1.5-retrieval-3-spread", replay: 1.5, retrieval: 3, spread: true, cheaper: true },
    {
      suffix: "replay-1.5-retrieval-3-spread-seed-2",
      replay: 1.5,
      retrieval: 3,
      spread: true,
      seed: 2,
      cheaper: true,
    },
    { suffix: "replay-2-retrieval-2.5-spread", replay: 2, retrieval: 2.5, spread: true, cheaper: true },
    {
      suffix: "replay-2-retrieval-2.5-spread-seed-2",
      replay: 2,
      retrieval: 2.5,
      spread: true,
      seed: 2,
      cheaper: true,
    },
    { suffix: "replay-1-retrieval-3.5-spread", replay: 1, retrieval: 3.5, spread: true, cheaper: true },
    {
      suffix: "replay-1-retrieval-3.5-spread-seed-2",
      replay: 1,
      retrieval: 3.5,
      spread: true,
      seed: 2,
      cheaper: true,
    },
  ].map((c) => ({
    name: `rows-first-all-sixteenth-replay-4-lr-quarter-${c.suffix}`,
    options: {
      ...LR_QUARTER,
      replay: c.replay,
      epochs: { ...fractionOfSchedule(16), retrieval: fractionOfSchedule(16).retrieval * c.retrieval },
      ...(c.hardReplay !== undefined ? { hardReplay: c.hardReplay } : {}),
      ...(c.seed !== undefined ? { seed: c.seed } : {}),
      ...("spread" in c ? { spreadReplay: true } : {}),
    },
    note:
      ("cheaper" in c
        ? "spread replay at less cost (h41c), declared before running; "
        : "spread" in c
          ? "spread replay (h41b), declared before running; "
          : "afterTest" in c
            ? "chosen after the random replay-2 twins' test figures were seen (h41); test scored once; "
            : "hard replay (h41), declared before running; ") +
      "run on the rebuilt base: bench/results/add-tools-rebuild.json",
    ...(c.retrieval === 3.5
      ? {
          devOnly:
            c.replay === 2
              ? "not run: the session's time was spent on the retrieval-3 spread pair (h41b); then left out by " +
                "h41c, whose arithmetic gives it 12.6 % of the retraining's retrieval samples (over the 10 %)"
              : "declared by h41c, not run by it for lack of time; run by h41d on the rebuilt base " +
                "(add-tools-rebuild.json): mean new dev at floor B 72.62 against replay-1.5-retrieval-3-spread's " +
                "71.38 at 9.0 % of the CPU, so the rule picked it and its test was scored there, once per seed",
        }
      : {}),
    ...(c.replay === 2 && c.retrieval === 2.5
      ? {
          devOnly:
            "dev lost under the rule to replay-1.5-retrieval-3-spread (mean new dev at floor B 71.08 against " +
            "71.38; h41c): test not scored",
        }
      : {}),
    ...(c.hardReplay !== undefined
      ? {
          devOnly:
            c.replay === 1
              ? "not run: dropped after replay-2-hard-1 lost to its random twin on dev"
              : "dev lost to the random-draw twin on both seeds (rebuilt base, dev NDCG@1 old/new at offset 0: " +
                "73.09 / 65.54 and 73.86 / 63.38 against 74.31 / 72.00 at seed 1; floor A out of reach, the old " +
                "tools' best over every offset 76.45 / 76.30 against 78.81: the old queries left out of the " +
                "replay are forgotten)",
        }
      : {}),
  })),
  // Declared before running (h41e, 2026-12-06 14:30 UTC), after every figure above. The retrieval stage's step pays
  // the user loss (the LM loss over the question's words, ~550 of a batch's ~610 target rows), which the base model
  // already learnt; the addition is after the tool tokens. A cheaper step buys more replay for the same CPU:
  // replay 2.5 / retrieval 3 spread with a sampled user loss (512 candidates, ~0.67x a step side by side in h40d's
  // bench; 829 steps, about 9.1 % by work), and replay 2 / retrieval 3 spread with the user loss on the new
  // samples only (the replayed old ones train their tool token alone; 711 steps at ~0.74x, about 8.5 %); replay 2
  // / retrieval 3 spread sampled (about 7.7 %) third, run only if the time allows. Their share is read at the rate
  // of a full-user-loss retrieval step timed right after each in the same process (add-tools-rebuild.ts
  // `reference_full_user_loss`; their own cheaper step would understate the retraining's). Rule, as h41c's: among
  // the spread configurations run on both seeds whose CPU share is at most 10 % (1.5 / 3, 2 / 2.5, 1 / 3.5 and
  // these), the best mean over seeds 1 and 2 of new dev NDCG@1 at floor B picks; test scored once per seed for
  // the pick only (if it stays 1 / 3.5, already scored, nothing new is scored). No margin on the old tools: every
  // pick lands on floor B on dev and test has fallen on both sides of the goal's line, so a margin chosen now
  // would be chosen on those test figures.
  ...[
    { suffix: "replay-2.5-retrieval-3-spread-user-sampled-512", replay: 2.5, sampled: 512 },
    { suffix: "replay-2.5-retrieval-3-spread-user-sampled-512-seed-2", replay: 2.5, sampled: 512, seed: 2 },
    { suffix: "replay-2-retrieval-3-spread-replay-no-user-loss", replay: 2, replayUserLoss: false },
    {
      suffix: "replay-2-retrieval-3-spread-replay-no-user-loss-seed-2",
      replay: 2,
      replayUserLoss: false,
      seed: 2,
    },
    { suffix: "replay-2-retrieval-3-spread-user-sampled-512", replay: 2, sampled: 512 },
    { suffix: "replay-2-retrieval-3-spread-user-sampled-512-seed-2", replay: 2, sampled: 512, seed: 2 },
  ].map((c) => ({
    name: `rows-first-all-sixteenth-replay-4-lr-quarter-${c.suffix}`,
    options: {
      ...LR_QUARTER,
      replay: c.replay,
      epochs: { ...fractionOfSchedule(16), retrieval: fractionOfSchedule(16).retrieval * 3 },
      spreadReplay: true,
      ...(c.sampled !== undefined ? { userLossSamples: c.sampled } : {}),
      ...(c.replayUserLoss !== undefined ? { replayUserLoss: c.replayUserLoss } : {}),
      ...(c.seed !== undefined ? { seed: c.seed } : {}),
    },
    note:
      "a cheaper step for more replay (h41e), declared before running; run on the rebuilt base: " +
      "bench/results/add-tools-rebuild.json",
    ...(c.replayUserLoss === undefined
      ? {
          devOnly:
            "dev lost under the rule to replay-2-retrieval-3-spread-replay-no-user-loss (mean new dev at floor B " +
            (c.replay === 2.5 ? "70.46" : "70.16") +
            " against 75.85; h41e): test not scored",
        }
      : {}),
  })),
  // Declared before running (h41f, 2026-12-06 15:40 UTC): a confirmation of h41e's pick on fresh seeds. Rule C, as
  // rule B with the floor raised by a margin of 0.5 (the full retraining's old dev - 0.5; on the rebuilt base, B +
  // 0.5: bench/add-tools-floors.ts), applied to the pick at the addition's seeds 3 and 4, whose test figures nobody
  // has seen; test scored once per seed at offset 0, B's offset and C's. The margin was chosen AFTER seeds 1 and
  // 2's test figures were seen (at offset 0 they met both goals, at B's offset the old tools missed by 0.54), so
  // seeds 3 and 4 are the only fresh evidence for it; seeds 1 and 2 are not scored again at any new offset.
  // Result (h41f, add-tools-rebuild.json): test mean at C old 77.40 (missed by 0.13), new 74.41 (94.9 %), CPU ~8.4 %.
  ...[3, 4].map((seed) => ({
    ...noUserLossPickAt(seed),
    note:
      "a seed check of h41e's pick under rule C (floor B + 0.5, the margin chosen after seeds 1 and 2's test " +
      "figures were seen), declared before running (h41f); run on the rebuilt base: " +
      "bench/results/add-tools-rebuild.json",
  })),
  // Declared before running (h41g, 2026-12-06 16:50 UTC), before anything of the rebuilt full retraining
  // (bench/add-tools-retime.ts `full`, kept as DIR/rebuild-full, started 16:47) was scored. Rule D
  // (bench/add-tools-floors.ts floorD): the offset with the best new dev whose old dev >= the REBUILT retraining's
  // old dev NDCG@1 - 1; judged on test against the rebuilt retraining's old test - 1 (the recorded retraining's
  // line, 78.52 - 1 = 77.52, reported beside it). Floors B and C translate the recorded retraining's loss onto the
  // rebuilt base, and the rebuilt base gains 1.56 dev -> test where the recorded models gain 0.24-0.27: the goal's
  // comparison was between models built by different code. The same configuration as h41e's pick at the
  // addition's fresh seeds 5 and 6 (nobody has seen their test figures); test scored once per seed at offset 0
  // and at each floor's offset (A, B, C, D), the mean of the two at D reported against both lines.
  // Status (h41g, 17:30 UTC): both added, dev only (add-tools-rebuild.json); the timed retraining was stopped at
  // step 844 of 6,590 (it would have ended past the deadline), so D has no floor yet and neither test is scored.
  ...[5, 6].map((seed) => ({
    ...noUserLossPickAt(seed),
    note:
      "rule D (floor: the rebuilt retraining's old dev - 1) on fresh seeds, declared before running and before the " +
      "rebuilt retraining was scored (h41g); run on the rebuilt base: bench/results/add-tools-rebuild.json",
    floorD: true as const,
  })),
  // Declared before running (coordinator, 2026-12-06 19:30 UTC), after seeds 5-6 met both quality goals at rule D
  // and the CPU share measured in one process at 2 threads missed (10.22 %: addition 366.6 CPU s, of which the
  // retrieval stage 326.7, against the full retraining's 3,587; add-tools-retime.json). The same configuration
  // with the retrieval stage 2.5 sixteenths long instead of 3 (at that run's rate about 312 CPU s, 8.7 %), at the
  // addition's fresh seeds 7 and 8, rule D (floor: the rebuilt retraining's old dev - 1 = 77.43); test scored once
  // per seed, the mean of the two at D reported against both lines; the CPU share timed again beside the full
  // retraining in one process (bench/add-tools-retime.ts full NAME-seed-7 NAME-seed-8). Whatever it gives is
  // recorded; nothing else is run if it misses.
  // Result (add-tools-rebuild.json, add-tools-retime.json): test at D old 77.62 / 77.84, new 72.39 / 69.70 (mean
  // 77.73 / 71.05: 92.1 % of the rebuilt retraining's new tools, old +0.63); CPU 8.78 % / 8.32 % of the retraining.
  ...[7, 8].map((seed) => ({
    ...noUserLossPickAt(seed, 2.5),
    note:
      "the pick with a retrieval stage of 2.5 sixteenths (for the CPU share), rule D on fresh seeds, declared " +
      "before running; run on the rebuilt base: bench/results/add-tools-rebuild.json",
    floorD: true as const,
  })),
];

type Part = readonly LabelledQuery[];

/** NDCG@1/3/5, recall, MRR of a model folder on queries, every tool of its index ranked. */
async function score(dir: string, parts: Record<string, Part>): Promise<Record<string, Figures>> {
  // Imported here: the training phases need none of the retrieval code.
  const { openToolGenRetriever } = await import("../src/retrieval/toolgen-open.ts");
  const { rankHits } = await import("./toolgen/metatool.ts");
  const retriever = openToolGenRetriever(dir, undefined);
  const out: Record<string, Figures> = {};
  for (const [name, queries] of Object.entries(parts)) {
    const hits = await rankHits(retriever, queries, 5);
    out[name] = figuresOf(
      queries,
      hits.map((h) => h.slice(0, 5).map((x) => x.id)),
    );
  }
  return out;
}

async function addPhase(names: readonly string[]): Promise<void> {
  const d = addToolsData();
  if (!d) throw new Error("bench/add-tools.ts: the MetaTool data is absent (set TOOLGEN_BENCH_DATA)");
  const { addToolsToModel } = await import("../src/train/add-tools.ts");
  for (const c of CONFIGS.filter((x) => names.length === 0 || names.includes(x.name))) {
    const out = join(DIR, `add-${c.name}`);
    if (existsSync(join(out, "timing.json"))) {
      process.stderr.write(`${c.name}: done already (${out})\n`);
      continue;
    }
    rmSync(out, { recursive: true, force: true });
    const { timing } = await timed(() =>
      addToolsToModel({
        from: join(DIR, "base"),
        out,
        tools: d.newCatalog,
        queries: d.parts.new.train,
        progress: false,
        ...c.options,
      }),
    );
    writeFileAtomic(join(out, "timing.json"), JSON.stringify(timing) + "\n");
    process.stderr.write(`${c.name}: ${JSON.stringify(timing)}\n`);
    // Dev only (the test split is the report's, scored once): what the next configuration is chosen on.
    const dev = await score(out, { old_dev: d.parts.old.dev, new_dev: d.parts.new.dev });
    const n1 = (f: Figures | undefined) => (f?.["ndcg@1"] ?? NaN).toFixed(2);
    process.stderr.write(`${c.name}: dev NDCG@1 old ${n1(dev.old_dev)} new ${n1(dev.new_dev)}\n`);
  }
}

/**
 * The figures the last report recorded for a model folder whose timing is the same (the same run): a test split
 * is scored once per model, so a later report copies them instead of scoring the model again.
 */
function recordedFor(
  previous: Record<string, unknown> | undefined,
  timing: Timing | undefined,
): Record<string, unknown> | undefined {
  const prev = previous as (Record<string, unknown> & { timing?: Timing }) | undefined;
  return prev?.timing && timing && prev.timing.cpu_s === timing.cpu_s && prev.timing.wall_s === timing.wall_s
    ? prev
    : undefined;
}

/** The result file the last report wrote at this scale (none at another scale or when absent). */
function previousReport(): Record<string, unknown> | undefined {
  const file = new URL("./results/add-tools.json", import.meta.url);
  if (!existsSync(file)) return undefined;
  const prev = JSON.parse(readFileSync(file, "utf8")) as { protocol?: { epochs?: unknown; model?: unknown } };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const epochs = EPOCHS ?? "the tiny preset's (memorization 32, retrieval 16)";
  const model = MODEL ?? "the tiny preset's (d128, 4 layers)";
  return same(prev.protocol?.epochs, epochs) && same(prev.protocol?.model, model)
    ? (prev as Record<string, unknown>)
    : undefined;
}

async function reportPhase(): Promise<void> {
  const d = addToolsData();
  if (!d) throw new Error("bench/add-tools.ts: the MetaTool data is absent (set TOOLGEN_BENCH_DATA)");
  const { old, new: fresh } = d.parts;
  const parts = { old_dev: old.dev, old_test: old.test, new_dev: fresh.dev, new_test: fresh.test };
  const previous = previousReport();
  const prevConfigs = (previous?.configs ?? {}) as Record<string, Record<string, unknown>>;
  const figuresOnly = (r: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(r).filter(([k]) => k.includes("_dev") || k.includes("_test")),
    ) as Record<string, Figures>;
  // A base model rebuilt on a fresh machine (its timing is its own) keeps the record the additions were scored
  // against: whether the rebuild is the same model is bench/add-tools-rebuild.ts's question, not the report's.
  const baseTiming =
    (previous?.base as { timing?: Timing } | undefined)?.timing ?? readTiming(join(DIR, "base"));
  const baseRecorded = recordedFor(previous?.base as Record<string, unknown>, baseTiming);
  const baseFigures = baseRecorded
    ? figuresOnly(baseRecorded)
    : await score(join(DIR, "base"), { old_dev: old.dev, old_test: old.test });
  // The full retraining is optional here (a report while it has not run says so: its figures are absent).
  // (On a machine without its folder, the last report's record of it, timing included, is kept.)
  const fullTiming =
    readTiming(join(DIR, "full")) ?? (previous?.full as { timing?: Timing } | undefined)?.timing;
  const fullRecorded = recordedFor(previous?.full as Record<string, unknown>, fullTiming);
  const fullFigures: Record<string, Figures> = fullRecorded
    ? figuresOnly(fullRecorded)
    : fullTiming
      ? await score(join(DIR, "full"), parts)
      : {};
  const base = { timing: baseTiming, ...baseFigures };
  const full = fullTiming ? { timing: fullTiming, ...fullFigures } : { not_run: true };
  const ndcg1 = (f: Figures | undefined) => f?.["ndcg@1"] ?? NaN;
  const configs: Record<string, Record<string, unknown>> = {};
  for (const c of CONFIGS) {
    const dir = join(DIR, `add-${c.name}`);
    const timing = readTiming(dir);
    if (!timing) {
      // Not on this machine (a fresh checkout): the last report's record stays as it was.
      if (prevConfigs[c.name]) configs[c.name] = prevConfigs[c.name]!;
      continue;
    }
    const recorded = recordedFor(prevConfigs[c.name], timing);
    const wanted = c.devOnly ? { old_dev: old.dev, new_dev: fresh.dev } : parts;
    let figures = recorded ? figuresOnly(recorded) : await score(dir, wanted);
    // Recorded on dev alone and no longer held back: its test split, scored now (once).
    if (recorded && !c.devOnly && !figures.new_test)
      figures = { ...figures, ...(await score(dir, { old_test: old.test, new_test: fresh.test })) };
    configs[c.name] = {
      options: c.options,
      ...(c.note ? { note: c.note } : {}),
      ...(c.devOnly ? { test_not_scored: c.devOnly } : {}),
      scored: recorded ? (recorded.scored ?? previous?.date) : new Date().toISOString(),
      timing,
      cpu_share_of_full: fullTiming ? timing.cpu_s / fullTiming.cpu_s : null,
      wall_share_of_full: fullTiming ? timing.wall_s / fullTiming.wall_s : null,
      ...figures,
      new_test_share_of_full: ndcg1(figures.new_test) / ndcg1(fullFigures.new_test),
      old_test_change: ndcg1(figures.old_test) - ndcg1(baseFigures.old_test),
      // The full retraining loses old-tool NDCG@1 too (the new tools compete with them): the change against it.
      old_test_change_vs_full: ndcg1(figures.old_test) - ndcg1(fullFigures.old_test),
      added: readManifest(dir)?.added?.at(-1),
    };
  }
  // Selection on dev only: the best new-tool dev NDCG@1 among the configurations that keep the old tools' dev
  // NDCG@1 within 1 point of the base model's.
  const eligible = Object.entries(configs).filter(
    ([, f]) => ndcg1(f.old_dev as Figures) >= ndcg1(baseFigures.old_dev) - 1,
  );
  // None eligible: the configuration that keeps the most of the old tools' dev NDCG@1, and the result says so.
  const byOldDev = Object.entries(configs).sort(
    ([, a], [, b]) => ndcg1(b.old_dev as Figures) - ndcg1(a.old_dev as Figures),
  );
  const selected =
    eligible.sort(([, a], [, b]) => ndcg1(b.new_dev as Figures) - ndcg1(a.new_dev as Figures))[0]?.[0] ??
    byOldDev[0]?.[0];
  const selection_note =
    eligible.length > 0
      ? "best new-tool dev NDCG@1 within 1 point of the base's old-tool dev NDCG@1"
      : "no configuration kept the old tools' dev NDCG@1 within 1 point: the one that kept the most is reported";
  const s = selected ? configs[selected]! : undefined;
  writeBenchResult("add-tools", "npx tsx bench/add-tools.ts base && … full && … add && … report", {
    protocol: {
      data: "MetaTool (../shared/data/metatool): queries split train/dev/test by query as bench:toolgen does (seed 1, 80/10/10)",
      holdout: { ...HOLDOUT, tools: d.catalog.length, new_tools: d.newIds.length, new_ids: d.newIds },
      queries: {
        old: Object.fromEntries(Object.entries(old).map(([k, v]) => [k, v.length])),
        new: Object.fromEntries(Object.entries(fresh).map(([k, v]) => [k, v.length])),
      },
      epochs: EPOCHS ?? "the tiny preset's (memorization 32, retrieval 16)",
      model: MODEL ?? "the tiny preset's (d128, 4 layers)",
      base: "tiny preset, seed 1, on the 80 % tools and their train queries",
      full: "tiny preset, same schedule as base, seed 1, from scratch on every tool and every train query",
      add: "the base model plus the held-out tools and their train queries (src/train/add-tools.ts), per configuration",
      selection:
        "new tools' dev NDCG@1 among the configurations within 1 point of the base model's old-tool dev NDCG@1",
      scoring:
        "NDCG@k with every tool of the model ranked (the base model ranks the 159 old tools; the others all 199)",
    },
    base,
    full,
    configs,
    selected,
    selection_note,
    // How the run went, when it departed from the protocol above (TOOLGEN_ADD_TOOLS_NOTES).
    ...(process.env.TOOLGEN_ADD_TOOLS_NOTES ? { notes: process.env.TOOLGEN_ADD_TOOLS_NOTES } : {}),
    load_at_report: loadavg(),
    goals: s && {
      time_share_cpu: { value: s.cpu_share_of_full, goal: "<= 0.10" },
      time_share_wall: { value: s.wall_share_of_full, goal: "<= 0.10" },
      new_tools_ndcg1_share_of_full: { value: s.new_test_share_of_full, goal: ">= 0.90" },
      old_tools_ndcg1_change_points: { value: s.old_test_change, goal: ">= -1" },
      old_tools_ndcg1_change_vs_full_retraining_points: {
        value: s.old_test_change_vs_full,
        goal: "(for reading)",
      },
    },
  });
}

// Run as a script only (bench/add-tools-calibrate.ts imports the split and the configurations).
const phase = process.argv[1] === fileURLToPath(import.meta.url) ? process.argv[2] : "imported";
if (phase === "imported") {
  // nothing to run
} else if (phase === "base" || phase === "full") await trainPhase(phase);
else if (phase === "add") await addPhase(process.argv.slice(3));
else if (phase === "report") await reportPhase();
else if (phase === "split") {
  const d = addToolsData()!;
  const count = (p: Record<string, unknown[]>) =>
    Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.length]));
  process.stdout.write(
    JSON.stringify({
      tools: d.catalog.length,
      new: d.newIds.length,
      old: count(d.parts.old),
      newq: count(d.parts.new),
      train: d.train.length,
      dir: DIR,
      configs: CONFIGS,
    }) + "\n",
  );
} else {
  process.stderr.write("usage: tsx bench/add-tools.ts base|full|add|report|split\n");
  process.exit(1);
}
