import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadCheckpoint } from "../nn/checkpoint.ts";
import type { Llama } from "../nn/llama.ts";
import type { Tokenizer } from "../nn/tokenizer/index.ts";
import { isIndexKind, type ToolIndex } from "./ids.ts";
import type { ChatFormat } from "./chat-encoding.ts";
import type { Stage } from "./stages.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The extra files of a trained ToolGen folder, beside the engine's checkpoint (config.json, model.safetensors,
 * tokenizer.json): `toolgen-index.json` (how each catalog id is written), `toolgen.json` (the training manifest:
 * what ran, how long, how much memory) and `tokenizer_config.json` (the chat template, Hugging Face style).
 * Reading them is here; writing them is training's (`src/train/model-folder-write.ts`).
 */
export const INDEX_FILE = "toolgen-index.json";
export const MANIFEST_FILE = "toolgen.json";
export const TOKENIZER_CONFIG_FILE = "tokenizer_config.json";
/**
 * Logit offsets per tool id, added to those tools' tokens when ranking (`toolgen train --add-tools
 * --new-tool-offset`): tools learnt in a short addition compete with the old ones on a scale the base training
 * did not set, and one scalar chosen on dev queries moves the balance between old and new tools. Absent: none.
 */
export const OFFSETS_FILE = "toolgen-offsets.json";

export interface StageReport {
  stage: Stage;
  samples: number;
  epochs: number;
  steps: number;
  batchSize: number;
  seqLen: number;
  lr: number;
  /** Token dropout over the user's words, when the stage used it. */
  tokenDropout?: number;
  /** True when the stage also trained on predicting the user's words (`StageSchedule.userLoss`). */
  userLoss?: boolean;
  /** The fraction of the user's words that were targets in each batch, when below 1 (`StageSchedule.userLossFraction`). */
  userLossFraction?: number;
  /** True when those words' losses weighed 1 / fraction (`StageSchedule.userLossReweight`). */
  userLossReweight?: boolean;
  /** The uniformly drawn candidates of the user's words' sampled softmax, when on (`StageSchedule.userLossSamples`). */
  userLossSamples?: number;
  /** False when an addition trained its replayed old samples without the user loss (AddToolsOptions.replayUserLoss). */
  replayUserLoss?: boolean;
  /** The fraction of the stage's last updates whose weights were averaged (`StageSchedule.averageLast`). */
  averageLast?: number;
  seconds: number;
  tokensPerSecond: number;
  peakRssMb: number;
  finalLoss: number;
  /** The training loss over the stage: mean per bucket of steps (≤ 200 points; from the resume point if resumed). */
  lossCurve?: Array<{ step: number; loss: number }>;
  /** The training code's version this stage ran with (`trainingCodeVersion().hash`; absent in older folders). */
  code?: string;
  /**
   * The matrix-product kernels' family this stage ran with (`wasm`, `native`, `reference`: kernels/index.ts
   * gemmFamily), which fixes its bytes with the code; absent in older folders, which trained with `wasm`.
   */
  gemm?: string;
}

export interface ToolGenManifest {
  format: "toolgen-model/1";
  fingerprint: string;
  preset: string;
  index: ToolIndex["kind"];
  seed: number;
  stages: Stage[];
  catalogSize: number;
  vocab: { base: number; total: number };
  done: StageReport[];
  setupSeconds: number;
  /** The chat format the model was trained with; absent in the first models (ChatML). */
  chatFormat?: ChatFormat;
  /**
   * The training code's version when the folder was set up (`trainingCodeVersion()`); absent in older folders.
   * Each stage report also records the version it ran with, so a resumed run shows any change of code.
   */
  code?: { hash: string; files: number };
  /** The dev queries `toolgen train` held out of training (`data/dev.jsonl`); absent when none were. */
  dev?: DevHoldout;
  /** The hybrid's gate chosen on those dev queries after training (`toolgen-gate.json`), with its dev figures. */
  gate?: GateReport;
  /** Tools added after training (`toolgen train --add-tools`), one entry per addition, oldest first. */
  added?: AddedTools[];
}

/** One addition of tools to a trained model: what was added and the short stages that learnt it. */
export interface AddedTools {
  /** The fingerprint of the folder the tools were added to. */
  from: string;
  tools: number;
  queries: number;
  /** Old samples replayed per new sample. */
  replay: number;
  /** `rows`: only the new tokens' lm_head rows were fitted, on the frozen model; `all`: every weight trained. */
  method?: "rows" | "all";
  /** The stages that trained every weight (`all`); empty for `rows`. */
  stages: StageReport[];
  /** The fit of the new rows (`rows`): examples, final loss and accuracy over them, seconds. */
  rows?: { examples: number; loss: number; accuracy: number; seconds: number };
  /** `hardReplay`: the share of each stage's replay taken as the old samples the new tools threatened most. */
  hardReplay?: number;
  /** `spreadReplay`: each epoch of a stage replayed other old samples (add-tools-spread.ts). */
  spreadReplay?: boolean;
  /** The logit offset written for the added tools (OFFSETS_FILE), when one was given or chosen. */
  offset?: number;
  /** `--new-tool-offset auto`: how the offset was chosen on held-out dev queries (`train/choose-offset.ts`). */
  auto?: OffsetChoice;
  /** Wall seconds of the whole addition (loading, virtualisation, stages). */
  seconds: number;
}

/** An offset chosen on dev queries the addition held out: the rule, the pick, and NDCG@1 (points) on the grid. */
export interface OffsetChoice {
  rule: string;
  offset: number;
  /** Old- and new-tool dev NDCG@1 at the chosen offset. */
  old: number;
  new: number;
  /** The --from model's old-tool dev NDCG@1 (the floor is this minus the tolerance). */
  baseOld: number;
  /** False when no offset kept the old tools within the tolerance of baseOld (the floor came from the curve's best). */
  floorMet: boolean;
  /** How many dev queries of each kind; old ones from the --from folder's data/dev.jsonl or the replayed samples. */
  dev: { old: number; new: number; oldFrom: "dev.jsonl" | "replayed" };
  curve: { offsets: number[]; old: number[]; new: number[] };
}

/**
 * Dev queries held out of a run's training: a seeded `fraction` of the queries (`seen`: in-domain) and every query
 * of a seeded `toolsFraction` of the queried tools (`unseen`: tools memorised but never asked for; `tools` lists
 * them).
 */
export interface DevHoldout {
  fraction: number;
  toolsFraction: number;
  seed: number;
  seen: number;
  unseen: number;
  tools: string[];
}

/**
 * The gate chosen on the dev queries: the criterion, the gate, and per dev part ToolGen, the lexical part and the
 * gate (`lexical`; folders written before the ranker was the lexical part have `bm25` there instead).
 */
export interface GateReport {
  metric: string;
  gate: {
    feature: string;
    threshold: number | string;
    lowWeight: number;
    k0?: number;
    lexical?: string;
    maxLexicalGap?: number;
    head?: string;
  };
  parts: Array<{
    part: string;
    queries: number;
    toolgen: number;
    lexical?: number;
    bm25?: number;
    chosen: number;
  }>;
  /** How many gates were tried. */
  tried: number;
  /**
   * How many catalog tools the retrieval stage trained on queries for (listed as `queried` in toolgen-gate.json;
   * the others keep the lexical part's ranks in the hybrid). Absent in folders from before.
   */
  queried?: number;
}

export function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ToolgenError("invalid_input", `${file}: cannot read as JSON (${(e as Error).message})`, {
      cause: e,
    });
  }
}

export function readToolIndex(dir: string): ToolIndex {
  const file = join(dir, INDEX_FILE);
  if (!existsSync(file)) {
    throw new ToolgenError(
      "invalid_input",
      `${dir} is not a ToolGen model folder: ${INDEX_FILE} is missing (train one with toolgen train)`,
    );
  }
  const value = readJsonFile(file) as Partial<ToolIndex>;
  if (
    !value ||
    typeof value.kind !== "string" ||
    !isIndexKind(value.kind) ||
    typeof value.texts !== "object"
  ) {
    throw new ToolgenError(
      "invalid_input",
      `${file}: expected {"kind": atomic|semantic|numeric|hierarchical, "texts": {id: text}}`,
    );
  }
  return { kind: value.kind, texts: value.texts as Record<string, string> };
}

export function readManifest(dir: string): ToolGenManifest | undefined {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  const value = readJsonFile(file) as ToolGenManifest;
  if (value?.format !== "toolgen-model/1")
    throw new ToolgenError("invalid_input", `${file}: not a toolgen training manifest`);
  return value;
}

/** The folder's logit offsets by tool id (OFFSETS_FILE), or undefined when it has none. */
export function readToolOffsets(dir: string): Record<string, number> | undefined {
  const file = join(dir, OFFSETS_FILE);
  if (!existsSync(file)) return undefined;
  const value = readJsonFile(file) as { format?: unknown; offsets?: unknown };
  const offsets = value?.offsets as Record<string, unknown> | undefined;
  if (
    value?.format !== "toolgen-offsets/1" ||
    typeof offsets !== "object" ||
    offsets === null ||
    !Object.values(offsets).every((x) => typeof x === "number" && Number.isFinite(x))
  )
    throw new ToolgenError(
      "invalid_input",
      `${file}: expected {"format": "toolgen-offsets/1", "offsets": {id: finite number}}`,
    );
  return offsets as Record<string, number>;
}

export interface ToolGenModel {
  dir: string;
  model: Llama;
  tokenizer: Tokenizer;
  index: ToolIndex;
  manifest?: ToolGenManifest;
  chatFormat: ChatFormat;
  /** Logit offsets by tool id (OFFSETS_FILE); absent when the folder has none. */
  offsets?: Record<string, number>;
}

/** Loads a trained ToolGen folder (a `builtin:DIR` spec's prefix is accepted). */
export function loadToolGenModel(spec: string): ToolGenModel {
  const dir = spec.startsWith("builtin:") ? spec.slice("builtin:".length) : spec;
  const index = readToolIndex(dir);
  const { model, tokenizer } = loadCheckpoint(dir);
  if (!tokenizer) throw new ToolgenError("invalid_input", `${dir}: tokenizer.json is missing`);
  const manifest = readManifest(dir);
  // A folder without a manifest (trained elsewhere) is taken to use the default Llama-3 format.
  const chatFormat = manifest ? (manifest.chatFormat ?? "chatml") : "llama3";
  const offsets = readToolOffsets(dir);
  return { dir, model, tokenizer, index, manifest, chatFormat, ...(offsets ? { offsets } : {}) };
}
