import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import type { Llama } from "../../src/nn/llama.ts";
import type { TrainData, TrainOptions } from "../../src/nn/train/trainer.ts";
import { encodeChat, type ChatTokenizer } from "../../src/toolgen/chat-encoding.ts";
import type { ToolIndex } from "../../src/toolgen/ids.ts";
import type { ToolGenManifest } from "../../src/toolgen/model-folder.ts";
import { retrievalSamples } from "../../src/train/datasets.ts";
import { withUserLoss } from "../../src/train/pipeline.ts";
import { SCHEDULES } from "../../src/train/schedule.ts";

/**
 * The tiny schedule's retrieval stage as `toolgen train` runs it (its samples, step count and train options), for the
 * benches that time that stage step by step (engine-drift.ts, engine-drift-pair.ts). `userLoss` false gives the
 * cheaper step the bench's stage ran before 2026-12-06 (the LM head on the tool tokens only). `variant` changes the
 * number of epochs (a shorter equal budget for comparisons), thins the user loss (`userLossFraction`) or samples its
 * softmax (`userLossSamples`).
 */
export function retrievalStage(
  model: Llama,
  tokenizer: ChatTokenizer,
  manifest: ToolGenManifest,
  train: readonly LabelledQuery[],
  index: ToolIndex,
  userLoss: boolean,
  variant: {
    epochs?: number;
    userLossFraction?: number;
    userLossReweight?: boolean;
    userLossSamples?: number;
  } = {},
) {
  const schedule = SCHEDULES.tiny;
  const { lr, tokenDropout, averageLast } = schedule.stages.retrieval;
  const epochs = variant.epochs ?? schedule.stages.retrieval.epochs;
  const samples = retrievalSamples(train, index, { skipUnknown: true }).samples.map((c) => {
    const s = encodeChat(tokenizer, c.messages, {
      format: manifest.chatFormat ?? "chatml",
      maxContentTokens: schedule.maxContentTokens,
      maxLength: model.config.maxPositions,
    });
    return userLoss ? withUserLoss(s) : s;
  });
  const total = Math.max(1, Math.ceil((epochs * samples.length) / schedule.batchSize));
  const seqLen = Math.min(
    model.config.maxPositions,
    samples.reduce((m, s) => Math.max(m, s.ids.length), 1),
  );
  const data: TrainData = { kind: "samples", samples, padId: model.config.padTokenId ?? 0, seqLen };
  const options = (signal: AbortSignal): TrainOptions => ({
    steps: total,
    batchSize: schedule.batchSize,
    lr,
    seed: manifest.seed * 31 + 1,
    warmupFraction: schedule.warmupFraction,
    tokenDropout,
    ...(variant.userLossFraction !== undefined ? { userLossFraction: variant.userLossFraction } : {}),
    ...(variant.userLossReweight ? { userLossReweight: true } : {}),
    ...(variant.userLossSamples !== undefined ? { userLossSamples: variant.userLossSamples } : {}),
    averageLast,
    signal,
  });
  return { samples, total, data, options };
}

/** Counts the LM-head rows (loss targets) of every training step run on `model` from now on; reset by writing 0. */
export function countHeadRows(model: Llama): { rows: number } {
  const counter = { rows: 0 };
  const forwardBackward = model.forwardBackward.bind(model);
  model.forwardBackward = (batch, grads, o) => {
    const r = forwardBackward(batch, grads, o);
    counter.rows += r.count;
    return r;
  };
  return counter;
}
