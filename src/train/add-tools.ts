import { createHash } from "node:crypto";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";
import { loadCheckpoint, saveCheckpoint } from "../nn/checkpoint.ts";
import type { Llama } from "../nn/llama.ts";
import { gemmFamily, kernels } from "../nn/kernels/index.ts";
import { Rng } from "../nn/rng.ts";
import type { Tokenizer } from "../nn/tokenizer/index.ts";
import { trainingProgressBar } from "../nn/train/progress.ts";
import { train } from "../nn/train/trainer.ts";
import { encodeChat, type ChatFormat } from "../toolgen/chat-encoding.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import {
  readManifest,
  readToolIndex,
  readToolOffsets,
  type AddedTools,
  type StageReport,
  type ToolGenManifest,
} from "../toolgen/model-folder.ts";
import { toolToken } from "../toolgen/tokens.ts";
import {
  memorizationSamples,
  readSamples,
  retrievalSamples,
  writeSamples,
  type StageSample,
} from "./datasets.ts";
import { trainingCodeVersion } from "./code-version.ts";
import { writeJsonAtomic, writeToolGenExtras, writeToolOffsets } from "./model-folder-write.ts";
import { downsampleCurve, withUserLoss } from "./pipeline.ts";
import { scheduleFor } from "./schedule.ts";
import { virtualizeTools } from "./virtualize.ts";
import { imprintToolRows } from "./imprint.ts";
import { fitNewRows } from "./fit-new-rows.ts";
import { anchorWeights } from "./anchor-weights.ts";
import { distillTargets, type ToolDistribution } from "./distill-targets.ts";
import { newToolMass, pickReplay } from "./replay-risk.ts";
import { spreadDraw, spreadSamples, spreadTotal } from "./add-tools-spread.ts";
import { toolDocument } from "../toolgen/tool-document.ts";
import {
  chooseOffset,
  holdOutForOffset,
  offsetLine,
  readDevQueries,
  writeDevQueries,
} from "./choose-offset.ts";
import { ToolgenError } from "../errors.ts";

/** The stages an addition trains (agent trajectories are not replayed: a model with an agent stage is refused). */
export type AddStage = "memorization" | "retrieval";

export interface AddToolsOptions {
  /** A finished ToolGen model folder (atomic ids), read only. */
  from: string;
  /** The new folder; must not exist (or be empty). Written under a temporary name, then renamed. */
  out: string;
  /** The tools to add; none may be in the model already. */
  tools: readonly CatalogEntry[];
  /** Labelled queries for the retrieval stage (their labels: new or old tools); none: memorisation only. */
  queries?: readonly LabelledQuery[];
  /** Epochs per stage over the new samples plus the replayed ones (defaults: ADD_DEFAULTS.epochs). */
  epochs?: Partial<Record<AddStage, number>>;
  /** Old samples replayed per new sample, per stage, drawn without repetition (default ADD_DEFAULTS.replay). */
  replay?: number;
  /**
   * Start the new tokens' lm_head rows from the model's reading of each tool's document and queries
   * (imprint.ts; default true); false: the mean of the name's token rows only, as virtualisation sets them.
   */
  imprint?: boolean;
  /**
   * What learns the new tools: `rows` (default) fits the new tokens' lm_head rows alone on the frozen model
   * (fit-new-rows.ts: forward passes only, the old tools' weights untouched); `all` trains every weight in
   * short stages with the replayed samples mixed in.
   */
  method?: "rows" | "all";
  /** `rows`: passes of the fit over its examples (default 10). */
  rowEpochs?: number;
  /**
   * `all`: fit the new rows first as `rows` does (on the frozen model, from their imprint), so that the stages
   * start from new tools the model already tells apart instead of from a guess (default false).
   */
  rowsFirst?: boolean;
  /**
   * `all`: L2-SP strength λ (anchor-weights.ts): AdamW's decay pulls every matrix toward the weights the stages
   * start from instead of toward zero (default 0: AdamW's own decay).
   */
  anchor?: number;
  /**
   * `all`: only the last `trainLayers` transformer layers, the final norm and lm_head train; the embedding and
   * the layers below stay as they are (default: every weight trains).
   */
  trainLayers?: number;
  /**
   * `all`: distillation (learning without forgetting). Each replayed old sample is trained toward the --from
   * model's own distribution over its tool tokens at the answer (computed once before training: softmax at
   * `temperature`, default 1, its `topK` most likely tokens renormalised, default 8) with share `weight` in
   * [0, 1], and toward its label with 1 − weight; the new tools' samples keep their labels alone. Unlike the
   * anchor, it holds what the model predicts for the old tools, not its weights (default: labels alone).
   */
  distill?: DistillOptions;
  /**
   * A logit offset for the added tools' tokens, written to the new folder's toolgen-offsets.json and added by the
   * retriever when it ranks (default 0: none). Chosen on dev queries of old and new tools: negative keeps more of
   * the old tools' ranks, positive more of the new ones' (bench/add-tools-calibrate.ts traces the trade).
   * `auto`: chosen here on queries held out of the addition (choose-offset.ts: OFFSET_RULE); needs queries naming
   * at least two of the added tools' queries and old-tool queries (the --from folder's data/dev.jsonl or its
   * retrieval samples). Offsets an earlier addition wrote are carried over.
   */
  newToolOffset?: number | "auto";
  /**
   * `all`: the share in [0, 1] of each stage's replayed old samples taken as those the new tools threaten most
   * (replay-risk.ts: the most softmax mass on the new tool tokens once their rows are set, imprinted or fitted by
   * rowsFirst); the rest drawn at random as before. Every old sample of the stage is scored (forward passes).
   * Default: none, a random draw (rowsFirst's fit still replays a random draw).
   */
  hardReplay?: number;
  /**
   * `all`: each epoch of a stage replays other old samples instead of the same draw again (add-tools-spread.ts):
   * the same steps and mix of new and old samples, more of the old queries seen. Default false: one draw,
   * repeated every epoch. Does not combine with hardReplay or distill (both are tied to the one draw).
   */
  spreadReplay?: boolean;
  /**
   * `all`: the user loss (the words of each sample's question, which the stages of the model's own schedule
   * train on) takes a sampled softmax over this many candidates (the engine's `userLossSamples`, a cheaper step)
   * instead of the whole vocabulary. The --from model already learnt those words; the addition is after the tool
   * tokens. Default: the full softmax. Only where the model's stage trained with the user loss.
   */
  userLossSamples?: number;
  /**
   * `all`: false trains the replayed old samples on their tool token alone, without the user loss (the new
   * samples keep it): fewer target rows a step, so a cheaper step. Default true, as the model's own stage.
   */
  replayUserLoss?: boolean;
  /** Peak learning rate per stage (default: the rate the model's own stage was trained with). */
  lr?: Partial<Record<AddStage, number>>;
  seed?: number;
  progress?: boolean;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export interface DistillOptions {
  weight: number;
  temperature?: number;
  topK?: number;
  /**
   * Whose distribution the soft targets are: `base` (default), the --from model's over its own tool tokens,
   * taken before anything changes; `rows`, the model after the rows-first fit (needs rowsFirst), over the old
   * and the new tool tokens, so that an old query a new tool also answers keeps the share the fitted row earned
   * there instead of being trained away from it (the base model's targets give every new tool nothing).
   */
  teacher?: "base" | "rows";
  /**
   * The tokens the soft term's softmax is taken over: `all` (default), the whole vocabulary, so that the base
   * teacher, which gives the new tools nothing, pushes their tokens down on every replayed old sample; `old`,
   * the old tool tokens alone (the targets are already a distribution over them), so that the soft term holds
   * the old tools' ranking among themselves and leaves the new tokens' logits to the labels (needs teacher base).
   */
  scope?: "all" | "old";
}

/**
 * What an addition does when not told: the `rows` fit, with four old samples replayed per new one; for `all`,
 * short stages (the tiny preset trains 32 + 16 epochs from scratch) with one old sample per new one.
 * bench/add-tools.ts measures them against a full retraining.
 */
export const ADD_DEFAULTS = {
  epochs: { memorization: 16, retrieval: 4 },
  /** Old samples per new sample: `rows` costs forward passes only, so it reads most of the old queries. */
  replay: { rows: 4, all: 1 },
  method: "rows",
} as const;

const fail = (message: string): never => {
  throw new ToolgenError("invalid_option", message);
};

function listed(ids: readonly string[], max = 5): string {
  const shown = ids.slice(0, max).map((id) => `"${id}"`);
  return ids.length > max ? `${shown.join(", ")} and ${ids.length - max} more` : shown.join(", ");
}

interface Checked {
  manifest: ToolGenManifest;
  index: ToolIndex;
  stages: AddStage[];
}

/** Every check that can fail before anything is written. */
function check(o: AddToolsOptions): Checked {
  const manifest = readManifest(o.from);
  if (!manifest)
    fail(
      `--from ${o.from} is not a ToolGen model folder (no toolgen.json); train one with toolgen train --catalog`,
    );
  const m = manifest!;
  const unfinished = m.stages.filter((s) => !m.done.some((r) => r.stage === s));
  if (unfinished.length > 0)
    fail(
      `--from ${o.from} is not finished (${unfinished.join(", ")} not trained); run its toolgen train again first`,
    );
  if (m.stages.includes("agent"))
    fail(`--from ${o.from} has an agent stage; adding tools replays memorization and retrieval only`);
  const index = readToolIndex(o.from);
  if (index.kind !== "atomic")
    fail(`--from ${o.from} writes ${index.kind} ids; tools can be added to atomic-id models only`);
  if (o.tools.length === 0) fail("--add-tools: the catalog of tools to add is empty");
  const seen = new Set<string>();
  const repeated = o.tools.filter((t) => seen.has(t.id) || !seen.add(t.id)).map((t) => t.id);
  if (repeated.length > 0) fail(`--add-tools names ${listed(repeated)} more than once`);
  const present = o.tools.filter((t) => index.texts[t.id] !== undefined).map((t) => t.id);
  if (present.length > 0)
    fail(`--add-tools: ${present.length} of the tools are already in the model: ${listed(present)}`);
  const unknown = [
    ...new Set(
      (o.queries ?? []).flatMap((q) => q.relevant).filter((id) => !seen.has(id) && !index.texts[id]),
    ),
  ];
  if (unknown.length > 0)
    fail(
      `--queries label ${unknown.length} tools that are neither added nor in the model: ${listed(unknown)}`,
    );
  const stages: AddStage[] = o.queries?.length ? ["memorization", "retrieval"] : ["memorization"];
  for (const stage of stages) {
    const epochs = o.epochs?.[stage] ?? ADD_DEFAULTS.epochs[stage];
    if (!(epochs > 0 && Number.isFinite(epochs)))
      fail(`${stage}: epochs must be a positive number, got ${epochs}`);
    const lr = o.lr?.[stage];
    if (lr !== undefined && !(lr > 0 && Number.isFinite(lr)))
      fail(`${stage}: learning rate must be a positive number, got ${lr}`);
    if (m.done.some((r) => r.stage === stage) && !existsSync(dataFile(o.from, stage)))
      fail(`--from ${o.from} has no ${join("data", `${stage}.jsonl`)} to replay its tools from`);
  }
  const anchor = o.anchor ?? 0;
  if (!(anchor >= 0 && Number.isFinite(anchor))) fail(`anchor must be a number ≥ 0, got ${anchor}`);
  if (o.trainLayers !== undefined && !(Number.isInteger(o.trainLayers) && o.trainLayers >= 0))
    fail(`trainLayers must be an integer ≥ 0, got ${o.trainLayers}`);
  if (
    (o.anchor !== undefined ||
      o.trainLayers !== undefined ||
      o.distill !== undefined ||
      o.hardReplay !== undefined) &&
    (o.method ?? ADD_DEFAULTS.method) !== "all"
  )
    fail(
      "anchor, trainLayers, distill and hardReplay apply to method all (the rows fit trains no other weight)",
    );
  if (o.spreadReplay && (o.method ?? ADD_DEFAULTS.method) !== "all")
    fail("spreadReplay applies to method all (the rows fit has no epochs to spread the replay over)");
  if (o.spreadReplay && (o.hardReplay !== undefined || o.distill !== undefined))
    fail("spreadReplay does not combine with hardReplay or distill (both are tied to one replay draw)");
  if (o.hardReplay !== undefined && !(o.hardReplay >= 0 && o.hardReplay <= 1))
    fail(`hardReplay must be a share in [0, 1], got ${o.hardReplay}`);
  if (
    (o.userLossSamples !== undefined || o.replayUserLoss !== undefined) &&
    (o.method ?? ADD_DEFAULTS.method) !== "all"
  )
    fail("userLossSamples and replayUserLoss apply to method all (the rows fit has no user loss)");
  if (o.userLossSamples !== undefined && !(Number.isInteger(o.userLossSamples) && o.userLossSamples > 0))
    fail(`userLossSamples must be a positive integer, got ${o.userLossSamples}`);
  if (o.distill) {
    const { weight, temperature = 1, topK = 8 } = o.distill;
    if (!(weight >= 0 && weight <= 1)) fail(`distill weight must be in [0, 1], got ${weight}`);
    if (!(temperature > 0 && Number.isFinite(temperature)))
      fail(`distill temperature must be a positive number, got ${temperature}`);
    if (!(Number.isInteger(topK) && topK >= 1)) fail(`distill topK must be an integer ≥ 1, got ${topK}`);
    const teacher: string = o.distill.teacher ?? "base";
    if (teacher !== "base" && teacher !== "rows")
      fail(`distill teacher must be base or rows, got ${JSON.stringify(o.distill.teacher)}`);
    if (teacher === "rows" && o.rowsFirst !== true)
      fail("distill teacher rows takes its targets after the rows-first fit: it needs rowsFirst");
    const scope: string = o.distill.scope ?? "all";
    if (scope !== "all" && scope !== "old")
      fail(`distill scope must be all or old, got ${JSON.stringify(o.distill.scope)}`);
    if (scope === "old" && teacher === "rows")
      fail(
        "distill scope old holds the old tools among themselves: teacher rows gives the new tools mass too",
      );
  }
  if (o.newToolOffset !== undefined && o.newToolOffset !== "auto" && !Number.isFinite(o.newToolOffset))
    fail(`newToolOffset must be a finite number or "auto", got ${o.newToolOffset}`);
  if (o.newToolOffset === "auto") {
    const naming = (o.queries ?? []).filter((q) => q.relevant.some((id) => seen.has(id))).length;
    if (naming < 2)
      fail(
        `--new-tool-offset auto holds out some of the added tools' queries to choose on: it needs at least 2 ` +
          `queries naming them (--queries), got ${naming}`,
      );
    if (readDevQueries(o.from).length === 0 && !existsSync(dataFile(o.from, "retrieval")))
      fail(
        `--new-tool-offset auto needs old-tool queries: ${o.from} has neither data/dev.jsonl nor data/retrieval.jsonl`,
      );
  }
  const replay = o.replay ?? 0;
  if (!(replay >= 0 && Number.isFinite(replay))) fail(`replay must be a number ≥ 0, got ${replay}`);
  if (resolve(o.out) === resolve(o.from)) fail("--out must be a new folder, not the --from folder");
  if (existsSync(o.out) && readdirSync(o.out).length > 0)
    fail(`--out ${o.out} exists and is not empty; choose a new folder`);
  return { manifest: m, index, stages };
}

const userOf = (c: StageSample) => c.messages.find((x) => x.role === "user")!.content;
const assistantOf = (c: StageSample) => c.messages.find((x) => x.role === "assistant")!.content.trim();

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);

const dataFile = (dir: string, stage: AddStage) => join(dir, "data", `${stage}.jsonl`);

/** `n` of `items`, drawn without repetition with a seeded shuffle (all of them when n ≥ their number). */
function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  const out = [...items];
  const rng = new Rng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, Math.min(items.length, Math.max(0, Math.round(n))));
}

function fingerprintOf(o: AddToolsOptions, from: string, stages: AddStage[]): string {
  const h = createHash("sha256");
  const { epochs, replay, lr, seed, imprint, method, rowEpochs, rowsFirst, anchor, trainLayers, distill } = o;
  h.update(
    JSON.stringify({
      ...{ from, stages, epochs, replay, lr, seed, imprint, method, rowEpochs, rowsFirst },
      ...{ anchor, trainLayers, distill },
      // Only when given, so that the fingerprints of additions without an offset stay what they were.
      ...(o.newToolOffset ? { newToolOffset: o.newToolOffset } : {}),
      ...(o.hardReplay !== undefined ? { hardReplay: o.hardReplay } : {}),
      ...(o.spreadReplay ? { spreadReplay: true } : {}),
      ...(o.userLossSamples !== undefined ? { userLossSamples: o.userLossSamples } : {}),
      ...(o.replayUserLoss === false ? { replayUserLoss: false } : {}),
    }),
  );
  for (const e of o.tools) h.update(`\u0000${e.id}\u0001${e.description}`);
  for (const q of o.queries ?? []) h.update(`\u0000${q.query}\u0001${q.relevant.join("\u0002")}`);
  return h.digest("hex").slice(0, 16);
}

interface StageRun {
  stage: AddStage;
  fresh: StageSample[];
  replayed: StageSample[];
  /** The --from model's distribution for each replayed sample (distillation), aligned with `replayed`. */
  soft?: ToolDistribution[];
  /** The tokens the soft term's softmax is taken over (distill scope old: the old tool tokens; absent: all). */
  softScope?: Int32Array;
  /** spreadReplay: the old samples the stage trains on, `replayed` first (add-tools-spread.ts). */
  spread?: StageSample[];
}

async function trainStage(
  model: Llama,
  tokenizer: Tokenizer,
  run: StageRun,
  o: AddToolsOptions,
  m: ToolGenManifest,
  seed: number,
  anchor: ReturnType<typeof anchorWeights> | undefined,
): Promise<StageReport> {
  const schedule = scheduleFor(m.preset);
  const base = m.done.find((r) => r.stage === run.stage);
  const lr = o.lr?.[run.stage] ?? base?.lr ?? schedule.stages[run.stage].lr;
  const epochs = o.epochs?.[run.stage] ?? ADD_DEFAULTS.epochs[run.stage];
  // The model's own settings for the stage (the loss on the user's words, token dropout, weight averaging).
  const userLoss = base?.userLoss ?? schedule.stages[run.stage].userLoss;
  const tokenDropout = base?.tokenDropout ?? schedule.stages[run.stage].tokenDropout;
  const averageLast = base?.averageLast ?? schedule.stages[run.stage].averageLast;
  const batchSize = base?.batchSize ?? schedule.batchSize;
  const format: ChatFormat = m.chatFormat ?? "chatml";
  const chats = run.spread ? spreadSamples(run.fresh, run.spread, epochs) : [...run.fresh, ...run.replayed];
  // replayUserLoss false: the user loss on the new samples only (spread repeats the same new sample objects).
  const fresh = new Set(run.fresh);
  const userLossOn = (c: StageSample) => userLoss && (o.replayUserLoss !== false || fresh.has(c));
  const userLossSamples = userLoss ? o.userLossSamples : undefined;
  const samples = chats.map((c, i) => {
    const e = encodeChat(tokenizer, c.messages, {
      format,
      maxContentTokens: schedule.maxContentTokens,
      maxLength: model.config.maxPositions,
    });
    const s = userLossOn(c) ? withUserLoss(e) : e;
    const soft = run.soft?.[i - run.fresh.length];
    if (!soft || !o.distill) return s;
    // The answer's tool token: the first trained token that is the label.
    const label = tokenizer.tokenToId(assistantOf(c))!;
    const at = s.ids.findIndex((id, t) => id === label && e.lossMask[t]);
    const { weight, temperature = 1 } = o.distill;
    const over = run.softScope ? { over: run.softScope } : {};
    return at < 1 ? s : { ...s, soft: { at, ...soft, weight, temperature, ...over } };
  });
  // Spread: the steps of the one-draw stage (its samples are `epochs` passes' worth, seen about once each).
  const steps = Math.max(1, Math.ceil((epochs * (run.fresh.length + run.replayed.length)) / batchSize));
  const seqLen = Math.min(
    model.config.maxPositions,
    samples.reduce((n, s) => Math.max(n, s.ids.length), 1),
  );
  const bar = o.progress === false ? undefined : trainingProgressBar(steps, 0);
  const started = performance.now();
  const curve: Array<{ step: number; loss: number }> = [];
  let peakRss = process.memoryUsage().rss;
  let tokensPerSecond = 0;
  let result;
  try {
    result = await train(
      model,
      { kind: "samples", samples, padId: model.config.padTokenId ?? 0, seqLen },
      {
        steps,
        batchSize,
        lr,
        seed: seed * 31 + (run.stage === "memorization" ? 0 : 1) + 1000,
        warmupFraction: schedule.warmupFraction,
        tokenDropout,
        averageLast,
        ...(userLossSamples !== undefined ? { userLossSamples } : {}),
        // Anchored: decay toward the start (anchor-weights.ts) instead of AdamW's toward zero.
        ...(o.anchor ? { adamw: { weightDecay: 0 } } : {}),
        signal: o.signal,
        onStep: (info) => {
          anchor?.afterUpdate(info.lr);
          bar?.update(info);
          curve.push({ step: info.step, loss: info.loss });
          tokensPerSecond = info.tokensPerSecond;
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
        },
      },
    );
  } finally {
    bar?.stop();
  }
  anchor?.hold(); // the tail average moved the held weights too
  if (result.stoppedEarly)
    throw new ToolgenError("invalid_option", `adding tools stopped during ${run.stage}`);
  return {
    stage: run.stage,
    samples: samples.length,
    epochs,
    steps,
    batchSize,
    seqLen,
    lr,
    ...(tokenDropout ? { tokenDropout } : {}),
    ...(userLoss ? { userLoss } : {}),
    ...(userLossSamples !== undefined ? { userLossSamples } : {}),
    ...(userLoss && o.replayUserLoss === false ? { replayUserLoss: false } : {}),
    ...(averageLast ? { averageLast } : {}),
    seconds: (performance.now() - started) / 1000,
    tokensPerSecond,
    peakRssMb: Math.round(peakRss / 2 ** 20),
    finalLoss: curve[curve.length - 1]?.loss ?? NaN,
    lossCurve: downsampleCurve(curve, 200),
    code: trainingCodeVersion().hash,
    gemm: gemmFamily(kernels().name),
  };
}

/**
 * Adds tools to a trained ToolGen model without retraining it: one new token per tool, its embedding and
 * lm_head rows the mean of the rows of its name's tokens (virtualizeTools), then a short memorisation of the
 * new tools — and a retrieval stage when queries are given — each with a sample of the model's own training
 * samples of the same stage replayed (data/*.jsonl of the --from folder), so that the old tokens keep their
 * meaning. Every option is checked before anything is written; the new folder appears whole (written under a
 * temporary name, then renamed) and its data/*.jsonl hold the old and new samples, so tools can be added again.
 */
export async function addToolsToModel(o: AddToolsOptions): Promise<ToolGenManifest> {
  const { manifest: m, index: oldIndex, stages } = check(o);
  const carried = readToolOffsets(o.from); // read (and checked) before any work
  const seed = o.seed ?? m.seed;
  const log = o.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const started = performance.now();
  const loaded = loadCheckpoint(o.from);
  if (!loaded.tokenizer) fail(`--from ${o.from}: tokenizer.json is missing`);
  const layers = loaded.model.config.numLayers;
  if (o.trainLayers !== undefined && o.trainLayers > layers)
    fail(`trainLayers ${o.trainLayers}: the model has ${layers} layers`);
  const newIds = new Set(o.tools.map((t) => t.id));
  // auto: the dev queries leave the addition here, before the imprint and the stages read any query.
  const holdout =
    o.newToolOffset === "auto"
      ? holdOutForOffset(
          o.queries ?? [],
          newIds,
          existsSync(dataFile(o.from, "retrieval")) ? readSamples(dataFile(o.from, "retrieval")) : [],
          new Map(Object.entries(oldIndex.texts).map(([id, text]) => [text, id])),
          readDevQueries(o.from),
          seed,
        )
      : undefined;
  if (holdout && holdout.oldDev.length === 0)
    fail(
      `--new-tool-offset auto: ${o.from} has no old-tool query to hold out (its data/retrieval.jsonl is empty)`,
    );
  const queries = holdout?.train ?? o.queries ?? [];
  if (holdout)
    log(
      `offset auto: ${holdout.newDev.length} new-tool and ${holdout.oldDev.length} old-tool dev queries held out ` +
        `(old from ${holdout.oldFrom === "dev.jsonl" ? `${o.from}/data/dev.jsonl` : "the replayed samples"})`,
    );
  const v = virtualizeTools(loaded.model, loaded.tokenizer!, o.tools);
  const model = v.model;
  const tokenizer = v.tokenizer;
  const index: ToolIndex = {
    kind: "atomic",
    texts: { ...oldIndex.texts, ...Object.fromEntries(o.tools.map((t) => [t.id, toolToken(t.id)])) },
  };
  const method = o.method ?? ADD_DEFAULTS.method;
  const fitRows = method === "rows" || o.rowsFirst === true;
  // The rows' fit imprints from the states it computes anyway; `all` without it imprints here, before its stages.
  if (o.imprint !== false && !fitRows) {
    const named = (id: string) => queries.filter((q) => q.relevant.includes(id)).map((q) => q.query);
    imprintToolRows(
      model,
      tokenizer,
      o.tools.map((t) => ({
        tokenId: v.toolTokenIds.get(t.id)!,
        prompts: [toolDocument(t), ...named(t.id)],
      })),
      {
        format: m.chatFormat ?? "chatml",
        maxContentTokens: scheduleFor(m.preset).maxContentTokens,
        scaleFrom: Object.values(oldIndex.texts).map((text) => tokenizer.tokenToId(text)!),
      },
    );
  }
  const replay = o.replay ?? ADD_DEFAULTS.replay[method];
  const pools: StageSample[][] = [];
  const runs: StageRun[] = stages.map((stage, i) => {
    const fresh =
      stage === "memorization"
        ? memorizationSamples(o.tools, index)
        : retrievalSamples(queries, index).samples;
    const old =
      stage === "retrieval" && holdout
        ? holdout.replayable
        : existsSync(dataFile(o.from, stage))
          ? readSamples(dataFile(o.from, stage))
          : [];
    pools.push(old);
    const replayed = sample(old, replay * fresh.length, seed * 7 + i);
    if (!o.spreadReplay || method !== "all") return { stage, fresh, replayed };
    const epochs = o.epochs?.[stage] ?? ADD_DEFAULTS.epochs[stage];
    const total = spreadTotal(fresh.length, replay, epochs);
    return { stage, fresh, replayed, spread: spreadDraw(old, replayed, total, seed * 7 + i + 500) };
  });
  const oldToolIds = Object.values(oldIndex.texts).map((text) => tokenizer.tokenToId(text)!);
  const distillFrom = (toolIds: number[]) => {
    const { temperature = 1, topK = 8, scope = "all" } = o.distill!;
    const softScope = scope === "old" ? Int32Array.from(oldToolIds).sort() : undefined;
    for (const run of runs) {
      if (softScope) run.softScope = softScope;
      run.soft = distillTargets(model, tokenizer, run.replayed.map(userOf), toolIds, {
        format: m.chatFormat ?? "chatml",
        maxContentTokens: scheduleFor(m.preset).maxContentTokens,
        temperature,
        topK,
      });
    }
    const targets = runs.flatMap((r) => r.soft ?? []);
    // How much of the old queries' targets the new tools hold (none with the base model as teacher).
    const old = new Set(oldToolIds);
    let onNew = 0;
    for (const t of targets) t.ids.forEach((id, k) => (onNew += old.has(id) ? 0 : t.probs[k]!));
    log(
      `distill: soft targets for ${targets.length} replayed samples, ` +
        `mean mass on the new tools ${(onNew / Math.max(1, targets.length)).toFixed(4)}`,
    );
  };
  const teacher = o.distill?.teacher ?? "base";
  const hard = method === "all" ? o.hardReplay : undefined;
  // The --from model's own predictions, taken before anything changes it (virtualisation left its old rows);
  // with hardReplay, after the replay is chosen (the new rows' fit changes no weight these targets read).
  if (o.distill && method === "all" && teacher === "base" && hard === undefined) distillFrom(oldToolIds);
  const reports: StageReport[] = [];
  let rows: AddedTools["rows"];
  if (fitRows) {
    // The stages' samples, new and replayed, as (prompt, tool token) examples for the frozen model's head.
    const examples = runs.flatMap((r) =>
      [...r.fresh, ...r.replayed].map((c) => ({
        prompt: userOf(c),
        target: tokenizer.tokenToId(assistantOf(c))!,
      })),
    );
    log(`rows: fitting ${o.tools.length} new rows on ${examples.length} examples`);
    const fit = fitNewRows(model, tokenizer, examples, {
      format: m.chatFormat ?? "chatml",
      maxContentTokens: scheduleFor(m.preset).maxContentTokens,
      fixedIds: Object.values(oldIndex.texts).map((text) => tokenizer.tokenToId(text)!),
      newIds: o.tools.map((t) => v.toolTokenIds.get(t.id)!),
      ...(o.rowEpochs !== undefined ? { epochs: o.rowEpochs } : {}),
      imprint: o.imprint !== false,
      seed,
    });
    rows = { examples: examples.length, ...fit };
    log(
      `rows: loss ${fit.loss.toFixed(4)}, accuracy ${fit.accuracy.toFixed(3)}, ${fit.seconds.toFixed(1)} s`,
    );
  }
  if (hard !== undefined) {
    const newTokenIds = o.tools.map((t) => v.toolTokenIds.get(t.id)!);
    runs.forEach((run, i) => {
      const pool = pools[i]!;
      const risk = newToolMass(model, tokenizer, pool.map(userOf), oldToolIds, newTokenIds, {
        format: m.chatFormat ?? "chatml",
        maxContentTokens: scheduleFor(m.preset).maxContentTokens,
      });
      run.replayed = pickReplay(pool, risk, replay * run.fresh.length, hard, seed * 7 + i);
      const riskOf = new Map(pool.map((s, k) => [s, risk[k]!]));
      log(
        `${run.stage}: hard replay ${hard}: ${run.replayed.length} of ${pool.length} old samples, new-tool mass ` +
          `mean ${mean([...risk]).toFixed(4)} over all, ${mean(run.replayed.map((s) => riskOf.get(s)!)).toFixed(4)} over the chosen`,
      );
    });
    if (o.distill && teacher === "base") distillFrom(oldToolIds);
  }
  // After the fit, over every tool token: only the new rows have changed since the --from model.
  if (o.distill && method === "all" && teacher === "rows")
    distillFrom([...oldToolIds, ...o.tools.map((t) => v.toolTokenIds.get(t.id)!)]);
  // Both stages are held near the weights they start from (the base model's, the new rows as fitted).
  const anchor =
    method === "all" && (o.anchor || o.trainLayers !== undefined)
      ? anchorWeights(model, {
          lambda: o.anchor ?? 0,
          ...(o.trainLayers !== undefined ? { trainLayers: o.trainLayers } : {}),
          newTokenIds: [...v.toolTokenIds.values()],
        })
      : undefined;
  for (const run of method === "all" ? runs : []) {
    log(
      `${run.stage}: ${run.fresh.length} new samples + ${run.replayed.length} replayed` +
        (run.spread ? ` (spread: ${new Set(run.spread).size} distinct old samples over the epochs)` : ""),
    );
    const report = await trainStage(model, tokenizer, run, o, m, seed, anchor);
    model.releaseWorkspace();
    reports.push(report);
    log(
      `${run.stage}: ${report.steps} steps in ${report.seconds.toFixed(1)} s, final loss ${report.finalLoss.toFixed(4)}`,
    );
  }

  const fingerprint = fingerprintOf(o, m.fingerprint, stages);
  let added: AddedTools = {
    from: m.fingerprint,
    tools: o.tools.length,
    queries: o.queries?.length ?? 0,
    replay,
    method,
    stages: reports,
    ...(rows ? { rows } : {}),
    ...(hard !== undefined ? { hardReplay: hard } : {}),
    ...(method === "all" && o.spreadReplay ? { spreadReplay: true } : {}),
    ...(typeof o.newToolOffset === "number" && o.newToolOffset ? { offset: o.newToolOffset } : {}),
    seconds: (performance.now() - started) / 1000,
  };
  let manifest: ToolGenManifest = {
    ...m,
    fingerprint,
    catalogSize: m.catalogSize + o.tools.length,
    vocab: { base: m.vocab.base, total: tokenizer.vocabSize },
    added: [...(m.added ?? []), added],
  };
  const tmp = join(dirname(resolve(o.out)), `.${basename(o.out)}.adding-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    saveCheckpoint(tmp, model, { tokenizer });
    writeToolGenExtras(tmp, index, m.chatFormat ?? "chatml");
    let offset = typeof o.newToolOffset === "number" ? o.newToolOffset : 0;
    if (holdout) {
      // Traced on the written weights, as the retriever will rank with them; the offsets file comes after.
      const auto = await chooseOffset(tmp, o.from, carried ?? {}, newIds, holdout, m.chatFormat ?? "chatml");
      offset = auto.offset;
      added = {
        ...added,
        ...(offset ? { offset } : {}),
        auto,
        seconds: (performance.now() - started) / 1000,
      };
      manifest = { ...manifest, added: [...(m.added ?? []), added] };
      log(offsetLine(auto));
    }
    writeToolOffsets(tmp, {
      ...carried,
      ...(offset ? Object.fromEntries(o.tools.map((t) => [t.id, offset])) : {}),
    });
    // The --from folder's dev queries, and the added tools' held out here: a later auto addition's old dev.
    if (holdout || existsSync(join(o.from, "data", "dev.jsonl")))
      writeDevQueries(tmp, o.from, holdout?.newDev ?? []);
    // Old and new samples of every trained stage, so that the new folder can be added to in turn.
    for (const stage of ["memorization", "retrieval"] as const) {
      if (!existsSync(dataFile(o.from, stage))) continue;
      const fresh = runs.find((r) => r.stage === stage)?.fresh ?? [];
      writeSamples(dataFile(tmp, stage), [...readSamples(dataFile(o.from, stage)), ...fresh]);
    }
    writeJsonAtomic(join(tmp, "toolgen.json"), manifest);
    if (existsSync(o.out)) rmSync(o.out, { recursive: true }); // checked empty above
    renameSync(tmp, o.out);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return manifest;
}
