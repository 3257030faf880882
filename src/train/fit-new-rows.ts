import type { Llama } from "../nn/llama.ts";
import { Rng } from "../nn/rng.ts";
import type { ChatFormat, ChatTokenizer } from "../toolgen/chat-encoding.ts";
import { answerStates } from "./answer-states.ts";
import { imprintFromStates, meanRowLength } from "./imprint.ts";

const MIN_UPDATES = 300;

/** A user turn after which the model should write `target` (a tool token id). */
export interface RowExample {
  prompt: string;
  target: number;
}

export interface FitRowsOptions {
  format: ChatFormat;
  maxContentTokens: number;
  /** The tool tokens the retriever ranks; their rows stay as they are. */
  fixedIds: readonly number[];
  /** The new tool tokens whose lm_head rows are fitted (started from their current rows). */
  newIds: readonly number[];
  /**
   * Passes over the examples (default 10, and at least 300 updates), in shuffled mini-batches of `batchSize`
   * (default 256), Adam.
   */
  epochs?: number;
  batchSize?: number;
  seed?: number;
  lr?: number;
  /** L2 penalty on the change of the new rows from where they started (default 1e-4). */
  l2?: number;
  /** Prompts per forward pass. */
  batch?: number;
  /** Start the new rows from their examples' states (imprint.ts) instead of their current rows. */
  imprint?: boolean;
}

/**
 * Fits the lm_head rows of new tool tokens with the rest of the model frozen: softmax cross-entropy over the tool
 * tokens (old and new) on the final hidden states of the examples — the new tools' documents and queries, and
 * replayed ones of old tools, which teach the new rows where not to score. The old rows and every other weight
 * are untouched, so an old tool can only lose a query to a new tool that outscores it there. A convex problem
 * on states computed once (the loss and accuracy returned are over the last pass): it costs forward passes, not
 * training steps.
 */
export function fitNewRows(
  model: Llama,
  tokenizer: ChatTokenizer,
  examples: readonly RowExample[],
  o: FitRowsOptions,
): { loss: number; accuracy: number; seconds: number } {
  const started = performance.now();
  const d = model.config.hiddenSize;
  const head = model.lmHead;
  const H = answerStates(
    model,
    tokenizer,
    examples.map((e) => e.prompt),
    o,
  );
  const N = examples.length;
  const F = o.fixedIds.length;
  const K = o.newIds.length;
  if (o.imprint) {
    // The new rows start from the states of their own examples (imprint.ts), at the old rows' length.
    const isNew = new Set(o.newIds);
    const own = examples.flatMap((e, j) => (isNew.has(e.target) ? [j] : []));
    const states = new Float32Array(own.length * d);
    own.forEach((j, k) => states.set(H.subarray(j * d, (j + 1) * d), k * d));
    const targets = own.map((j) => examples[j]!.target);
    imprintFromStates(head, d, states, targets, meanRowLength(head, d, o.fixedIds));
  }
  // Fixed logits, computed once.
  const fixed = new Float32Array(N * F);
  for (let n = 0; n < N; n++)
    for (let j = 0; j < F; j++) {
      const r = o.fixedIds[j]! * d;
      let s = 0;
      for (let i = 0; i < d; i++) s += H[n * d + i]! * head[r + i]!;
      fixed[n * F + j] = s;
    }
  const slot = new Map<number, number>(); // token id → column (fixed first, then new)
  o.fixedIds.forEach((id, j) => slot.set(id, j));
  o.newIds.forEach((id, k) => slot.set(id, F + k));
  const target = examples.map((e) => slot.get(e.target) ?? -1);
  const W = new Float32Array(K * d);
  o.newIds.forEach((id, k) => W.set(head.subarray(id * d, (id + 1) * d), k * d));
  const W0 = W.slice();
  const m = new Float32Array(K * d);
  const v = new Float32Array(K * d);
  const grad = new Float32Array(K * d);
  const logits = new Float32Array(F + K);
  const epochs = o.epochs ?? 10;
  const size = o.batchSize ?? 256;
  const lr = o.lr ?? 0.01;
  const l2 = o.l2 ?? 1e-4;
  const rng = new Rng(o.seed ?? 1);
  const order = [...Array(N).keys()];
  let loss = 0;
  let correct = 0;
  // A small set gets at least MIN_UPDATES updates (several passes fit in one mini-batch).
  const perPass = Math.ceil(N / size);
  const passes = Math.max(epochs, Math.ceil(MIN_UPDATES / perPass));
  let step = 0;
  for (let pass = 0; pass < passes; pass++) {
    for (let i = N - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    loss = 0;
    correct = 0;
    for (let start = 0; start < N; start += size) {
      const batch = order.slice(start, start + size);
      grad.fill(0);
      for (const n of batch) {
        logits.set(fixed.subarray(n * F, (n + 1) * F));
        for (let k = 0; k < K; k++) {
          let s = 0;
          for (let i = 0; i < d; i++) s += H[n * d + i]! * W[k * d + i]!;
          logits[F + k] = s;
        }
        let max = -Infinity;
        let best = 0;
        for (let j = 0; j < F + K; j++) {
          if (logits[j]! > max) {
            max = logits[j]!;
            best = j;
          }
        }
        let z = 0;
        for (let j = 0; j < F + K; j++) z += Math.exp(logits[j]! - max);
        const t = target[n]!;
        if (t >= 0) loss += -(logits[t]! - max - Math.log(z));
        if (best === t) correct++;
        for (let k = 0; k < K; k++) {
          const g = (Math.exp(logits[F + k]! - max) / z - (t === F + k ? 1 : 0)) / batch.length;
          if (g === 0) continue;
          for (let i = 0; i < d; i++) grad[k * d + i]! += g * H[n * d + i]!;
        }
      }
      // Adam on the new rows (bias-corrected), with the L2 pull toward their start.
      step++;
      const b1 = 0.9;
      const b2 = 0.999;
      for (let i = 0; i < K * d; i++) {
        const g = grad[i]! + l2 * (W[i]! - W0[i]!);
        m[i] = b1 * m[i]! + (1 - b1) * g;
        v[i] = b2 * v[i]! + (1 - b2) * g * g;
        const mh = m[i]! / (1 - b1 ** step);
        const vh = v[i]! / (1 - b2 ** step);
        W[i]! -= (lr * mh) / (Math.sqrt(vh) + 1e-8);
      }
    }
  }
  o.newIds.forEach((id, k) => head.set(W.subarray(k * d, (k + 1) * d), id * d));
  return { loss: loss / N, accuracy: correct / N, seconds: (performance.now() - started) / 1000 };
}
