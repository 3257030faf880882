import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fromHfConfig, toHfConfig, type LlamaConfig } from "./config.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { readSafetensors, writeSafetensors, type NamedTensor } from "./io/safetensors.ts";
import { gemmFamily, kernels } from "./kernels/index.ts";
import { Llama } from "./llama.ts";
import { ParamSet, paramSpecs } from "./params.ts";
import { Tokenizer } from "./tokenizer/index.ts";
import { ADAMW_DEFAULTS, AdamW, type AdamWOptions } from "./train/adamw.ts";
import { ToolgenError } from "../errors.ts";

/**
 * A checkpoint is a Hugging Face style folder: `config.json` (LlamaConfig fields), `model.safetensors` (HF
 * Llama tensor names, float32), `tokenizer.json`; a resumable one adds `optimizer.safetensors` (AdamW moments
 * `m.<name>`, `v.<name>`) and `trainer_state.json`. Every file is written atomically (temporary file + rename);
 * the model file is renamed last, and the step recorded in each file lets a resume detect a mixed set.
 */
export const CHECKPOINT_FILES = {
  config: "config.json",
  model: "model.safetensors",
  tokenizer: "tokenizer.json",
  optimizer: "optimizer.safetensors",
  trainerState: "trainer_state.json",
} as const;

/** Training state saved next to the weights; `options` are whatever the trainer needs to continue. */
export interface TrainerState {
  step: number;
  adamw: AdamWOptions;
  options: Record<string, unknown>;
  /** Updates held by the running weight mean (`avg.*` in optimizer.safetensors), when averaging has begun. */
  averaged?: number;
  /**
   * The matrix-product kernels that trained it (kernels/index.ts gemmFamily): their family fixes the bits, so a
   * run repeats byte for byte only on the same family (`toolgen train` takes `native` where the addon is built
   * and checks out, else `wasm`; the library keeps `wasm` unless TOOLGEN_KERNELS says). Absent in older
   * checkpoints.
   */
  gemm?: string;
}

export interface SaveOptions {
  tokenizer?: Tokenizer;
  optimizer?: AdamW;
  /** Saved into trainer_state.json with the optimizer (steps, lr, seed, data description, …). */
  trainOptions?: Record<string, unknown>;
}

export function saveCheckpoint(dir: string, model: Llama, o: SaveOptions = {}): void {
  mkdirSync(dir, { recursive: true });
  const step = String(o.optimizer?.step ?? 0);
  if (o.tokenizer) {
    if (o.tokenizer.vocabSize > model.config.vocabSize) {
      throw new ToolgenError(
        "invalid_input",
        `tokenizer has ${o.tokenizer.vocabSize} tokens but the model only ${model.config.vocabSize} rows; resize the vocabulary first`,
      );
    }
    o.tokenizer.save(dir);
  }
  if (o.optimizer) {
    const moments: NamedTensor[] = [];
    for (const t of o.optimizer.m.tensors) moments.push({ ...t, name: `m.${t.name}` });
    for (const t of o.optimizer.v.tensors) moments.push({ ...t, name: `v.${t.name}` });
    for (const t of o.optimizer.average?.tensors ?? []) moments.push({ ...t, name: `avg.${t.name}` });
    writeSafetensors(join(dir, CHECKPOINT_FILES.optimizer), moments, { step });
    const state: TrainerState = {
      step: o.optimizer.step,
      adamw: o.optimizer.options,
      options: o.trainOptions ?? {},
      ...(o.optimizer.average ? { averaged: o.optimizer.averaged } : {}),
      gemm: gemmFamily(kernels().name),
    };
    writeFileAtomic(join(dir, CHECKPOINT_FILES.trainerState), JSON.stringify(state, null, 2) + "\n");
  }
  writeFileAtomic(
    join(dir, CHECKPOINT_FILES.config),
    JSON.stringify(toHfConfig(model.config), null, 2) + "\n",
  );
  writeSafetensors(join(dir, CHECKPOINT_FILES.model), model.params.tensors, { format: "pt", step });
}

export interface LoadedCheckpoint {
  model: Llama;
  tokenizer?: Tokenizer;
  dir: string;
  /** The optimizer step the weights were saved at (model.safetensors metadata), when recorded. */
  step?: string;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ToolgenError("invalid_input", `${file}: cannot read as JSON (${(e as Error).message})`, {
      cause: e,
    });
  }
}

/** Loads a checkpoint folder; rejects missing, corrupt or mismatched files with the reason. */
export function loadCheckpoint(dir: string): LoadedCheckpoint {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new ToolgenError("invalid_input", `checkpoint folder ${dir} does not exist`);
  for (const f of [CHECKPOINT_FILES.config, CHECKPOINT_FILES.model]) {
    if (!existsSync(join(dir, f)))
      throw new ToolgenError("invalid_input", `checkpoint ${dir}: ${f} is missing`);
  }
  let config: LlamaConfig;
  try {
    config = fromHfConfig(readJson(join(dir, CHECKPOINT_FILES.config)));
  } catch (e) {
    throw new ToolgenError("invalid_input", `checkpoint ${dir}: ${(e as Error).message}`, { cause: e });
  }
  const file = join(dir, CHECKPOINT_FILES.model);
  const { tensors, metadata } = readSafetensors(file);
  const params = fillParams(new ParamSet(paramSpecs(config)), tensors, file, "");
  const model = new Llama(config, params);
  let tokenizer: Tokenizer | undefined;
  if (existsSync(join(dir, CHECKPOINT_FILES.tokenizer))) {
    tokenizer = Tokenizer.load(join(dir, CHECKPOINT_FILES.tokenizer));
    if (tokenizer.vocabSize > config.vocabSize) {
      throw new ToolgenError(
        "invalid_input",
        `checkpoint ${dir}: tokenizer.json has ${tokenizer.vocabSize} tokens but config.json vocab_size is ${config.vocabSize}`,
      );
    }
  }
  return { model, tokenizer, dir, step: metadata.step };
}

/** Copies tensors `prefix + name` from a file into a parameter set, checking names, shapes and values. */
function fillParams(
  params: ParamSet,
  tensors: Map<string, NamedTensor>,
  file: string,
  prefix: string,
): ParamSet {
  const expected = new Set(params.tensors.map((t) => prefix + t.name));
  for (const name of tensors.keys()) {
    if (name.startsWith(prefix) && !expected.has(name))
      throw new ToolgenError(
        "invalid_input",
        `${file}: unexpected tensor ${name} (does config.json match the weights?)`,
      );
  }
  for (const t of params.tensors) {
    const src = tensors.get(prefix + t.name);
    if (!src) throw new ToolgenError("invalid_input", `${file}: tensor ${prefix + t.name} is missing`);
    if (src.shape.join(",") !== t.shape.join(",")) {
      throw new ToolgenError(
        "invalid_input",
        `${file}: tensor ${prefix + t.name} has shape [${src.shape}], config.json implies [${t.shape}]`,
      );
    }
    for (let i = 0; i < src.data.length; i++) {
      if (!Number.isFinite(src.data[i]))
        throw new ToolgenError(
          "invalid_input",
          `${file}: tensor ${prefix + t.name} holds a non-finite value`,
        );
    }
    t.data.set(src.data);
  }
  return params;
}

/** Restores the optimizer of a resumable checkpoint for `model`; the trainer continues at its step. */
export function loadTrainingState(ckpt: LoadedCheckpoint): { optimizer: AdamW; state: TrainerState } {
  const { dir, model } = ckpt;
  const stateFile = join(dir, CHECKPOINT_FILES.trainerState);
  const optFile = join(dir, CHECKPOINT_FILES.optimizer);
  if (!existsSync(stateFile) || !existsSync(optFile)) {
    throw new ToolgenError(
      "invalid_input",
      `checkpoint ${dir} has no training state (${CHECKPOINT_FILES.trainerState}, ${CHECKPOINT_FILES.optimizer}); cannot resume`,
    );
  }
  const state = readJson(stateFile) as TrainerState;
  if (!Number.isInteger(state?.step) || state.step < 0)
    throw new ToolgenError("invalid_input", `${stateFile}: "step" must be a non-negative integer`);
  const { tensors, metadata } = readSafetensors(optFile);
  const modelStep = ckpt.step;
  if (metadata.step !== String(state.step) || (modelStep !== undefined && modelStep !== String(state.step))) {
    throw new ToolgenError(
      "invalid_input",
      `checkpoint ${dir}: files are from different steps (trainer_state ${state.step}, optimizer ${metadata.step}, model ${modelStep}); an interrupted save?`,
    );
  }
  const gemm = gemmFamily(kernels().name);
  if (state.gemm !== undefined && state.gemm !== gemm)
    process.stderr.write(
      `toolgen: ${dir} was trained with the ${state.gemm} matrix products, this run uses ${gemm}: it continues, ` +
        "but not byte for byte as an uninterrupted run would (`toolgen train --kernels " +
        `${state.gemm}\` or TOOLGEN_KERNELS=${state.gemm} continues with the same ones)\n`,
    );
  const optimizer = new AdamW(model.params, { ...ADAMW_DEFAULTS, ...state.adamw });
  fillParams(optimizer.m, tensors, optFile, "m.");
  fillParams(optimizer.v, tensors, optFile, "v.");
  optimizer.step = state.step;
  if (state.averaged !== undefined) {
    if (!(Number.isInteger(state.averaged) && state.averaged > 0 && state.averaged <= state.step))
      throw new ToolgenError("invalid_input", `${stateFile}: "averaged" must be an integer in [1, step]`);
    optimizer.average = model.params.like();
    fillParams(optimizer.average, tensors, optFile, "avg.");
    optimizer.averaged = state.averaged;
  }
  return { optimizer, state };
}
