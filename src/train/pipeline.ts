import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";
import { loadCheckpoint, loadTrainingState, saveCheckpoint } from "../nn/checkpoint.ts";
import { presetConfig, type LlamaConfig } from "../nn/config.ts";
import { Llama } from "../nn/llama.ts";
import { gemmFamily, kernels } from "../nn/kernels/index.ts";
import { initParams } from "../nn/params.ts";
import { Tokenizer } from "../nn/tokenizer/index.ts";
import type { AdamW } from "../nn/train/adamw.ts";
import { trainingProgressBar } from "../nn/train/progress.ts";
import { train } from "../nn/train/trainer.ts";
import { buildToolIndex, type IndexKind, type ToolIndex } from "../toolgen/ids.ts";
import { CHAT_FORMATS, encodeChat, type ChatFormat } from "../toolgen/chat-encoding.ts";
import {
  agentSamples,
  memorizationSamples,
  retrievalSamples,
  writeSamples,
  type Stage,
  type StageSample,
  type Trajectory,
} from "./datasets.ts";
import {
  MANIFEST_FILE,
  readManifest,
  readToolIndex,
  type StageReport,
  type ToolGenManifest,
} from "../toolgen/model-folder.ts";
import { writeJsonAtomic, writeToolGenExtras } from "./model-folder-write.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { trainingCodeVersion, type CodeVersion } from "./code-version.ts";
import { scheduleFor, type Schedule, type StageSchedule } from "./schedule.ts";
import { toolDocument } from "../toolgen/tool-document.ts";
import { virtualizeTools } from "./virtualize.ts";
import { chooseModelGate, queriedTools } from "./choose-gate.ts";
import { splitDev, type DevSplit, type DevSplitOptions } from "./dev-split.ts";
import { ToolgenError } from "../errors.ts";

export interface ToolGenTrainOptions {
  catalog: readonly CatalogEntry[];
  queries?: readonly LabelledQuery[];
  trajectories?: readonly Trajectory[];
  out: string;
  preset?: "tiny" | "small";
  index?: IndexKind;
  /** Default: memorization, retrieval (and agent when trajectories are given). */
  stages?: Stage[];
  seed?: number;
  /** Overrides of the preset's schedule (epochs per stage, lr, batch size, tokenizer size…). */
  schedule?: Partial<Omit<Schedule, "stages">> & { stages?: Partial<Record<Stage, Partial<StageSchedule>>> };
  /** Overrides of the preset's model config (benchmarks use smaller models). */
  config?: Partial<LlamaConfig>;
  /** Progress bars on stderr (default true). */
  progress?: boolean;
  /** Seconds between resumable checkpoints inside a stage (default 60). */
  saveEverySeconds?: number;
  /** Skip retrieval labels that are not in the catalog instead of failing. */
  skipUnknownLabels?: boolean;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** The training code's version to record (default `trainingCodeVersion()`; tests pass another). */
  codeVersion?: CodeVersion;
  /**
   * Hold out dev queries (`dev-split.ts`; the seed is the run's) and, after training, choose the hybrid's gate on
   * them and write it into the folder (`choose-gate.ts`). `gateAt`: the NDCG cutoff the gate is chosen on
   * (default 5). Absent: every query trains and no gate is written (the CLI holds out 5 % by default).
   */
  dev?: Omit<DevSplitOptions, "seed"> & { gateAt?: number };
}

const RESUME_DIR = ".resume";
const DEFAULT_STAGES: Stage[] = ["memorization", "retrieval"];

/**
 * The schedule as the fingerprint sees it: a token dropout or weight averaging of 0 (or a user loss or digit
 * split of false, or a user-loss fraction of 1) is the same run as none, so folders from before keep theirs.
 */
function fingerprintSchedule({ splitDigits, ...schedule }: Schedule): Schedule {
  const stages = Object.fromEntries(
    Object.entries(schedule.stages).map(
      ([
        k,
        { tokenDropout, userLoss, userLossFraction, userLossReweight, userLossSamples, averageLast, ...rest },
      ]) => [
        k,
        {
          ...rest,
          ...(tokenDropout ? { tokenDropout } : {}),
          ...(userLoss ? { userLoss } : {}),
          ...(userLoss && userLossFraction !== undefined && userLossFraction < 1
            ? { userLossFraction, ...(userLossReweight ? { userLossReweight } : {}) }
            : {}),
          ...(userLoss && userLossSamples !== undefined ? { userLossSamples } : {}),
          ...(averageLast ? { averageLast } : {}),
        },
      ],
    ),
  ) as Schedule["stages"];
  return { ...schedule, ...(splitDigits ? { splitDigits } : {}), stages };
}

function fingerprintOf(
  o: ToolGenTrainOptions,
  schedule: Schedule,
  stages: Stage[],
  split?: DevSplit,
): string {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({
      preset: o.preset,
      index: o.index,
      seed: o.seed,
      stages,
      schedule: fingerprintSchedule(schedule),
      config: o.config,
      // only when queries are held out, so a run without (and every folder from before) keeps its fingerprint
      ...(split
        ? { dev: { fraction: split.record.fraction, toolsFraction: split.record.toolsFraction } }
        : {}),
    }),
  );
  for (const e of o.catalog) h.update(`\u0000${e.id}\u0001${e.description}`);
  for (const q of o.queries ?? []) h.update(`\u0000${q.query}\u0001${q.relevant.join("\u0002")}`);
  h.update(JSON.stringify(o.trajectories ?? []));
  return h.digest("hex").slice(0, 16);
}

/**
 * How a folder's recorded code relates to the running code: `same`, `changed` (another hash) or `unknown`
 * (a folder from before code versions were recorded, such as an older committed model).
 */
export function codeStatus(
  manifest: Pick<ToolGenManifest, "code" | "done">,
  current: CodeVersion = trainingCodeVersion(),
): "same" | "changed" | "unknown" {
  const recorded = [manifest.code?.hash, ...manifest.done.map((r) => r.code)];
  if (recorded.some((h) => h === undefined)) return "unknown";
  return recorded.every((h) => h === current.hash) ? "same" : "changed";
}

function mergeSchedule(base: Schedule, o: ToolGenTrainOptions["schedule"]): Schedule {
  const stages = { ...base.stages };
  for (const [k, v] of Object.entries(o?.stages ?? {})) stages[k as Stage] = { ...stages[k as Stage], ...v };
  return { ...base, ...o, stages };
}

/** The sample with its user words (the tokens token dropout may drop) counted in the loss as well. */
export function withUserLoss<S extends { lossMask: Uint8Array; droppable: Uint8Array }>(sample: S): S {
  return { ...sample, lossMask: sample.lossMask.map((m, i) => (sample.droppable[i] ? 1 : m)) };
}

/** At most `points` points: the mean loss of each run of consecutive steps, at the run's last step. */
export function downsampleCurve(
  curve: ReadonlyArray<{ step: number; loss: number }>,
  points: number,
): Array<{ step: number; loss: number }> {
  const size = Math.max(1, Math.ceil(curve.length / points));
  const out: Array<{ step: number; loss: number }> = [];
  for (let i = 0; i < curve.length; i += size) {
    const bucket = curve.slice(i, i + size);
    const loss = bucket.reduce((a, p) => a + p.loss, 0) / bucket.length;
    out.push({ step: bucket[bucket.length - 1]!.step, loss: Math.round(loss * 1e4) / 1e4 });
  }
  return out;
}

/**
 * Everything that can be checked before the output folder is touched: a run that fails on its options must
 * not leave a half-written folder whose fingerprint then blocks the corrected command.
 */
function checkOptions(o: ToolGenTrainOptions, schedule: Schedule, stages: readonly Stage[]): void {
  if (o.catalog.length === 0) throw new ToolgenError("invalid_option", "the catalog is empty");
  const integer = (name: string, n: number, min: number): void => {
    if (!Number.isInteger(n) || n < min)
      throw new ToolgenError("invalid_option", `${name} must be an integer ≥ ${min}, got ${n}`);
  };
  integer("batch size", schedule.batchSize, 1);
  integer("tokenizer vocabulary", schedule.tokenizerVocab, 256);
  for (const stage of stages) {
    const {
      epochs,
      lr,
      tokenDropout,
      averageLast,
      userLoss,
      userLossFraction,
      userLossReweight,
      userLossSamples,
    } = schedule.stages[stage];
    if (!(epochs > 0 && Number.isFinite(epochs)))
      throw new ToolgenError("invalid_option", `${stage}: epochs must be a positive number, got ${epochs}`);
    if (!(lr > 0 && Number.isFinite(lr)))
      throw new ToolgenError(
        "invalid_option",
        `${stage}: learning rate must be a positive number, got ${lr}`,
      );
    if (tokenDropout !== undefined && !(tokenDropout >= 0 && tokenDropout < 1))
      throw new ToolgenError(
        "invalid_option",
        `${stage}: token dropout must be in [0, 1), got ${tokenDropout}`,
      );
    if (userLossFraction !== undefined && !(userLossFraction > 0 && userLossFraction <= 1))
      throw new ToolgenError(
        "invalid_option",
        `${stage}: the user-loss fraction must be in (0, 1], got ${userLossFraction}`,
      );
    if (userLossFraction !== undefined && userLossFraction < 1 && !userLoss)
      throw new ToolgenError(
        "invalid_option",
        `${stage}: a user-loss fraction needs the user loss (userLoss) on`,
      );
    if (userLossReweight && !(userLoss && userLossFraction !== undefined && userLossFraction < 1))
      throw new ToolgenError(
        "invalid_option",
        `${stage}: reweighting the user loss needs the user loss on and a user-loss fraction below 1`,
      );
    if (userLossSamples !== undefined) {
      if (!(Number.isInteger(userLossSamples) && userLossSamples > 0))
        throw new ToolgenError(
          "invalid_option",
          `${stage}: the user loss's sampled candidates must be a positive integer, got ${userLossSamples}`,
        );
      if (!userLoss)
        throw new ToolgenError(
          "invalid_option",
          `${stage}: a sampled user loss needs the user loss (userLoss) on`,
        );
      if (userLossFraction !== undefined && userLossFraction < 1)
        throw new ToolgenError(
          "invalid_option",
          `${stage}: a sampled user loss and a user-loss fraction below 1 do not combine`,
        );
    }
    if (averageLast !== undefined && !(averageLast >= 0 && averageLast < 1))
      throw new ToolgenError(
        "invalid_option",
        `${stage}: the averaged fraction of updates must be in [0, 1), got ${averageLast}`,
      );
    if (stage === "retrieval" && !o.queries?.length)
      throw new ToolgenError("invalid_option", "the retrieval stage needs labelled queries (--queries)");
    if (stage === "agent" && !o.trajectories?.length)
      throw new ToolgenError(
        "invalid_option",
        "the agent stage needs trajectories (--trajectories FILE.jsonl)",
      );
  }
}

/** The stage's chat samples; the stage data is also written as JSONL under out/data for other trainers. */
function stageSamples(stage: Stage, o: ToolGenTrainOptions, index: ToolIndex): StageSample[] {
  switch (stage) {
    case "memorization":
      return memorizationSamples(o.catalog, index);
    case "retrieval": {
      if (!o.queries || o.queries.length === 0)
        throw new ToolgenError("invalid_option", "the retrieval stage needs labelled queries (--queries)");
      const { samples, skipped } = retrievalSamples(o.queries, index, { skipUnknown: o.skipUnknownLabels });
      if (skipped > 0) o.log?.(`retrieval: skipped ${skipped} labels that are not in the catalog`);
      return samples;
    }
    case "agent":
      if (!o.trajectories || o.trajectories.length === 0) {
        throw new ToolgenError(
          "invalid_option",
          "the agent stage needs trajectories (--trajectories FILE.jsonl)",
        );
      }
      return agentSamples(o.trajectories, o.catalog, index);
  }
}

/** Tokenizer from the catalog text and training queries, a fresh model, then tool virtualization. */
function setup(
  o: ToolGenTrainOptions,
  schedule: Schedule,
  index: ToolIndex,
  seed: number,
): { model: Llama; tokenizer: Tokenizer; base: number } {
  const texts = [
    ...o.catalog.map(toolDocument),
    ...(o.queries ?? []).map((q) => q.query),
    ...(index.kind === "atomic" ? [] : Object.values(index.texts)),
  ];
  const spec = CHAT_FORMATS.llama3;
  const base = Tokenizer.train(texts, schedule.tokenizerVocab, {
    specialTokens: [...spec.specials],
    ...(schedule.splitDigits ? { splitDigits: true } : {}),
  });
  const config = presetConfig(o.preset ?? "tiny", base.vocabSize, {
    bosTokenId: base.tokenToId(spec.bos!),
    eosTokenId: base.tokenToId(spec.end),
    padTokenId: base.tokenToId(spec.pad),
    ...o.config,
  });
  const fresh = new Llama(config, initParams(config, seed));
  // Atomic ids get one token each; every kind gets <<Finish>> for the agent's action step.
  const v = virtualizeTools(fresh, base, index.kind === "atomic" ? o.catalog : []);
  return { model: v.model, tokenizer: v.tokenizer, base: base.vocabSize };
}

/**
 * ToolGen training (paper §3): tokenizer + virtualization, then the stages in order, each a cosine schedule with
 * warm-up over its own epochs. The output folder loads as `builtin:DIR`. Re-running with the same inputs resumes:
 * finished stages are skipped and an interrupted stage continues from its last checkpoint.
 */
export async function trainToolGen(o: ToolGenTrainOptions): Promise<ToolGenManifest> {
  const seed = o.seed ?? 1;
  const preset = o.preset ?? "tiny";
  const kind = o.index ?? "atomic";
  const schedule = mergeSchedule(scheduleFor(preset), o.schedule);
  const stages = o.stages ?? [...DEFAULT_STAGES, ...(o.trajectories?.length ? (["agent"] as Stage[]) : [])];
  checkOptions(o, schedule, stages);
  if (o.dev?.gateAt !== undefined && !(Number.isInteger(o.dev.gateAt) && o.dev.gateAt >= 1))
    throw new ToolgenError(
      "invalid_option",
      `the gate's NDCG cutoff must be an integer ≥ 1, got ${o.dev.gateAt}`,
    );
  // The dev queries leave training here: every later use of o.queries (tokenizer, retrieval stage) sees the rest.
  const split =
    o.dev && o.queries?.length && (o.dev.fraction > 0 || o.dev.toolsFraction !== 0)
      ? splitDev(o.catalog, o.queries, { ...o.dev, seed })
      : undefined;
  const held = split && split.seen.length + split.unseen.length > 0 ? split : undefined;
  const fingerprint = fingerprintOf({ ...o, preset, index: kind, seed }, schedule, stages, held);
  if (held) o = { ...o, queries: held.train };
  const code = o.codeVersion ?? trainingCodeVersion();
  const log = o.log ?? ((line: string) => process.stderr.write(line + "\n"));
  mkdirSync(o.out, { recursive: true });

  let manifest = readManifest(o.out);
  let model: Llama;
  let tokenizer: Tokenizer;
  let index: ToolIndex;
  if (manifest && manifest.fingerprint !== fingerprint) {
    throw new ToolgenError(
      "invalid_option",
      `${o.out} holds a different training run (other catalog, queries or options); use a new --out or delete it`,
    );
  }
  // Same data and options but other training code: a finished folder is kept (a committed model must not be
  // retrained behind the user's back), an unfinished one resumes; both say so, and the stage reports record the
  // code each stage ran with. Delete the folder to train it again with this code.
  if (manifest && codeStatus(manifest, code) !== "same") {
    const had = manifest.code?.hash ?? "an unrecorded version";
    const finished = stages.every((s) => manifest!.done.some((r) => r.stage === s));
    log(
      `warning: ${o.out} was trained with code ${had}, this is ${code.hash}; ` +
        (finished ? "kept as it is" : "resuming with this code") +
        " (delete the folder to retrain from scratch)",
    );
  }
  if (!manifest) {
    const t0 = performance.now();
    index = buildToolIndex(o.catalog, kind, seed);
    const s = setup(o, schedule, index, seed);
    ({ model, tokenizer } = s);
    saveCheckpoint(o.out, model, { tokenizer });
    writeToolGenExtras(o.out, index, "llama3");
    manifest = {
      format: "toolgen-model/1",
      fingerprint,
      preset,
      index: kind,
      seed,
      stages,
      catalogSize: o.catalog.length,
      vocab: { base: s.base, total: tokenizer.vocabSize },
      done: [],
      setupSeconds: (performance.now() - t0) / 1000,
      chatFormat: "llama3",
      code: { hash: code.hash, files: code.files },
      ...(held ? { dev: held.record } : {}),
    };
    if (held) writeDevQueries(join(o.out, "data", "dev.jsonl"), held);
    writeJsonAtomic(join(o.out, MANIFEST_FILE), manifest);
  } else {
    index = readToolIndex(o.out);
    const loaded = loadCheckpoint(o.out);
    model = loaded.model;
    tokenizer = loaded.tokenizer!;
  }

  const chatFormat: ChatFormat = manifest.chatFormat ?? "chatml";
  for (const stage of stages) {
    if (manifest.done.some((r) => r.stage === stage)) {
      log(`${stage}: already trained in ${o.out}, skipped`);
      continue;
    }
    const chats = stageSamples(stage, o, index);
    writeSamples(join(o.out, "data", `${stage}.jsonl`), chats);
    const { epochs, lr, tokenDropout, userLoss, averageLast } = schedule.stages[stage];
    // a fraction of 1 is the full user loss (the fingerprint sees it so as well)
    const userLossFraction = userLoss ? schedule.stages[stage].userLossFraction : undefined;
    const thinned = userLossFraction !== undefined && userLossFraction < 1 ? userLossFraction : undefined;
    const reweighted = thinned !== undefined && schedule.stages[stage].userLossReweight === true;
    const sampledUser = userLoss ? schedule.stages[stage].userLossSamples : undefined;
    const samples = chats.map((c) => {
      const sample = encodeChat(tokenizer, c.messages, {
        format: chatFormat,
        maxContentTokens: schedule.maxContentTokens,
        maxLength: model.config.maxPositions,
      });
      return userLoss ? withUserLoss(sample) : sample;
    });
    const steps = Math.max(1, Math.ceil((epochs * samples.length) / schedule.batchSize));
    const stageSeed = seed * 31 + ["memorization", "retrieval", "agent"].indexOf(stage);
    const seqLen = Math.min(
      model.config.maxPositions,
      samples.reduce((m, s) => Math.max(m, s.ids.length), 1),
    );
    // Resume an interrupted stage from its last checkpoint (the batches depend only on seed and step).
    const resumeDir = join(o.out, RESUME_DIR);
    let optimizer: AdamW | undefined;
    if (existsSync(join(resumeDir, "trainer_state.json"))) {
      const ckpt = loadCheckpoint(resumeDir);
      const restored = loadTrainingState(ckpt);
      if (restored.state.options.stage === stage && restored.state.options.fingerprint === fingerprint) {
        model = ckpt.model;
        optimizer = restored.optimizer;
        log(`${stage}: resuming at step ${optimizer.step}/${steps}`);
      }
    }
    const bar = o.progress === false ? undefined : trainingProgressBar(steps, optimizer?.step ?? 0);
    const trainOptions = { stage, fingerprint, steps, lr, batchSize: schedule.batchSize, seed: stageSeed };
    const started = performance.now();
    let lastSave = started;
    let peakRss = process.memoryUsage().rss;
    let lastLoss = NaN;
    const curve: Array<{ step: number; loss: number }> = [];
    let tokensPerSecond = 0;
    let result;
    try {
      result = await train(
        model,
        { kind: "samples", samples, padId: model.config.padTokenId ?? 0, seqLen },
        {
          steps,
          batchSize: schedule.batchSize,
          lr,
          seed: stageSeed,
          warmupFraction: schedule.warmupFraction,
          tokenDropout,
          ...(thinned ? { userLossFraction: thinned, userLossReweight: reweighted } : {}),
          ...(sampledUser !== undefined ? { userLossSamples: sampledUser } : {}),
          averageLast,
          optimizer,
          signal: o.signal,
          onStep: (info, opt) => {
            bar?.update(info);
            lastLoss = info.loss;
            curve.push({ step: info.step, loss: info.loss });
            tokensPerSecond = info.tokensPerSecond;
            peakRss = Math.max(peakRss, process.memoryUsage().rss);
            const now = performance.now();
            if (now - lastSave > (o.saveEverySeconds ?? 60) * 1000 && info.step < steps) {
              saveCheckpoint(resumeDir, model, { tokenizer, optimizer: opt, trainOptions });
              lastSave = now;
            }
          },
        },
      );
    } finally {
      bar?.stop();
    }
    // The finished stage goes to the resume folder first, so a crash before the manifest update cannot retrain it.
    saveCheckpoint(resumeDir, model, { tokenizer, optimizer: result.optimizer, trainOptions });
    if (result.stoppedEarly)
      throw new ToolgenError(
        "invalid_option",
        `training stopped during ${stage}; run the same command again to resume`,
      );
    model.releaseWorkspace();
    saveCheckpoint(o.out, model, { tokenizer });
    const report: StageReport = {
      stage,
      samples: samples.length,
      epochs,
      steps,
      batchSize: schedule.batchSize,
      seqLen,
      lr,
      ...(tokenDropout ? { tokenDropout } : {}),
      ...(userLoss ? { userLoss } : {}),
      ...(thinned ? { userLossFraction: thinned } : {}),
      ...(reweighted ? { userLossReweight: true } : {}),
      ...(sampledUser !== undefined ? { userLossSamples: sampledUser } : {}),
      ...(averageLast ? { averageLast } : {}),
      seconds: (performance.now() - started) / 1000,
      tokensPerSecond,
      peakRssMb: Math.round(peakRss / 2 ** 20),
      finalLoss: lastLoss,
      lossCurve: downsampleCurve(curve, 200),
      code: code.hash,
      gemm: gemmFamily(kernels().name),
    };
    manifest.done.push(report);
    writeJsonAtomic(join(o.out, MANIFEST_FILE), manifest);
    rmSync(resumeDir, { recursive: true, force: true });
    log(`${stage}: ${steps} steps in ${report.seconds.toFixed(1)} s, final loss ${lastLoss.toFixed(4)}`);
  }
  // The hybrid's gate, chosen once every stage is done (a finished folder run again without one gets it now).
  if (held && !manifest.gate && manifest.done.length >= manifest.stages.length) {
    const started = performance.now();
    model.releaseWorkspace();
    const queried = queriedTools(o.queries ?? [], new Set(Object.keys(index.texts)));
    manifest.gate = await chooseModelGate(o.out, o.catalog, held, o.dev?.gateAt ?? 5, queried);
    writeJsonAtomic(join(o.out, MANIFEST_FILE), manifest);
    const lexicalName = manifest.gate.gate.lexical ?? "bm25";
    const parts = manifest.gate.parts
      .map(
        (p) =>
          `${p.part} ${p.queries} queries: ToolGen ${p.toolgen}, ${lexicalName} ${p.lexical}, gate ${p.chosen}`,
      )
      .join("; ");
    log(
      `gate: ${JSON.stringify(manifest.gate.gate)} on dev ${manifest.gate.metric} (${parts}), ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return manifest;
}

/** The held-out dev queries, one JSON object a line with the part each belongs to. */
function writeDevQueries(file: string, split: DevSplit): void {
  const rows = [
    ...split.seen.map((q) => ({ query: q.query, relevant: q.relevant, part: "seen" })),
    ...split.unseen.map((q) => ({ query: q.query, relevant: q.relevant, part: "unseen" })),
  ];
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
}
