// The built-in engine's public surface (kernels, tokenizer and GGUF export their own).
export {
  PRESETS,
  ROPE_CONVENTION,
  fromHfConfig,
  headDim,
  presetConfig,
  toHfConfig,
  validateConfig,
  type LlamaConfig,
  type PresetName,
} from "./config.ts";
export { Llama, type Batch } from "./llama.ts";
export { ParamSet, initParams, paramSpecs, type Tensor } from "./params.ts";
export { Rng } from "./rng.ts";
export { resizeVocab, type NewRowInit } from "./resize.ts";
export {
  CHECKPOINT_FILES,
  loadCheckpoint,
  loadTrainingState,
  saveCheckpoint,
  type LoadedCheckpoint,
  type SaveOptions,
  type TrainerState,
} from "./checkpoint.ts";
export {
  decodeSafetensors,
  encodeSafetensors,
  readSafetensors,
  writeSafetensors,
  type NamedTensor,
} from "./io/safetensors.ts";
export { ADAMW_DEFAULTS, AdamW, clipGradNorm, cosineLr, type AdamWOptions } from "./train/adamw.ts";
export { packedBatch, padBatch, samplesForStep, type Sample } from "./train/batches.ts";
export {
  train,
  type StepInfo,
  type TrainData,
  type TrainOptions,
  type TrainResult,
} from "./train/trainer.ts";
export {
  hasTrainingState,
  resumeRun,
  trainWithCheckpoints,
  type RunOptions,
  type RunResult,
} from "./train/run.ts";
export {
  LLAMA3_SPECIAL_TOKENS,
  trainOnText,
  type TextTrainingOptions,
  type TextTrainingResult,
} from "./train/text.ts";
export { InferenceSession } from "./infer/session.ts";
export {
  beamSearch,
  generateTokens,
  pickToken,
  type Beam,
  type BeamOptions,
  type GenerateTokensOptions,
  type SamplingOptions,
} from "./infer/decode.ts";
