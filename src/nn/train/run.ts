import { existsSync } from "node:fs";
import { join } from "node:path";
import { CHECKPOINT_FILES, loadCheckpoint, loadTrainingState, saveCheckpoint } from "../checkpoint.ts";
import type { Llama } from "../llama.ts";
import type { Tokenizer } from "../tokenizer/index.ts";
import type { AdamW } from "./adamw.ts";
import { trainingProgressBar } from "./progress.ts";
import { train, type StepInfo, type TrainData, type TrainOptions } from "./trainer.ts";
import { ToolgenError } from "../../errors.ts";

/**
 * Training with checkpoints, as a command runs it: a progress bar on stderr, a resumable checkpoint in `out`
 * every `saveEvery` steps and at the end. The options are recorded in trainer_state.json, and a resume checks
 * that the ones that change the result (seed, batch size, learning rate, …) are the same.
 */
export interface RunOptions extends Omit<TrainOptions, "optimizer" | "onStep"> {
  out: string;
  saveEvery?: number;
  progress?: boolean;
  /** Continue from the training state in `out`. */
  optimizer?: AdamW;
  onStep?: (info: StepInfo) => void;
  /** More settings to record and check on resume (sequence length, data file, …). */
  record?: Record<string, string | number | boolean>;
}

export interface RunResult {
  steps: number;
  /** True when `signal` stopped the run before `steps` (the checkpoint holds the last step done). */
  interrupted: boolean;
  finalLoss: number;
  tokensPerSecond: number;
  seconds: number;
}

const RESUME_KEYS = [
  "batchSize",
  "gradientAccumulation",
  "lr",
  "seed",
  "warmupFraction",
  "minLrRatio",
  "clip",
] as const;

export async function trainWithCheckpoints(
  model: Llama,
  tokenizer: Tokenizer,
  data: TrainData,
  o: RunOptions,
): Promise<RunResult> {
  const record: Record<string, unknown> = { ...o.record, steps: o.steps };
  for (const k of RESUME_KEYS) if (o[k] !== undefined) record[k] = o[k];
  const startStep = o.optimizer?.step ?? 0;
  const bar = o.progress === false ? undefined : trainingProgressBar(o.steps, startStep);
  const saveEvery = o.saveEvery ?? 100;
  let last: StepInfo | undefined;
  let interrupted: boolean;
  const started = performance.now();
  try {
    const result = await train(model, data, {
      ...o,
      onStep: (info, optimizer) => {
        last = info;
        bar?.update(info);
        o.onStep?.(info);
        if (saveEvery > 0 && info.step % saveEvery === 0 && info.step < info.steps) {
          saveCheckpoint(o.out, model, { tokenizer, optimizer, trainOptions: record });
        }
      },
    });
    interrupted = result.stoppedEarly;
    saveCheckpoint(o.out, model, { tokenizer, optimizer: result.optimizer, trainOptions: record });
  } finally {
    bar?.stop();
  }
  return {
    steps: last?.step ?? startStep,
    interrupted,
    finalLoss: last?.loss ?? NaN,
    tokensPerSecond: last?.tokensPerSecond ?? 0,
    seconds: (performance.now() - started) / 1000,
  };
}

/** True when `dir` holds a checkpoint with training state. */
export function hasTrainingState(dir: string): boolean {
  return [CHECKPOINT_FILES.model, CHECKPOINT_FILES.optimizer, CHECKPOINT_FILES.trainerState].every((f) =>
    existsSync(join(dir, f)),
  );
}

/**
 * Loads model, tokenizer and optimizer to continue a run; rejects settings in `current` that differ from the
 * recorded ones (use the RunOptions names: batchSize, lr, seed, …, plus what was passed as `record`).
 */
export function resumeRun(
  dir: string,
  current: Record<string, string | number | boolean | undefined>,
): { model: Llama; tokenizer: Tokenizer; optimizer: AdamW } {
  const ckpt = loadCheckpoint(dir);
  if (!ckpt.tokenizer)
    throw new ToolgenError("invalid_input", `checkpoint ${dir}: tokenizer.json is missing; cannot resume`);
  const { optimizer, state } = loadTrainingState(ckpt);
  for (const [k, now] of Object.entries(current)) {
    const saved = state.options[k];
    if (saved !== undefined && now !== undefined && saved !== now) {
      throw new ToolgenError(
        "invalid_input",
        `cannot resume ${dir}: ${k} was ${String(saved)}, now ${String(now)}; use the same value`,
      );
    }
  }
  return { model: ckpt.model, tokenizer: ckpt.tokenizer, optimizer };
}
