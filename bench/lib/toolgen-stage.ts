import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import type { Sample } from "../../src/nn/train/batches.ts";
import { buildToolIndex } from "../../src/toolgen/ids.ts";
import { CHAT_FORMATS, encodeChat } from "../../src/toolgen/chat-encoding.ts";
import { memorizationSamples, retrievalSamples, type Stage } from "../../src/train/datasets.ts";
import { SCHEDULES } from "../../src/train/schedule.ts";
import { toolDocument } from "../../src/toolgen/tool-document.ts";
import { withUserLoss } from "../../src/train/pipeline.ts";
import { virtualizeTools } from "../../src/train/virtualize.ts";

/** The tiny preset's ToolGen schedule (batch size, epochs, learning rates, token dropout). */
export const TINY = SCHEDULES.tiny;

/**
 * The model and tokenizer `toolgen train --preset tiny` starts its stages from, built the way
 * src/train/pipeline.ts builds them: a BPE tokenizer learned from the tool documents and queries, a fresh tiny
 * model, one virtual token per tool (atomic index). The stage samples carry the schedule's user loss as the
 * pipeline's do: without it, a retrieval step computed the LM head on its 64 tool tokens instead of ~610 rows,
 * and the benches timed a step 1.6× cheaper than the one `toolgen train` runs (issue 40).
 */
export function toolgenSetup(
  catalog: readonly CatalogEntry[],
  queries: readonly LabelledQuery[],
  seed = 1,
): { model: Llama; tokenizer: Tokenizer; stageSamples: (stage: Stage) => Sample[] } {
  const index = buildToolIndex(catalog, "atomic", seed);
  const spec = CHAT_FORMATS.llama3;
  const texts = [...catalog.map(toolDocument), ...queries.map((q) => q.query)];
  const base = Tokenizer.train(texts, TINY.tokenizerVocab, { specialTokens: [...spec.specials] });
  const config = presetConfig("tiny", base.vocabSize, {
    bosTokenId: base.tokenToId(spec.bos!),
    eosTokenId: base.tokenToId(spec.end),
    padTokenId: base.tokenToId(spec.pad),
  });
  const v = virtualizeTools(new Llama(config, initParams(config, seed)), base, catalog);
  const stageSamples = (stage: Stage): Sample[] => {
    const chats =
      stage === "memorization"
        ? memorizationSamples(catalog, index)
        : retrievalSamples(queries, index, { skipUnknown: true }).samples;
    return chats.map((c) => {
      const sample = encodeChat(v.tokenizer, c.messages, {
        format: "llama3",
        maxContentTokens: TINY.maxContentTokens,
        maxLength: v.model.config.maxPositions,
      });
      return TINY.stages[stage].userLoss ? withUserLoss(sample) : sample;
    });
  };
  return { model: v.model, tokenizer: v.tokenizer, stageSamples };
}

/** The stage seed the pipeline uses (seed·31 + the stage's index). */
export function stageSeed(stage: Stage, seed = 1): number {
  return seed * 31 + ["memorization", "retrieval", "agent"].indexOf(stage);
}
