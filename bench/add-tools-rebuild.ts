import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { LabelledQuery } from "../src/catalog/catalog.ts";
import { writeFileAtomic } from "../src/io/atomic.ts";
import { readManifest } from "../src/toolgen/model-folder.ts";
import { availableParallelism } from "node:os";
import { addToolsData, CONFIGS, DIR, KEPT_FULL, readTiming, type Timing } from "./add-tools.ts";
import { figuresOf, type Figures } from "./toolgen/common.ts";
import { writeBenchResult } from "./lib/result.ts";
import { curveOf, devScores, GRID, pick } from "./add-tools-calibrate.ts";
import { fileURLToPath } from "node:url";
import { referenceRetrievalStep, timedAddition } from "./add-tools-timed.ts";
import { shareAtOwnRate } from "./add-tools-cpu.ts";
import { floorD, goalLines, rebuildFloors, recordedCurve, type Floors } from "./add-tools-floors.ts";

/**
 * Whether bench/add-tools.ts's models, rebuilt on another machine or with another thread count, are the models
 * its results were recorded with (issue 41: training that gives the same bytes twice). Dev splits only: the
 * recorded test figures are never scored again.
 *   base — the rebuilt base folder's fingerprint against the one every recorded addition names as its `from`,
 *          its old-tool dev NDCG@1 figures against the recorded ones, and the digest of its weights (recorded, so
 *          that the next rebuild compares bytes);
 *   add NAME — the addition NAME run again from the rebuilt base into DIR/rebuild-NAME: its dev figures against
 *          the recorded ones (a configuration declared after the base was rebuilt has none: it is run on the
 *          rebuilt base alone), its weights' digest, its CPU seconds at this run's thread count, and its dev
 *          curve under one offset on the new tools' logits (bench/add-tools-calibrate.ts) with the offsets the
 *          two floors below pick;
 *   full — the full retraining rebuilt by bench/add-tools-retime.ts `full` (DIR/rebuild-full): its dev figures,
 *          old and new tools, its weights' digest and CPU, and floor D (its old dev NDCG@1 - 1);
 *   test NAME|base|full — test, once per (model, offset): the rebuilt base's old tools; the rebuilt retraining's
 *          both parts (and the goal lines); an addition's at offset 0 and at the offsets its dev curve picks.
 * Floors on the rebuilt base (declared before any curve on it was traced, 2026-12-06): A, its old dev NDCG@1 - 1;
 * B, that minus the recorded full retraining's loss of old dev against the recorded base (2.36), minus 1 (the
 * full retraining was not rebuilt: B stands in for "within 1 point of the retraining's old tools"); C (h41f, for
 * the additions declared with it), B + 0.5; D (h41g, for the additions declared with it: CONFIGS' floorD), the
 * rebuilt retraining's old dev - 1, filled in from the recorded dev curve once `full` has been run
 * (bench/add-tools-floors.ts).
 * `npx tsx bench/add-tools-rebuild.ts base` / `… add NAME` / `… test NAME` (heavy: under the core lock). Writes
 * bench/results/add-tools-rebuild.json, keeping earlier checks.
 */
const RESULT = new URL("./results/add-tools-rebuild.json", import.meta.url);
const RECORDED = new URL("./results/add-tools.json", import.meta.url);
const RETIME = new URL("./results/add-tools-retime.json", import.meta.url);

interface Recorded {
  base: Record<string, Figures> & { timing?: Timing };
  full: Record<string, Figures> & { timing: Timing };
  configs: Record<string, Record<string, unknown> & { added?: { from?: string }; timing?: Timing }>;
}

function weightsDigest(dir: string): string {
  return createHash("sha256")
    .update(readFileSync(join(dir, "model.safetensors")))
    .digest("hex");
}

async function devFigures(dir: string, parts: Record<string, readonly LabelledQuery[]>) {
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

/** Each figure of `now` beside the recorded one, and whether every NDCG / recall / MRR figure is equal. */
function compare(now: Record<string, Figures>, recorded: Record<string, unknown>) {
  let same = true;
  const rows: Record<string, { now: number; recorded: number }> = {};
  for (const [part, f] of Object.entries(now))
    for (const [k, v] of Object.entries(f)) {
      const r = (recorded[part] as Record<string, number> | undefined)?.[k];
      if (typeof v !== "number" || r === undefined) continue;
      rows[`${part}.${k}`] = { now: v, recorded: r };
      if (v !== r) same = false;
    }
  return { same, figures: rows };
}

function threads(): number {
  const wanted = Number(process.env.TOOLGEN_KERNEL_THREADS);
  return Number.isInteger(wanted) && wanted >= 1 ? wanted : Math.min(8, availableParallelism());
}

function readChecks(): Record<string, Record<string, unknown>> {
  return existsSync(RESULT)
    ? ((JSON.parse(readFileSync(RESULT, "utf8")) as { checks?: Record<string, Record<string, unknown>> })
        .checks ?? {})
    : {};
}

/**
 * A rebuild of a model an earlier check built: whether its weights are the same bytes as that one's. The same
 * bytes keep that check's test figures (test is scored once per model: a rebuild of it is not scored again) and
 * its timing (earlier_timings);
 * other bytes keep the earlier check whole under `previous`, so that no recorded scoring is lost.
 */
function againstPrevious(key: string, sha: string): Record<string, unknown> {
  const earlier = readChecks()[key];
  if (typeof earlier?.weights_sha256 !== "string") return {};
  return earlier.weights_sha256 === sha
    ? {
        same_weights_as_previous: true,
        ...(earlier.test ? { test: earlier.test } : {}),
        // The same bytes built again: the earlier builds' timings are kept beside this one's.
        earlier_timings: [...((earlier.earlier_timings as unknown[] | undefined) ?? []), earlier.timing],
      }
    : { previous_weights_sha256: earlier.weights_sha256, same_weights_as_previous: false, previous: earlier };
}

/** Runs `work` holding RESULT.lock, so that two runs of this bench side by side keep each other's checks. */
function locked(work: () => void): void {
  const lock = fileURLToPath(RESULT) + ".lock";
  for (let tries = 0; ; tries++) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || tries > 600) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { force: true });
  }
}

function save(key: string, entry: Record<string, unknown>): void {
  locked(() => write(key, entry));
}

function write(key: string, entry: Record<string, unknown>): void {
  const prev = { checks: readChecks() };
  writeBenchResult(
    "add-tools-rebuild",
    `npx tsx bench/add-tools-rebuild.ts ${process.argv.slice(2).join(" ")}`,
    {
      about:
        "bench/add-tools.ts's models rebuilt (another machine, another thread count) against what its results " +
        "recorded: fingerprints, dev figures, weight digests; configurations declared after the rebuild, run on " +
        "the rebuilt base alone, with their dev curves under a new-tool offset; test scored once per (model, " +
        "offset) by the test phase only",
      checks: { ...(prev.checks ?? {}), [key]: entry },
    },
  );
  // The curves' numbers on one line each, so that the file stays readable.
  const path = fileURLToPath(RESULT);
  const text = readFileSync(path, "utf8").replace(
    /\[\s*(-?[0-9.e+-]+(?:,\s*-?[0-9.e+-]+)*)\s*\]/g,
    (_, xs: string) => `[${xs.split(/,\s*/).join(", ")}]`,
  );
  writeFileAtomic(path, text);
}

const ndcg1 = (f: Figures | undefined) => f?.["ndcg@1"] ?? NaN;

/** Floor D, for a configuration declared with it, once the rebuilt retraining's dev has been scored. */
function floorDOf(name: string): number | undefined {
  if (!CONFIGS.find((c) => c.name === name)?.floorD) return undefined;
  const full = readChecks().full as { dev?: { old_dev?: Figures } } | undefined;
  return full?.dev?.old_dev ? floorD(ndcg1(full.dev.old_dev)) : undefined;
}

/** The floors A, B and C on the rebuilt base (bench/add-tools-floors.ts). */
function floors(recorded: Recorded): Floors {
  const base = (readChecks().base?.dev as Record<string, { now: number }> | undefined)?.["old_dev.ndcg@1"]
    ?.now;
  if (base === undefined)
    throw new Error("bench/add-tools-rebuild.ts: run `base` first (the floors need it)");
  const full = (recorded as unknown as { full: Record<string, Figures> }).full;
  return rebuildFloors(base, ndcg1(recorded.base.old_dev) - ndcg1(full.old_dev));
}

/** The dev curve of a model folder under one offset on the new tools, and the offsets the floors pick. */
async function calibration(dir: string, recorded: Recorded, name: string) {
  const d = addToolsData()!;
  const parts = { old_dev: d.parts.old.dev, new_dev: d.parts.new.dev };
  const curve = curveOf(await devScores(dir, parts), parts, new Set(d.newIds));
  const D = floorDOf(name);
  const f = { ...floors(recorded), ...(D !== undefined ? { D } : {}) };
  const chosen = {
    A: pick(curve, f.A) ?? null,
    B: pick(curve, f.B) ?? null,
    C: pick(curve, f.C) ?? null,
    ...(D !== undefined ? { D: pick(curve, D) ?? null } : {}),
  };
  process.stderr.write(
    `  offset 0: ${JSON.stringify(curve.find((p) => p.offset === 0))}; A (${f.A.toFixed(2)}): ` +
      `${JSON.stringify(chosen.A)}; B (${f.B.toFixed(2)}): ${JSON.stringify(chosen.B)}; ` +
      `C (${f.C.toFixed(2)}): ${JSON.stringify(chosen.C)}` +
      (D !== undefined ? `; D (${D.toFixed(2)}): ${JSON.stringify(chosen.D)}` : "") +
      "\n",
  );
  return {
    floors: f,
    chosen,
    offsets: `${GRID[0]} … ${GRID.at(-1)} by 0.05`,
    old_dev_curve: curve.map((p) => p.old_dev),
    new_dev_curve: curve.map((p) => p.new_dev),
  };
}

async function checkBase(recorded: Recorded): Promise<void> {
  const d = addToolsData()!;
  const dir = join(DIR, "base");
  const m = readManifest(dir);
  if (!m)
    throw new Error(`bench/add-tools-rebuild.ts: no finished base model in ${dir} (run add-tools.ts base)`);
  const froms = [...new Set(Object.values(recorded.configs).map((c) => c.added?.from))].filter(Boolean);
  const dev = await devFigures(dir, { old_dev: d.parts.old.dev });
  const figures = compare(dev, recorded.base);
  const entry = {
    date: new Date().toISOString(),
    threads: threads(),
    timing: readTiming(dir) ?? null,
    fingerprint: m.fingerprint,
    recorded_from: froms,
    same_fingerprint: froms.length === 1 && froms[0] === m.fingerprint,
    weights_sha256: weightsDigest(dir),
    ...againstPrevious("base", weightsDigest(dir)),
    same_dev_figures: figures.same,
    dev: figures.figures,
  };
  save("base", entry);
  process.stderr.write(
    `base: fingerprint ${m.fingerprint} (recorded ${froms.join(", ")}); dev figures ` +
      `${figures.same ? "equal" : "differ"}; weights ${entry.weights_sha256.slice(0, 16)}\n`,
  );
}

async function checkAdd(recorded: Recorded, name: string): Promise<void> {
  const d = addToolsData()!;
  const rec = recorded.configs[name];
  const out = join(DIR, `rebuild-${name}`);
  const { model: m, timing, phasesCpu } = await timedAddition(name, out, "bench/add-tools-rebuild.ts");
  writeFileAtomic(join(out, "timing.json"), JSON.stringify(timing) + "\n");
  const reference = cheaperUserLoss(name) ? await referenceShare(name, timing.cpu_s) : undefined;
  const dev = await devFigures(out, { old_dev: d.parts.old.dev, new_dev: d.parts.new.dev });
  const figures = rec ? compare(dev, rec) : undefined;
  const base = readChecks().base as { timing?: Timing } | undefined;
  process.stderr.write(
    `${name}: dev NDCG@1 old ${ndcg1(dev.old_dev).toFixed(2)} new ${ndcg1(dev.new_dev).toFixed(2)}` +
      (figures ? ` (recorded figures ${figures.same ? "equal" : "differ"})` : "") +
      `; CPU ${timing.cpu_s.toFixed(1)} s (recorded ${rec?.timing?.cpu_s.toFixed(1) ?? "-"} s)\n`,
  );
  save(`add ${name}`, {
    date: new Date().toISOString(),
    threads: threads(),
    timing,
    // CPU per phase (bench/add-tools-cpu.ts): a share at the addition's own rate needs its retrieval CPU per step.
    phases_cpu_s: phasesCpu,
    stages: m.added?.at(-1)?.stages.map((r) => ({ stage: r.stage, steps: r.steps, wall_s: r.seconds })),
    // Against the rebuilt base's own CPU (same machine and thread count) times the recorded full / base ratio.
    cpu_share_of_full_estimate: base?.timing
      ? timing.cpu_s / (base.timing.cpu_s * (recordedFullCpu(recorded) / recorded.base.timing!.cpu_s))
      : null,
    recorded_timing: rec?.timing ?? null,
    ...(reference ? { reference_full_user_loss: reference } : {}),
    fingerprint: m.fingerprint,
    weights_sha256: weightsDigest(out),
    ...againstPrevious(`add ${name}`, weightsDigest(out)),
    ...(figures
      ? { same_dev_figures: figures.same, dev: figures.figures }
      : { recorded: false, dev: { old_dev: dev.old_dev, new_dev: dev.new_dev } }),
    calibration: await calibration(out, recorded, name),
  });
}

/** Whether configuration `name` trains with a cheaper step than the retraining's (a sampled or partial user loss). */
function cheaperUserLoss(name: string): boolean {
  const o = CONFIGS.find((c) => c.name === name)?.options;
  return o?.userLossSamples !== undefined || o?.replayUserLoss === false;
}

/**
 * The share of an addition whose step is cheaper than the retraining's, at the rate of a full-user-loss step timed
 * right after it (add-tools-timed.ts: referenceRetrievalStep) times the full retraining's work in retrieval steps
 * (bench/results/add-tools-retime.json's slice): an estimate against the slice-scaled retraining.
 */
async function referenceShare(name: string, cpu: number) {
  const work = (JSON.parse(readFileSync(RETIME, "utf8")) as { runs: Array<Record<string, unknown>> }).runs
    .map((r) => r.full_work_in_retrieval_steps)
    .find((w): w is number => typeof w === "number");
  if (work === undefined)
    throw new Error(`bench/add-tools-rebuild.ts: no full_work_in_retrieval_steps in ${RETIME}`);
  const ref = await referenceRetrievalStep(
    name,
    join(DIR, `reference-step-${name}`),
    "bench/add-tools-rebuild.ts",
  );
  process.stderr.write(
    `  reference: ${ref.steps} full-user-loss retrieval steps, ${ref.cpu_per_step.toFixed(3)} s CPU a step\n`,
  );
  return {
    ...ref,
    full_work_in_retrieval_steps: work,
    cpu_share: shareAtOwnRate(cpu, ref.cpu_s, ref.steps, work),
  };
}

/** The full retraining rebuilt by add-tools-retime.ts `full`: dev figures, digest, CPU and floor D. */
async function checkFull(recorded: Recorded): Promise<void> {
  const d = addToolsData()!;
  const dir = join(DIR, KEPT_FULL);
  const m = readManifest(dir);
  if (!m)
    throw new Error(
      `bench/add-tools-rebuild.ts: no rebuilt retraining in ${dir} (run add-tools-retime.ts full)`,
    );
  const dev = await devFigures(dir, { old_dev: d.parts.old.dev, new_dev: d.parts.new.dev });
  const sha = weightsDigest(dir);
  const earlier = readChecks().full as Record<string, unknown> | undefined;
  save("full", {
    date: new Date().toISOString(),
    timing: readTiming(dir) ?? null,
    fingerprint: m.fingerprint,
    weights_sha256: sha,
    ...againstPrevious("full", sha),
    dev,
    recorded_dev: { old_dev: recorded.full.old_dev, new_dev: recorded.full.new_dev },
    floor_D: floorD(ndcg1(dev.old_dev)),
    ...(earlier?.weights_sha256 === sha && earlier.test ? { test: earlier.test } : {}),
  });
  process.stderr.write(
    `full (rebuilt): dev NDCG@1 old ${ndcg1(dev.old_dev).toFixed(2)} new ${ndcg1(dev.new_dev).toFixed(2)} ` +
      `(recorded ${ndcg1(recorded.full.old_dev).toFixed(2)} / ${ndcg1(recorded.full.new_dev).toFixed(2)}); ` +
      `floor D ${floorD(ndcg1(dev.old_dev)).toFixed(2)}\n`,
  );
}

/**
 * Rule D's offset for an addition declared with it whose dev curve was traced before the rebuilt retraining was
 * scored: picked from the recorded curve (dev only), before any of its test figures at D.
 */
function withFloorD(
  name: string,
  calibration: { floors: Record<string, number>; chosen: Record<string, unknown> } & Record<string, unknown>,
) {
  if (!CONFIGS.find((c) => c.name === name)?.floorD || "D" in calibration.chosen) return calibration;
  const D = floorDOf(name);
  if (D === undefined)
    throw new Error(
      `bench/add-tools-rebuild.ts: ${name} is judged by rule D: run \`full\` first (the rebuilt retraining's dev)`,
    );
  const curve = recordedCurve(
    GRID,
    calibration.old_dev_curve as number[],
    calibration.new_dev_curve as number[],
  );
  const chosen = pick(curve, D) ?? null;
  process.stderr.write(
    `${name}: D (${D.toFixed(2)}) from the recorded dev curve: ${JSON.stringify(chosen)}\n`,
  );
  return {
    ...calibration,
    floors: { ...calibration.floors, D },
    chosen: { ...calibration.chosen, D: chosen },
  };
}

function recordedFullCpu(recorded: Recorded): number {
  return (recorded as unknown as { full: { timing: Timing } }).full.timing.cpu_s;
}

/**
 * Test figures, scored once per (model, offset) and kept: the base's old tools, the rebuilt retraining's and an
 * addition's both parts (an addition declared with rule D has its D offset picked on dev first).
 */
async function testPhase(recorded: Recorded, name: string): Promise<void> {
  const d = addToolsData()!;
  const { openToolGenRetriever } = await import("../src/retrieval/toolgen-open.ts");
  const { rankHits } = await import("./toolgen/metatool.ts");
  const own = name === "base" || name === "full";
  const key = own ? name : `add ${name}`;
  const found = readChecks()[key] as
    | (Record<string, unknown> & {
        calibration?: Parameters<typeof withFloorD>[1];
        test?: Record<string, unknown>;
      })
    | undefined;
  if (!found) throw new Error(`bench/add-tools-rebuild.ts: run \`${own ? name : "add " + name}\` first`);
  const entry = found.calibration ? { ...found, calibration: withFloorD(name, found.calibration) } : found;
  // Rule D's pick is recorded before its test is scored.
  if (entry.calibration !== found.calibration) save(key, entry);
  const dir = join(DIR, name === "base" ? "base" : name === "full" ? KEPT_FULL : `rebuild-${name}`);
  const test: Record<string, unknown> = { ...(entry.test ?? {}) };
  const chosen = (entry.calibration?.chosen ?? {}) as Record<string, { offset: number } | null>;
  const offsets = own ? [0] : [0, ...Object.values(chosen).flatMap((p) => (p ? [p.offset] : []))];
  for (const offset of [...new Set(offsets)]) {
    if (test[String(offset)]) continue; // scored once
    const retriever = openToolGenRetriever(dir, undefined, {
      offsets: Object.fromEntries(d.newIds.map((id) => [id, offset])),
    });
    const figures = async (qs: readonly LabelledQuery[]) =>
      figuresOf(
        qs,
        (await rankHits(retriever, qs, 5)).map((h) => h.slice(0, 5).map((x) => x.id)),
      );
    const parts =
      name === "base"
        ? { old_test: d.parts.old.test }
        : { old_test: d.parts.old.test, new_test: d.parts.new.test };
    const scored: Record<string, unknown> = { date: new Date().toISOString() };
    for (const [part, qs] of Object.entries(parts)) scored[part] = await figures(qs);
    test[String(offset)] = scored;
    process.stderr.write(
      `${name} offset ${offset}: test NDCG@1 old ${ndcg1(scored.old_test as Figures).toFixed(2)}` +
        (scored.new_test ? ` new ${ndcg1(scored.new_test as Figures).toFixed(2)}` : "") +
        "\n",
    );
  }
  const lines =
    name === "full"
      ? {
          goal_lines_old_test: goalLines(
            ndcg1((test["0"] as { old_test: Figures }).old_test),
            ndcg1(recorded.full.old_test),
          ),
        }
      : {};
  save(key, { ...entry, test, ...lines });
}

const recorded = JSON.parse(readFileSync(RECORDED, "utf8")) as Recorded;
const [phase, name] = process.argv.slice(2);
if (phase === "base") await checkBase(recorded);
else if (phase === "full") await checkFull(recorded);
else if (phase === "add" && name) await checkAdd(recorded, name);
else if (phase === "test" && name) await testPhase(recorded, name);
else {
  process.stderr.write(
    "usage: tsx bench/add-tools-rebuild.ts base | full | add NAME | test NAME|base|full\n",
  );
  process.exit(1);
}
