import type { Batch, Llama } from "../llama.ts";
import type { ParamSet } from "../params.ts";
import {
  ADAMW_DEFAULTS,
  AdamW,
  accumulateAverage,
  gradNormScale,
  cosineLr,
  type AdamWOptions,
} from "./adamw.ts";
import { Rng } from "../rng.ts";
import {
  dropTokens,
  mixSeed,
  packBatch,
  packedBatch,
  padBatch,
  samplesForStep,
  thinUserLoss,
  type BatchExtras,
  type Sample,
} from "./batches.ts";
import { sampleUserCandidates } from "./sampled-user-loss.ts";
import { ToolgenError } from "../../errors.ts";
import { kernels } from "../kernels/index.ts";
import { checkSoftTarget } from "../layers/soft-cross-entropy.ts";

/**
 * Chat-style samples (loss mask) or one token stream (packed windows, plain text). Samples are packed into one
 * row per batch with attention kept inside each sample (`packBatch`), unless `pack` is false: then each sample
 * gets its own row, padded with `padId` (the same loss and gradients, computed over the padding too).
 */
export type TrainData =
  | { kind: "samples"; samples: Sample[]; padId: number; seqLen?: number; pack?: boolean }
  | { kind: "stream"; tokens: Int32Array; seqLen: number };

export interface StepInfo {
  step: number; // 1-based number of the update just made
  steps: number;
  loss: number;
  lr: number;
  gradNorm: number;
  tokens: number; // tokens processed in this step (rows × length over its micro-batches, padding included)
  realTokens: number; // the samples' own tokens in this step (no padding; equal to `tokens` when packed)
  tokensPerSecond: number; // over the run so far
}

export interface TrainOptions {
  steps: number;
  batchSize: number;
  lr: number;
  seed: number;
  warmupFraction?: number;
  minLrRatio?: number;
  /** Micro-batches of `batchSize` per optimizer step (default 1): a larger batch in the same memory. */
  gradientAccumulation?: number;
  /** Maximum global gradient norm (0 disables clipping). Default 1. */
  clip?: number;
  adamw?: Partial<AdamWOptions>;
  /** Probability of removing each droppable token of a sample (token dropout, `Sample.droppable`). Default 0. */
  tokenDropout?: number;
  /**
   * User-loss thinning (`thinUserLoss`): the fraction of the loss positions on droppable tokens (the user's words)
   * kept as targets in each batch, a fresh seeded draw per batch; in (0, 1], default 1 (all). The LM head runs on
   * the target rows only, so this cuts its cost where the user's words are in the loss.
   */
  userLossFraction?: number;
  /** With `userLossFraction`: each kept word's loss weighs 1 / fraction (`thinUserLoss`'s `reweight`). */
  userLossReweight?: boolean;
  /**
   * The sampled user loss (`sampleUserCandidates`): the rows predicting droppable tokens (the user's words) take
   * a softmax over the batch's targets and this many more vocabulary ids drawn uniformly per batch (seeded by the
   * batch), log-corrected, instead of the whole vocabulary; the other rows keep the full softmax. A positive
   * integer; absent: the full softmax everywhere. Not with a `userLossFraction` below 1.
   */
  userLossSamples?: number;
  /**
   * Tail weight averaging: the weights returned are the mean of the weights after each of the last
   * `averageLast · steps` updates (a fraction in [0, 1); 0 or absent: the last weights). One run's late weights
   * disagree the way separately trained models do, and their mean generalises better than any one of them.
   */
  averageLast?: number;
  /** Resume: an optimizer restored from a checkpoint; training continues at its step. */
  optimizer?: AdamW;
  onStep?: (info: StepInfo, optimizer: AdamW) => void | Promise<void>;
  signal?: AbortSignal;
}

export interface TrainResult {
  optimizer: AdamW;
  losses: number[];
  stoppedEarly: boolean;
}

/**
 * The training loop: for each step, a batch that depends only on (seed, step), forward + backward, gradient
 * clipping, a cosine learning rate with linear warm-up, an AdamW update. The same seed gives the same
 * weights, and a run resumed from a checkpoint continues exactly where it stopped.
 */
export async function train(model: Llama, data: TrainData, o: TrainOptions): Promise<TrainResult> {
  if (!(Number.isInteger(o.steps) && o.steps > 0))
    throw new ToolgenError("invalid_option", `steps must be a positive integer, got ${o.steps}`);
  if (!(Number.isInteger(o.batchSize) && o.batchSize > 0)) {
    throw new ToolgenError("invalid_option", `batchSize must be a positive integer, got ${o.batchSize}`);
  }
  if (!(o.lr > 0)) throw new ToolgenError("invalid_option", `lr must be positive, got ${o.lr}`);
  const optimizer = o.optimizer ?? new AdamW(model.params, { ...ADAMW_DEFAULTS, ...o.adamw });
  if (optimizer.params !== model.params)
    throw new ToolgenError("invalid_option", "the optimizer belongs to another model's parameters");
  const grads: ParamSet = model.params.like();
  const seqLen = sequenceLength(model, data);
  const accumulation = o.gradientAccumulation ?? 1;
  if (!(Number.isInteger(accumulation) && accumulation > 0)) {
    throw new ToolgenError(
      "invalid_option",
      `gradientAccumulation must be a positive integer, got ${accumulation}`,
    );
  }
  const dropout = o.tokenDropout ?? 0;
  if (!(dropout >= 0 && dropout < 1))
    throw new ToolgenError("invalid_option", `tokenDropout must be in [0, 1), got ${dropout}`);
  const userLossFraction = o.userLossFraction ?? 1;
  if (!(userLossFraction > 0 && userLossFraction <= 1))
    throw new ToolgenError("invalid_option", `userLossFraction must be in (0, 1], got ${userLossFraction}`);
  const userLossSamples = o.userLossSamples;
  if (userLossSamples !== undefined) {
    if (!(Number.isInteger(userLossSamples) && userLossSamples > 0))
      throw new ToolgenError(
        "invalid_option",
        `userLossSamples must be a positive integer, got ${userLossSamples}`,
      );
    if (userLossFraction < 1)
      throw new ToolgenError(
        "invalid_option",
        "userLossSamples and a userLossFraction below 1 do not combine",
      );
  }
  const averageLast = o.averageLast ?? 0;
  if (!(averageLast >= 0 && averageLast < 1))
    throw new ToolgenError("invalid_option", `averageLast must be in [0, 1), got ${averageLast}`);
  // Updates after this one (1-based) are averaged; none when averageLast is 0.
  const averageAfter = o.steps - Math.round(averageLast * o.steps);
  if (data.kind === "samples") checkSamples(data.samples, seqLen, model.config.vocabSize);
  const losses: number[] = [];
  const started = performance.now();
  let tokensSeen = 0;
  try {
    return await loop();
  } finally {
    grads.dispose();
  }

  /**
   * The samples of data batch `index`, token dropout and user-loss thinning applied (each seeded by the batch,
   * so resuming stays exact; thinning has its own stream, so the dropout's draws are the same with it or without).
   */
  function augmented(samples: Sample[], index: number): Sample[] {
    let batch = samplesForStep(samples, index, o.batchSize, o.seed);
    if (dropout > 0) {
      const rng = new Rng(mixSeed(o.seed, index, 3));
      batch = batch.map((s) => dropTokens(s, dropout, rng));
    }
    if (userLossFraction < 1) {
      const rng = new Rng(mixSeed(o.seed, index, 4));
      batch = batch.map((s) => thinUserLoss(s, userLossFraction, rng, o.userLossReweight ?? false));
    }
    return batch;
  }

  /** Data batch `index` and the samples' own tokens in it. */
  function dataBatch(index: number): { index: number; batch: Batch; realTokens: number } {
    if (data.kind === "stream") {
      const batch = packedBatch(data.tokens, o.batchSize, seqLen, o.seed, index);
      return { index, batch, realTokens: batch.B * batch.T };
    }
    const samples = augmented(data.samples, index);
    const extras = { userRows: userLossSamples !== undefined };
    let batch =
      data.pack === false
        ? paddedSamples(samples, seqLen, data.padId, extras)
        : packBatch(samples, seqLen, extras);
    // the candidates have their own stream, so the dropout's and the thinning's draws are the same with them
    if (userLossSamples !== undefined)
      batch = sampleUserCandidates(
        batch,
        userLossSamples,
        new Rng(mixSeed(o.seed, index, 5)),
        model.config.vocabSize,
      );
    let realTokens = 0;
    for (const s of samples) realTokens += Math.min(s.ids.length, seqLen);
    return { index, batch, realTokens };
  }

  async function loop(): Promise<TrainResult> {
    // the batch built during the previous update (undefined at the start and after a resume)
    let next: ReturnType<typeof dataBatch> | undefined;
    // whether every gradient is 0 (a new set, or after an update that cleared them as it read them): then the
    // first micro-batch adds into them, the same bits as overwriting, and nothing clears them first (issue 40)
    let gradsZero = true;
    while (optimizer.step < o.steps) {
      await new Promise<void>((resolve) => setImmediate(resolve)); // let signals (Ctrl-C) and I/O run between steps
      if (o.signal?.aborted) return { optimizer, losses, stoppedEarly: true };
      const step = optimizer.step;
      // micro-batch i of step s is data batch s·A + i: the order does not depend on how steps are split
      let loss = 0;
      let tokens = 0;
      let realTokens = 0;
      for (let micro = 0; micro < accumulation; micro++) {
        const index = step * accumulation + micro;
        const made = next?.index === index ? next : dataBatch(index);
        next = undefined;
        const batch = made.batch;
        realTokens += made.realTokens;
        const accumulate = micro > 0 || gradsZero;
        const r = model.forwardBackward(batch, grads, { accumulate, lossScale: 1 / accumulation });
        gradsZero = false;
        loss += r.loss / accumulation;
        tokens += batch.B * batch.T;
      }
      if (!Number.isFinite(loss))
        throw new ToolgenError(
          "model_failure",
          `loss became ${loss} at step ${step + 1}; lower the learning rate`,
        );
      // clipping is applied inside the update (AdamW.update's gradScale): the same bits as clipping first
      const { norm: gradNorm, scale } = gradNormScale(grads, o.clip ?? 1);
      const lr = cosineLr(step, o.steps, o.lr, o.warmupFraction ?? 0.03, o.minLrRatio ?? 0.1);
      // The next step's first batch is built while the kernel threads run the update (the same batch: it
      // depends on its index alone); the update is the step's longest job after the matrix products.
      const update = () => optimizer.update(grads, lr, scale, true);
      const nextIndex = (step + 1) * accumulation;
      const prepare = () => {
        if (step + 1 < o.steps) next = dataBatch(nextIndex);
      };
      const k = kernels();
      if (k.alongside) k.alongside(update, prepare);
      else {
        update();
        prepare();
      }
      gradsZero = true;
      if (optimizer.step > averageAfter) accumulateAverage(optimizer);
      losses.push(loss);
      tokensSeen += tokens;
      const seconds = (performance.now() - started) / 1000;
      await o.onStep?.(
        {
          step: optimizer.step,
          steps: o.steps,
          loss,
          lr,
          gradNorm,
          tokens,
          realTokens,
          tokensPerSecond: tokensSeen / Math.max(seconds, 1e-9),
        },
        optimizer,
      );
    }
    if (optimizer.average) model.params.flat.set(optimizer.average.flat);
    return { optimizer, losses, stoppedEarly: false };
  }
}

/**
 * Pads a batch of samples to its longest sample rounded up to a multiple of 32 (capped at `cap`), so short
 * samples (a query and one tool token) do not pay for long ones (a tool document) in other batches, while
 * the model sees only a few distinct shapes and reuses their buffers.
 */
function paddedSamples(samples: Sample[], cap: number, padId: number, extras: BatchExtras): Batch {
  const longest = samples.reduce((m, s) => Math.max(m, s.ids.length), 1);
  return padBatch(samples, Math.min(cap, Math.ceil(longest / 32) * 32), padId, extras);
}

/** Rejects, before training starts, samples that would give an empty loss or an unknown token. */
function checkSamples(samples: Sample[], seqLen: number, vocabSize: number): void {
  if (samples.length === 0) throw new ToolgenError("invalid_option", "no training samples");
  samples.forEach((s, i) => {
    const bad = s.ids.find((id) => !(Number.isInteger(id) && id >= 0 && id < vocabSize));
    if (bad !== undefined)
      throw new ToolgenError(
        "invalid_input",
        `sample ${i}: token id ${bad} outside the vocabulary (size ${vocabSize})`,
      );
    if (s.lossMask && s.lossMask.length !== s.ids.length) {
      throw new ToolgenError(
        "invalid_input",
        `sample ${i}: lossMask length ${s.lossMask.length} differs from ids length ${s.ids.length}`,
      );
    }
    if (s.soft) {
      const why =
        checkSoftTarget(s.soft, vocabSize) ??
        (Number.isInteger(s.soft.at) && s.soft.at >= 1 && s.soft.at < s.ids.length
          ? undefined
          : `soft target at ${s.soft.at} outside the sample (${s.ids.length} tokens)`);
      if (why) throw new ToolgenError("invalid_input", `sample ${i}: ${why}`);
    }
    let targets = 0;
    for (let t = 1; t < Math.min(s.ids.length, seqLen + 1); t++) if (!s.lossMask || s.lossMask[t]) targets++;
    if (targets === 0) {
      throw new ToolgenError(
        "invalid_input",
        `sample ${i} has no token to predict within ${seqLen} tokens (empty loss mask, or too short)`,
      );
    }
  });
}

/** The longest row: for samples, the longest sample capped by the context (batches may be shorter). */
function sequenceLength(model: Llama, data: TrainData): number {
  const ctx = model.config.maxPositions;
  if (data.kind === "stream") return Math.min(data.seqLen, ctx);
  const longest = data.samples.reduce((m, s) => Math.max(m, s.ids.length), 0);
  return Math.max(1, Math.min(data.seqLen ?? ctx, ctx, longest));
}
