import type { Stage } from "./datasets.ts";

/**
 * Training schedules per preset, scaled from the paper's (Llama-3-8B: 8 epochs of memorisation, 1 of retrieval,
 * lr 4e-5 cosine, 3 % warm-up). A tiny model trained from scratch has no pretraining to lean on, so it gets a
 * larger learning rate and a few retrieval epochs instead of one; contents are cut to fit its short context.
 */
export interface StageSchedule {
  epochs: number;
  lr: number;
  /** Token dropout over the user's words (probability per token; 0 or absent: none). */
  tokenDropout?: number;
}

export interface Schedule {
  /** BPE vocabulary learned from the catalog and queries (special tokens and bytes included). */
  tokenizerVocab: number;
  batchSize: number;
  warmupFraction: number;
  /** User and tool contents longer than this are cut (assistant turns never are). */
  maxContentTokens: number;
  stages: Record<Stage, StageSchedule>;
}

export const SCHEDULES: Record<"tiny" | "small", Schedule> = {
  tiny: {
    tokenizerVocab: 2048,
    batchSize: 32,
    warmupFraction: 0.03,
    maxContentTokens: 96,
    stages: {
      memorization: { epochs: 8, lr: 2e-3 },
      retrieval: { epochs: 3, lr: 2e-3 },
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
  if (!s) throw new Error(`unknown preset "${preset}"; accepted: ${Object.keys(SCHEDULES).join(", ")}`);
  return s;
}
