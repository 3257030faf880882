import type { Batch } from "../llama.ts";
import type { SoftTarget } from "../layers/soft-cross-entropy.ts";
import { Rng } from "../rng.ts";
import { ToolgenError } from "../../errors.ts";

/**
 * A training sample: token ids and an optional loss mask (true where the token is to be predicted, e.g. the
 * assistant span of a chat sample). Without a mask every token after the first is predicted.
 */
export interface Sample {
  ids: number[];
  lossMask?: ArrayLike<boolean | number>;
  /** True where token dropout may remove the token (a user's words; never specials or trained tokens). */
  droppable?: ArrayLike<boolean | number>;
  /** A distribution to learn at one predicted token beside the token itself (distillation; none: the token). */
  soft?: SoftTarget;
  /** The weight of each token's loss where it is a target (absent: 1; `Batch.weights`). */
  lossWeight?: ArrayLike<number>;
}

/** The batch's loss weights per flat row, when a sample has any (row `at` predicts sample token `next`). */
function placeWeight(weights: Float32Array | undefined, s: Sample, at: number, next: number): void {
  if (weights && s.lossWeight) weights[at] = s.lossWeight[next]!;
}

/** Marks flat row `at` as predicting one of the user's words (sample token `next` droppable), when asked to. */
function placeUser(userRows: Uint8Array | undefined, s: Sample, at: number, next: number): void {
  if (userRows && s.droppable?.[next]) userRows[at] = 1;
}

/** What a batch builder adds beside the tokens and targets. */
export interface BatchExtras {
  /** Mark the rows whose target is one of the user's words (`Batch.userRows`: the sampled user loss). */
  userRows?: boolean;
}

/** Records a sample's soft target at flat position `row` (the one predicting ids[at]) if that row has a target. */
function placeSoft(soft: Map<number, SoftTarget>, s: Sample, row: number, targets: Int32Array): void {
  if (s.soft && s.soft.at >= 1 && targets[row]! >= 0) soft.set(row, s.soft);
}

/** A deterministic seed for (seed, a, b): data order depends only on these, which makes resuming exact. */
export function mixSeed(seed: number, a: number, b = 0): number {
  let h = (seed ^ 0x2545f491) >>> 0;
  for (const v of [a, b]) {
    h = Math.imul(h ^ (v >>> 0), 0x9e3779b1) >>> 0;
    h = (h ^ (h >>> 15)) >>> 0;
  }
  return h;
}

/**
 * Padded batch: one sample per row, right-padded to T with `padId`. Position t predicts ids[t+1] where the
 * mask allows; padding and masked positions get target −1. Samples longer than T are truncated.
 */
export function padBatch(samples: Sample[], T: number, padId: number, extras: BatchExtras = {}): Batch {
  const B = samples.length;
  const tokens = new Int32Array(B * T).fill(padId);
  const targets = new Int32Array(B * T).fill(-1);
  const positions = new Int32Array(B * T);
  const soft = new Map<number, SoftTarget>();
  const weights = samples.some((s) => s.lossWeight) ? new Float32Array(B * T).fill(1) : undefined;
  const userRows = extras.userRows ? new Uint8Array(B * T) : undefined;
  samples.forEach((s, b) => {
    if (s.lossMask && s.lossMask.length !== s.ids.length) {
      throw new ToolgenError(
        "invalid_input",
        `sample ${b}: lossMask length ${s.lossMask.length} differs from ids length ${s.ids.length}`,
      );
    }
    const n = Math.min(s.ids.length, T);
    for (let t = 0; t < T; t++) positions[b * T + t] = t;
    for (let t = 0; t < n; t++) {
      tokens[b * T + t] = s.ids[t];
      const next = t + 1;
      if (next < Math.min(s.ids.length, T + 1) && (!s.lossMask || s.lossMask[next])) {
        targets[b * T + t] = s.ids[next];
        placeWeight(weights, s, b * T + t, next);
        placeUser(userRows, s, b * T + t, next);
      }
    }
    if (s.soft && s.soft.at - 1 < n) placeSoft(soft, s, b * T + s.soft.at - 1, targets);
  });
  return {
    B,
    T,
    tokens,
    targets,
    positions,
    ...(soft.size > 0 ? { soft } : {}),
    ...(weights ? { weights } : {}),
    ...(userRows ? { userRows } : {}),
  };
}

/**
 * Packed batch of chat samples: all samples back to back in one row, no padding. Positions restart at each
 * sample and `spans` keeps attention inside each one (block-diagonal causal mask), so every sample computes
 * exactly what it would alone; position t predicts ids[t+1] of the same sample where the mask allows (the
 * last token of a sample predicts nothing). Samples longer than `maxLength` are truncated like padBatch's.
 */
export function packBatch(samples: Sample[], maxLength: number, extras: BatchExtras = {}): Batch {
  const lengths = samples.map((s, b) => {
    if (s.lossMask && s.lossMask.length !== s.ids.length) {
      throw new ToolgenError(
        "invalid_input",
        `sample ${b}: lossMask length ${s.lossMask.length} differs from ids length ${s.ids.length}`,
      );
    }
    return Math.min(s.ids.length, maxLength);
  });
  const T = lengths.reduce((a, n) => a + n, 0);
  if (T === 0) throw new Error("packBatch: no tokens to pack");
  const tokens = new Int32Array(T);
  const targets = new Int32Array(T).fill(-1);
  const positions = new Int32Array(T);
  const spans: number[] = [];
  const soft = new Map<number, SoftTarget>();
  const weights = samples.some((s) => s.lossWeight) ? new Float32Array(T).fill(1) : undefined;
  const userRows = extras.userRows ? new Uint8Array(T) : undefined;
  let o = 0;
  samples.forEach((s, b) => {
    const n = lengths[b]!;
    if (n === 0) return;
    spans.push(o, n);
    for (let t = 0; t < n; t++) {
      tokens[o + t] = s.ids[t]!;
      positions[o + t] = t;
      const next = t + 1;
      if (next < Math.min(s.ids.length, maxLength + 1) && (!s.lossMask || s.lossMask[next])) {
        targets[o + t] = s.ids[next]!;
        placeWeight(weights, s, o + t, next);
        placeUser(userRows, s, o + t, next);
      }
    }
    if (s.soft && s.soft.at - 1 < n) placeSoft(soft, s, o + s.soft.at - 1, targets);
    o += n;
  });
  return {
    B: 1,
    T,
    tokens,
    targets,
    positions,
    spans: Int32Array.from(spans),
    ...(soft.size > 0 ? { soft } : {}),
    ...(weights ? { weights } : {}),
    ...(userRows ? { userRows } : {}),
  };
}

/**
 * The last epoch order drawn for each sample list: a step draws from the same shuffle as the steps before it,
 * and shuffling 16k samples took ~3 ms, repeated at every step (issue 40: serial time of a training step).
 */
const epochOrders = new WeakMap<Sample[], { n: number; seed: number; epoch: number; perm: number[] }>();

/** The seeded order of `samples` in epoch `epoch` (a permutation of 0..n−1). */
function epochOrder(samples: Sample[], seed: number, epoch: number): number[] {
  const n = samples.length;
  const last = epochOrders.get(samples);
  if (last && last.n === n && last.seed === seed && last.epoch === epoch) return last.perm;
  const perm = new Rng(mixSeed(seed, epoch, 1)).shuffle([...Array(n).keys()]);
  epochOrders.set(samples, { n, seed, epoch, perm });
  return perm;
}

/** The samples of step `step` in a sequence of seeded per-epoch shuffles (every sample once per epoch). */
export function samplesForStep(samples: Sample[], step: number, batchSize: number, seed: number): Sample[] {
  const n = samples.length;
  if (n === 0) throw new ToolgenError("invalid_input", "no training samples");
  const out: Sample[] = [];
  for (let j = 0; j < batchSize; j++) {
    const i = step * batchSize + j;
    out.push(samples[epochOrder(samples, seed, Math.floor(i / n))[i % n]!]!);
  }
  return out;
}

/**
 * Packed batch from one token stream (plain text): each row is a window of T+1 consecutive tokens at a
 * seeded offset, every position predicts the next token. Documents separated by EOS attend across the
 * boundary, as in GPT pre-training.
 */
export function packedBatch(stream: Int32Array, B: number, T: number, seed: number, step: number): Batch {
  if (stream.length < 2)
    throw new ToolgenError("invalid_input", "the token stream needs at least 2 tokens to train on");
  const Tw = Math.min(T, stream.length - 1);
  const rng = new Rng(mixSeed(seed, step, 2));
  const tokens = new Int32Array(B * Tw);
  const targets = new Int32Array(B * Tw);
  const positions = new Int32Array(B * Tw);
  for (let b = 0; b < B; b++) {
    const start = rng.int(stream.length - Tw);
    for (let t = 0; t < Tw; t++) {
      tokens[b * Tw + t] = stream[start + t];
      targets[b * Tw + t] = stream[start + t + 1];
      positions[b * Tw + t] = t;
    }
  }
  return { B, T: Tw, tokens, targets, positions };
}

/**
 * Token dropout (word dropout over sub-words): each droppable token is removed with probability `p`, at least
 * one droppable token is kept. A regulariser for small supervised sets (a query → its tool): the model sees a
 * slightly different query every epoch instead of memorising each one. Removing (rather than masking) keeps
 * every input a sequence the model could meet at inference.
 */
export function dropTokens(sample: Sample, p: number, rng: Rng): Sample {
  const { ids, lossMask, droppable } = sample;
  if (!droppable || p <= 0) return sample;
  if (droppable.length !== ids.length)
    throw new ToolgenError(
      "invalid_input",
      `droppable length ${droppable.length} differs from ids length ${ids.length}`,
    );
  const keep: boolean[] = ids.map((_, i) => !droppable[i] || rng.next() >= p);
  if (!ids.some((_, i) => droppable[i] && keep[i])) {
    const candidates = ids.flatMap((_, i) => (droppable[i] ? [i] : []));
    if (candidates.length > 0) keep[candidates[rng.int(candidates.length)]!] = true;
  }
  const out: Sample = { ids: ids.filter((_, i) => keep[i]) };
  if (lossMask) out.lossMask = Array.from(lossMask).filter((_, i) => keep[i]);
  // what is left of the user's words stays marked (thinUserLoss reads it after the dropout)
  out.droppable = Array.from(droppable).filter((_, i) => keep[i]);
  // The soft target follows its token to where the removals before it leave it.
  const soft = sample.soft;
  if (soft && keep[soft.at]) out.soft = { ...soft, at: keep.slice(0, soft.at).filter(Boolean).length };
  return out;
}

/**
 * User-loss thinning: each loss position on a droppable token (the user's words, which a user loss puts in the
 * loss) stays a target with probability `fraction` and is an input only otherwise; the other targets (the tool
 * token, the reply) always stay. The LM head runs on the target rows alone (Llama.run), so a query's head rows
 * cost about `fraction` of what they cost in full. A sample whose targets would all go keeps one of them.
 * `reweight`: each kept word's loss weighs 1 / fraction, so the user's words keep, in expectation, the share of
 * the loss they have in full (without it the tool token's share grows as the words thin out).
 */
export function thinUserLoss(sample: Sample, fraction: number, rng: Rng, reweight = false): Sample {
  const { ids, lossMask, droppable } = sample;
  if (!lossMask || !droppable || fraction >= 1) return sample;
  if (droppable.length !== ids.length || lossMask.length !== ids.length)
    throw new ToolgenError(
      "invalid_input",
      `droppable (${droppable.length}) and lossMask (${lossMask.length}) must match ids (${ids.length})`,
    );
  const mask = Array.from(lossMask, (m) => (m ? 1 : 0));
  const thinned: number[] = [];
  for (let i = 0; i < mask.length; i++)
    if (mask[i] && droppable[i] && rng.next() >= fraction) {
      mask[i] = 0;
      thinned.push(i);
    }
  if (thinned.length > 0 && !mask.some(Boolean)) mask[thinned[rng.int(thinned.length)]!] = 1;
  if (!reweight) return { ...sample, lossMask: mask };
  const lossWeight = mask.map((m, i) => (m && droppable[i] ? 1 / fraction : 1));
  return { ...sample, lossMask: mask, lossWeight };
}
