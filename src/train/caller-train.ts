import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadCheckpoint, saveCheckpoint } from "../nn/checkpoint.ts";
import { resizeVocab } from "../nn/resize.ts";
import { validateConfig, type LlamaConfig } from "../nn/config.ts";
import { Llama } from "../nn/llama.ts";
import { initParams } from "../nn/params.ts";
import { Tokenizer } from "../nn/tokenizer/index.ts";
import { train } from "../nn/train/trainer.ts";
import { Rng } from "../nn/rng.ts";
import { CALLER_MANIFEST, type CallerManifest } from "../models/caller-chat.ts";
import {
  CALLER_END,
  CALLER_PAD,
  CALLER_SPECIALS,
  DEFAULT_PROMPT_LIMITS,
  type CallerPromptLimits,
} from "../models/caller-prompt.ts";
import { writeJsonAtomic } from "./model-folder-write.ts";
import { callerSample, exampleTexts, type CallerExample } from "./caller-data.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The function caller's model (the committed one: 627k weights, 2.5 MB): small enough that a from-scratch
 * training fits about 15 minutes on two cores; the context holds a prompt with several functions (RoPE: the
 * positions cost no weights). Other sizes: `scripts/build-caller.ts --hidden N --layers N`.
 */
export const CALLER_CONFIG: Omit<LlamaConfig, "vocabSize"> = {
  hiddenSize: 96,
  intermediateSize: 256,
  numLayers: 3,
  numHeads: 4,
  maxPositions: 2048,
  rmsNormEps: 1e-5,
  ropeTheta: 10000,
  tieWordEmbeddings: false,
  initStd: 0.02,
};

export interface CallerTrainOptions {
  examples: readonly CallerExample[];
  out: string;
  steps: number;
  batchSize: number;
  lr: number;
  seed: number;
  tokenizerVocab: number;
  /** Examples whose sample is longer than this many tokens are left out (attention grows with it). */
  maxTokens: number;
  config?: Partial<LlamaConfig>;
  limits?: CallerPromptLimits;
  /** Recorded in caller.json. */
  training?: Record<string, unknown>;
  /** No loss on the function-name tokens the decoder forces (caller-data.ts, callerSample). Default false. */
  skipForcedNames?: boolean;
  log?: (line: string) => void;
  /** Tokenizer training reads at most this many examples (drawn evenly). */
  tokenizerExamples?: number;
  /**
   * Stop training after this many seconds from the start (the weights so far are written, and caller.json
   * records the step reached): for a build that must fit a time slot. The run is then not reproducible bit for bit.
   */
  maxSeconds?: number;
  /**
   * Start from a trained `builtin:DIR` folder's weights and tokenizer (the caller's markers added to it) instead
   * of from scratch; `config` and `tokenizerVocab` are then the folder's.
   */
  initFrom?: string;
}

export interface CallerTrainResult {
  samples: number;
  skipped: number;
  tokens: number;
  seconds: number;
  finalLoss: number;
  /** The last step trained (below `steps` when maxSeconds stopped the run). */
  stepsDone: number;
  vocabSize: number;
  parameters: number;
}

/**
 * Trains a function caller from scratch: a byte-level BPE tokenizer (digits split, so numbers copy digit by
 * digit; any word is spelt in bytes) on the examples' prompts and replies, then next-token training on the
 * replies only (the prompt is context). Writes a `builtin:DIR` folder: the checkpoint and caller.json.
 */
export async function trainCaller(o: CallerTrainOptions): Promise<CallerTrainResult> {
  if (o.examples.length === 0) throw new ToolgenError("invalid_option", "no training examples");
  const log = o.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const limits = o.limits ?? DEFAULT_PROMPT_LIMITS;
  const started = performance.now();
  const start = o.initFrom === undefined ? fresh(o, limits) : fromFolder(o.initFrom, o.seed);
  const tokenizer = start.tokenizer;
  log(`tokenizer: ${tokenizer.vocabSize} tokens (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  const all = o.examples.map((e) =>
    callerSample(tokenizer, e, limits, { skipForcedNames: o.skipForcedNames ?? false }),
  );
  const samples = all.filter((s) => s.ids.length <= o.maxTokens);
  // a fixed shuffle: the trainer draws batches by (seed, step) from this order
  const rng = new Rng(o.seed);
  for (let i = samples.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [samples[i], samples[j]] = [samples[j]!, samples[i]!];
  }
  const tokens = samples.reduce((n, s) => n + s.ids.length, 0);
  log(
    `samples: ${samples.length} (${all.length - samples.length} over ${o.maxTokens} tokens left out), ${tokens} tokens, mean ${(tokens / samples.length).toFixed(0)}`,
  );
  const model = start.model;
  const padId = tokenizer.tokenToId(CALLER_PAD)!;
  let lastLoss = NaN;
  let stepsDone = 0;
  const stop = new AbortController();
  const timer =
    o.maxSeconds === undefined
      ? undefined
      : setTimeout(() => stop.abort(), Math.max(0, o.maxSeconds * 1000 - (performance.now() - started)));
  let window = 0;
  let windowLoss = 0;
  const result = await train(
    model,
    { kind: "samples", samples, padId, seqLen: o.maxTokens, pack: true },
    {
      steps: o.steps,
      batchSize: o.batchSize,
      lr: o.lr,
      seed: o.seed,
      signal: stop.signal,
      onStep: (info) => {
        stepsDone = info.step;
        windowLoss += info.loss;
        window++;
        if (info.step % 50 === 0 || info.step === info.steps) {
          lastLoss = windowLoss / window;
          log(
            `step ${info.step}/${info.steps} loss ${lastLoss.toFixed(4)} lr ${info.lr.toExponential(2)} ` +
              `${info.tokensPerSecond.toFixed(0)} tok/s ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
          window = 0;
          windowLoss = 0;
        }
      },
    },
  );
  clearTimeout(timer);
  if (result.stoppedEarly)
    log(`stopped by the time limit (${o.maxSeconds} s) after step ${stepsDone}/${o.steps}`);
  if (window > 0) lastLoss = windowLoss / window;
  mkdirSync(o.out, { recursive: true });
  saveCheckpoint(o.out, model, { tokenizer });
  const seconds = Math.round((performance.now() - started) / 1000);
  const manifest: CallerManifest = {
    kind: "caller",
    version: 1,
    limits,
    training: {
      ...o.training,
      steps: o.steps,
      stepsDone,
      ...(o.maxSeconds !== undefined ? { maxSeconds: o.maxSeconds } : {}),
      ...(o.initFrom !== undefined ? { initFrom: o.initFrom } : {}),
      ...(o.skipForcedNames ? { skipForcedNames: true } : {}),
      batchSize: o.batchSize,
      lr: o.lr,
      seed: o.seed,
      model: {
        hiddenSize: model.config.hiddenSize,
        numLayers: model.config.numLayers,
        numHeads: model.config.numHeads,
        vocabSize: model.config.vocabSize,
        parameters: model.params.flat.length,
      },
      samples: samples.length,
      tokens,
      seconds,
      finalLoss: Number(lastLoss.toFixed(4)),
    },
  };
  writeJsonAtomic(join(o.out, CALLER_MANIFEST), manifest);
  return {
    samples: samples.length,
    skipped: all.length - samples.length,
    tokens,
    seconds,
    finalLoss: lastLoss,
    stepsDone,
    vocabSize: tokenizer.vocabSize,
    parameters: model.params.flat.length,
  };
}

/** A tokenizer trained on the examples and a fresh model of CALLER_CONFIG (with `o.config`'s overrides). */
function fresh(o: CallerTrainOptions, limits: CallerPromptLimits): { tokenizer: Tokenizer; model: Llama } {
  const every = Math.max(1, Math.floor(o.examples.length / (o.tokenizerExamples ?? 6000)));
  const texts = o.examples.filter((_, i) => i % every === 0).flatMap((e) => exampleTexts(e, limits));
  const tokenizer = Tokenizer.train(texts, o.tokenizerVocab, {
    specialTokens: [...CALLER_SPECIALS],
    splitDigits: true,
  });
  const config = validateConfig({
    ...CALLER_CONFIG,
    vocabSize: tokenizer.vocabSize,
    padTokenId: tokenizer.tokenToId(CALLER_PAD),
    eosTokenId: tokenizer.tokenToId(CALLER_END),
    ...o.config,
  });
  return { tokenizer, model: new Llama(config, initParams(config, o.seed)) };
}

/** A trained folder's model and tokenizer, the caller's markers added (their rows drawn small). */
function fromFolder(dir: string, seed: number): { tokenizer: Tokenizer; model: Llama } {
  const { model, tokenizer } = loadCheckpoint(dir);
  if (!tokenizer) throw new ToolgenError("invalid_input", `${dir}: tokenizer.json is missing`);
  tokenizer.addTokens([...CALLER_SPECIALS], { special: true });
  const size = Math.max(model.config.vocabSize, tokenizer.vocabSize);
  return {
    tokenizer,
    model: size === model.config.vocabSize ? model : resizeVocab(model, size, { kind: "normal", seed }),
  };
}
