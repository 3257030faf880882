import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { addToolsData, DIR, FULL_TRAINING, KEPT_FULL, timed, type Timing } from "./add-tools.ts";
import { timedAddition } from "./add-tools-timed.ts";
import { writeBenchResult } from "./lib/result.ts";
import { writeFileAtomic } from "../src/io/atomic.ts";
import { trainToolGen } from "../src/train/pipeline.ts";
import { SCHEDULES } from "../src/train/schedule.ts";
import type { StageReport } from "../src/toolgen/model-folder.ts";
import {
  fullRetrievalSteps,
  marker,
  phases,
  scaleSlice,
  shareAtOwnRate,
  stageEnd,
  type Mark,
  type StageCost,
} from "./add-tools-cpu.ts";

/**
 * CPU seconds of additions and of the full retraining, measured the same way in one process one after the other
 * (issue 41: the spread replay's 11.1 % and the plain replay's 7.5-8.0 % were timed hours apart, under other
 * loads, against a denominator timed at yet another load). Each item runs at this process's thread count:
 *   NAME            — the addition bench/add-tools.ts declares as NAME, from the rebuilt base, into a scratch
 *                     folder; its weights' digest against add-tools-rebuild.json's record of NAME (a model that
 *                     is the recorded one and has no folder on this machine is kept as DIR/rebuild-NAME, so that
 *                     `add-tools-rebuild.ts test NAME` can score it; otherwise the scratch folder is removed);
 *   full-sixteenth  — the full retraining (every tool, every train query, tiny preset, seed 1) for a sixteenth
 *                     of its schedule's epochs (memorization 2 of 32, retrieval 1 of 16), whose CPU seconds,
 *                     scaled stage by stage by the full schedule's steps over the slice's, estimate the full
 *                     retraining's CPU at this moment's load;
 *   full            — the full retraining itself (bench/add-tools.ts full's options, into a scratch folder kept as
 *                     DIR/rebuild-full, with its timing.json, when there is none yet, removed otherwise), timed, not
 *                     scaled: an addition's cpu_share_of_measured_full is its CPU over the mean
 *                     of the run's full items' CPU (the same process, thread count and, as near as the machine
 *                     allows, load).
 * `TOOLGEN_KERNEL_THREADS=1 /tmp/coord/onecore npx tsx bench/add-tools-retime.ts ITEM ...` (items run in the order
 * given; a name may repeat). Appends one run to bench/results/add-tools-retime.json, keeping earlier runs.
 */
const RESULT = new URL("./results/add-tools-retime.json", import.meta.url);
const REBUILD = new URL("./results/add-tools-rebuild.json", import.meta.url);
const SLICE = "full-sixteenth";
const FULL = "full";
/** The slice's share of the tiny schedule's epochs, per stage. */
const SLICE_DIVISOR = 16;

interface Item {
  item: string;
  timing: Timing;
  stages: StageCost[];
  /** CPU seconds per phase, from the marks: the rows' fit, each stage (its sample encoding included), the rest. */
  phases_cpu_s: Record<string, number>;
  marks: Mark[];
  rows_fit_s?: number;
  weights_sha256?: string;
  same_weights_as_recorded?: boolean | null;
  kept_as?: string;
  /** full-sixteenth only: the full retraining's CPU seconds, scaled from this slice. */
  full_cpu_estimate_s?: number;
}

const isAddition = (r: Item) => r.item !== SLICE && r.item !== FULL;

const costOf = (r: StageReport): StageCost => ({
  stage: r.stage,
  samples: r.samples,
  steps: r.steps,
  wall_s: r.seconds,
  tokens: Math.round(r.tokensPerSecond * r.seconds),
});

function digest(dir: string): string {
  return createHash("sha256")
    .update(readFileSync(join(dir, "model.safetensors")))
    .digest("hex");
}

function recordedDigest(name: string): string | undefined {
  if (!existsSync(fileURLToPath(REBUILD))) return undefined;
  const { checks } = JSON.parse(readFileSync(REBUILD, "utf8")) as {
    checks?: Record<string, { weights_sha256?: string }>;
  };
  return checks?.[`add ${name}`]?.weights_sha256;
}

/** The full schedule's steps: the slice's samples per stage, at the tiny preset's epochs and batch size. */
function fullStepsOf(slice: readonly StageCost[]): Record<string, number> {
  const { stages, batchSize } = SCHEDULES.tiny;
  return Object.fromEntries(
    slice.map((r) => [
      r.stage,
      Math.max(
        1,
        Math.ceil((stages[r.stage as "memorization" | "retrieval"].epochs * r.samples) / batchSize),
      ),
    ]),
  );
}

/**
 * A run's shares: each addition's CPU over the full retraining's estimate (the mean of the run's slices), and at
 * the addition's own CPU rate against the full retraining's work in retrieval steps (the first slice's).
 */
function derived(items: readonly Item[]) {
  const slices = items.filter((r) => r.item === SLICE && r.full_cpu_estimate_s);
  const denominator = slices.length
    ? slices.reduce((a, r) => a + r.full_cpu_estimate_s!, 0) / slices.length
    : undefined;
  const slice = slices[0];
  const work = slice && fullRetrievalSteps(slice.phases_cpu_s, slice.stages, fullStepsOf(slice.stages));
  const fulls = items.filter((r) => r.item === FULL);
  const measured = fulls.length ? fulls.reduce((a, r) => a + r.timing.cpu_s, 0) / fulls.length : undefined;
  return {
    items: items.map((r) => {
      if (!isAddition(r)) return r;
      const retrieval = r.stages.find((s) => s.stage === "retrieval");
      const cpu = r.phases_cpu_s.retrieval;
      return {
        ...r,
        retrieval_cpu_per_step: retrieval && cpu ? cpu / retrieval.steps : undefined,
        ...(denominator ? { cpu_share_of_full: r.timing.cpu_s / denominator } : {}),
        ...(measured ? { cpu_share_of_measured_full: r.timing.cpu_s / measured } : {}),
        ...(work && retrieval && cpu
          ? { cpu_share_at_own_rate: shareAtOwnRate(r.timing.cpu_s, cpu, retrieval.steps, work) }
          : {}),
      };
    }),
    ...(denominator ? { full_cpu_estimate_s: denominator } : {}),
    ...(measured ? { full_cpu_measured_s: measured } : {}),
    ...(work ? { full_work_in_retrieval_steps: work } : {}),
  };
}

async function runSlice(): Promise<Item> {
  const d = addToolsData()!;
  const out = join(DIR, "retime", SLICE);
  rmSync(out, { recursive: true, force: true });
  const stages = SCHEDULES.tiny.stages;
  const epochs = {
    memorization: stages.memorization.epochs / SLICE_DIVISOR,
    retrieval: stages.retrieval.epochs / SLICE_DIVISOR,
  };
  const { log, marks } = marker();
  const { result: m, timing } = await timed(() =>
    trainToolGen({
      log,
      catalog: d.catalog,
      queries: d.train,
      out,
      preset: "tiny",
      seed: 1,
      progress: false,
      schedule: {
        stages: { memorization: { epochs: epochs.memorization }, retrieval: { epochs: epochs.retrieval } },
      },
    }),
  );
  const costs = m.done.map(costOf);
  const fullSteps = fullStepsOf(costs);
  rmSync(out, { recursive: true, force: true });
  // The setup (tokenizer, virtualisation) falls in the memorization phase and is scaled with it: a few seconds.
  const phasesCpu = phases(marks, [stageEnd("memorization"), stageEnd("retrieval")], timing.cpu_s);
  return {
    item: SLICE,
    timing,
    stages: costs,
    phases_cpu_s: phasesCpu,
    marks,
    full_cpu_estimate_s: scaleSlice(phasesCpu, costs, fullSteps),
  };
}

/** The full retraining, as bench/add-tools.ts `full` trains it (the tiny preset's whole schedule), timed. */
async function runFull(): Promise<Item> {
  const d = addToolsData()!;
  const out = join(DIR, "retime", FULL);
  rmSync(out, { recursive: true, force: true });
  const { log, marks } = marker();
  const { result: m, timing } = await timed(() =>
    trainToolGen({ log, catalog: d.catalog, queries: d.train, out, ...FULL_TRAINING }),
  );
  // Kept (once) as the retraining built by today's code, for add-tools-rebuild.ts to score beside the additions.
  const sha = digest(out);
  const kept = join(DIR, KEPT_FULL);
  const keep = !existsSync(kept);
  if (keep) {
    writeFileAtomic(join(out, "timing.json"), JSON.stringify(timing) + "\n");
    renameSync(out, kept);
  } else rmSync(out, { recursive: true, force: true });
  return {
    item: FULL,
    timing,
    stages: m.done.map(costOf),
    phases_cpu_s: phases(marks, [stageEnd("memorization"), stageEnd("retrieval")], timing.cpu_s),
    marks,
    weights_sha256: sha,
    ...(keep ? { kept_as: kept } : {}),
  };
}

async function runAdd(name: string): Promise<Item> {
  const out = join(DIR, "retime", name);
  const { model: m, timing, marks, phasesCpu } = await timedAddition(name, out, "bench/add-tools-retime.ts");
  const added = m.added!.at(-1)!;
  const sha = digest(out);
  const recorded = recordedDigest(name);
  const kept = join(DIR, `rebuild-${name}`);
  const keep = recorded === sha && !existsSync(kept);
  if (keep) renameSync(out, kept);
  else rmSync(out, { recursive: true, force: true });
  return {
    item: name,
    timing,
    stages: added.stages.map(costOf),
    phases_cpu_s: phasesCpu,
    marks,
    ...(added.rows ? { rows_fit_s: added.rows.seconds } : {}),
    weights_sha256: sha,
    same_weights_as_recorded: recorded === undefined ? null : recorded === sha,
    ...(keep ? { kept_as: kept } : {}),
  };
}

const ABOUT =
  "CPU seconds of additions and of a sixteenth of the full retraining, run one after the other in one process " +
  "(the same thread count; the load is whatever the machine had); the full retraining's CPU estimated from the " +
  "slice, stage by stage, by the full schedule's steps over the slice's. cpu_share_of_full: an addition's CPU " +
  "over that estimate (the mean of the run's slices), which the load moves when it changes between the items; " +
  "cpu_share_at_own_rate: the addition's CPU over its own retrieval CPU per step times the full retraining's work " +
  "in retrieval steps (the slice's CPU per memorization step over per retrieval step weighs its 199 memorization " +
  "steps), which holds whatever the load as long as it holds through the addition; cpu_share_of_measured_full " +
  "(runs with a `full` item): the addition's CPU over the full retraining's, both timed whole in the run";

interface Run {
  started: string;
  threads: string;
  items: Item[];
}

function write(command: string, runs: Run[]): void {
  writeBenchResult("add-tools-retime", command, {
    about: ABOUT,
    runs: runs.map((r) => ({ started: r.started, threads: r.threads, ...derived(r.items) })),
  });
}

const args = process.argv.slice(2);
if (args.length === 0) {
  process.stderr.write(`usage: tsx bench/add-tools-retime.ts ${SLICE}|${FULL}|NAME ... | derive\n`);
  process.exit(1);
}
const earlier = existsSync(RESULT)
  ? ((JSON.parse(readFileSync(RESULT, "utf8")) as { runs?: Run[] }).runs ?? [])
  : [];
if (args[0] === "derive") {
  // The shares of the recorded runs again, from their raw items (no training).
  write("npx tsx bench/add-tools-retime.ts derive", earlier);
} else {
  const run: Run = {
    started: new Date().toISOString(),
    threads: process.env.TOOLGEN_KERNEL_THREADS ?? "default",
    items: [],
  };
  for (const item of args) {
    const r = item === SLICE ? await runSlice() : item === FULL ? await runFull() : await runAdd(item);
    run.items.push(r);
    process.stderr.write(
      `${item}: CPU ${r.timing.cpu_s.toFixed(1)} s, wall ${r.timing.wall_s.toFixed(1)} s, load ` +
        `${r.timing.load.join(" → ")}; phases ${JSON.stringify(r.phases_cpu_s)}` +
        (r.full_cpu_estimate_s ? `; full retraining est. ${r.full_cpu_estimate_s.toFixed(0)} s CPU` : "") +
        (r.same_weights_as_recorded === undefined
          ? ""
          : `; same weights as recorded: ${r.same_weights_as_recorded}`) +
        "\n",
    );
    // After every item: a later failure keeps what was measured.
    write(`npx tsx bench/add-tools-retime.ts ${args.join(" ")}`, [...earlier, run]);
  }
}
