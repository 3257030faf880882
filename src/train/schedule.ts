import type { Stage } from "./datasets.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Training schedules per preset, scaled from the paper's (Llama-3-8B: 8 epochs of memorisation, 1 of retrieval,
 * lr 4e-5 cosine, 3 % warm-up). A tiny model trained from scratch has no pretraining to lean on, so it gets a
 * larger learning rate, more memorization epochs (8 left its loss at 3.6 on MetaTool's 199 tools, 32 at 2.1) and
 * 16 retrieval epochs with token dropout 0.3 over the query, which is what `bench:toolgen` measured best on
 * MetaTool (without dropout the model memorises the training queries: loss 0.06, dev NDCG@1 63 at d64; see
 * bench/toolgen/README.md). Memorization also trains on predicting the tool document itself (`userLoss`): with
 * the loss on the tool token alone, 32 epochs over 200 StableToolBench APIs brought back the right tool for its
 * own document 56.5 % of the time (lr 2e-3; 57 % at 5e-3, 37 % at 1e-2); with the document's words in the loss,
 * 94 % (lr 2e-3), at 1.8× the time per step. Retrieval trains on predicting the query's words as well: on the
 * MetaTool dev split that took NDCG@1 from 68.78 to 76.18 (both with the memorization user loss; 65.24 with
 * neither). Contents are cut to fit the short context. The BPE vocabulary is 8,192 tokens: on the MetaTool dev
 * split 2,048 gave NDCG@1 76.18, 8,192 78.56, 16,384 76.79, and 8,192 with 24 retrieval epochs 77.70
 * (bench/results/toolgen.json; a larger vocabulary also shortens the queries, so training took 25 min instead
 * of 34). The retrieval stage keeps the mean of its weights over its last quarter of updates (`averageLast`): dev
 * NDCG@1 79.72, against 78.56 for the last weights and 79.41 averaging the last half. A d192 × 4 model with the
 * same schedule scored 77.34. The small preset is not re-tuned yet.
 */
export interface StageSchedule {
  epochs: number;
  lr: number;
  /** Token dropout over the user's words (probability per token; 0 or absent: none). */
  tokenDropout?: number;
  /**
   * Train on predicting the user's words too, not only the assistant's (the tool document in memorization, the
   * query in retrieval). Without it a memorization sample carries one tool token of loss, and a tiny model
   * learns nothing from it; see the preset comment above.
   */
  userLoss?: boolean;
  /**
   * With `userLoss`: the fraction of the user's words that are targets in each batch (a fresh seeded draw per
   * batch; the rest are inputs only), in (0, 1]; absent or 1: all of them. The LM head runs on the target rows
   * alone, and a retrieval batch of 32 queries has ~610 of them with the user loss against 64 without, which made
   * a step 1.6× dearer (issue 40); a fraction of 0.25 leaves ~200 and makes a step 0.72× as dear. Not in a preset:
   * at 4 retrieval epochs on MetaTool dev it scored NDCG@1 57.06 against 64.20 for the full user loss
   * (bench/results/history/engine-drift-pair-user-loss-thinning-2026-12-06.json).
   */
  userLossFraction?: number;
  /**
   * With a `userLossFraction` below 1: each kept word's loss weighs 1 / fraction, so the user's words keep, in
   * expectation, the share of the loss they have in full (unweighted, the tool token's share grows from ~10 % to
   * ~30 % at 0.25). Measured worse still: 21.01 dev NDCG@1 at 4 epochs and 0.25 (the same record).
   */
  userLossReweight?: boolean;
  /**
   * With `userLoss`: the user's words take a sampled softmax (`nn/train/sampled-user-loss.ts`) over the batch's
   * own targets and this many more vocabulary ids drawn uniformly per batch (seeded by it), log-corrected, instead
   * of the whole vocabulary; the tool token's rows (the retrieval loss proper) keep the full softmax. Every word
   * keeps its signal, and the LM head's cost for the ~550 user rows of a retrieval batch falls from 8,392 to
   * ~(targets + this) columns. A positive integer; absent: the full softmax. Not with a `userLossFraction` below 1.
   * Not in a preset: with 512, a step cost 0.667× the full user loss's (2 threads, side by side), but at 4 retrieval
   * epochs on MetaTool dev it scored NDCG@1 61.58 / 60.11 on two seeds against 64.20 / 63.65 in full
   * (bench/results/history/engine-drift-pair-sampled-user-loss-2026-12-06.json).
   */
  userLossSamples?: number;
  /**
   * Tail weight averaging: the stage's weights are the mean of those after each of its last `averageLast ·
   * steps` updates (a fraction in [0, 1); 0 or absent: the last weights).
   */
  averageLast?: number;
}

export interface Schedule {
  /** BPE vocabulary learned from the catalog and queries (special tokens and bytes included). */
  tokenizerVocab: number;
  /**
   * Keep every digit its own token (no BPE merge involves a digit). For models that copy numbers into
   * arguments: each number is then spelled the same way wherever it appears (the demo model; absent: off).
   */
  splitDigits?: boolean;
  batchSize: number;
  warmupFraction: number;
  /** User and tool contents longer than this are cut (assistant turns never are). */
  maxContentTokens: number;
  stages: Record<Stage, StageSchedule>;
}

export const SCHEDULES: Record<"tiny" | "small", Schedule> = {
  tiny: {
    tokenizerVocab: 8192,
    batchSize: 32,
    warmupFraction: 0.03,
    maxContentTokens: 96,
    stages: {
      memorization: { epochs: 32, lr: 2e-3, userLoss: true },
      retrieval: { epochs: 16, lr: 3e-3, tokenDropout: 0.3, userLoss: true, averageLast: 0.25 },
      agent: { epochs: 2, lr: 1e-3 },
    },
  },
  small: {
    tokenizerVocab: 4096,
    batchSize: 32,
    warmupFraction: 0.03,
    maxContentTokens: 192,
    stages: {
      memorization: { epochs: 8, lr: 1e-3 },
      retrieval: { epochs: 3, lr: 1e-3 },
      agent: { epochs: 2, lr: 5e-4 },
    },
  },
};

export function scheduleFor(preset: string): Schedule {
  const s = SCHEDULES[preset as keyof typeof SCHEDULES];
  if (!s)
    throw new ToolgenError(
      "invalid_option",
      `unknown preset "${preset}"; accepted: ${Object.keys(SCHEDULES).join(", ")}`,
    );
  return s;
}
