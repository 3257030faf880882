import type { CatalogEntry } from "../catalog/catalog.ts";
import { FINISH_TOKEN, toolToken } from "../toolgen/tokens.ts";
import type { Llama } from "../nn/llama.ts";
import { resizeVocab } from "../nn/resize.ts";
import { Tokenizer } from "../nn/tokenizer/index.ts";
import { ToolgenError } from "../errors.ts";

/** The readable name a tool token's embedding starts from: "tool api" (or the tool's name alone). */
export function toolName(entry: CatalogEntry): string {
  return entry.api !== "" && entry.api !== entry.tool ? `${entry.tool} ${entry.api}` : entry.tool;
}

export interface VirtualizedModel {
  model: Llama;
  tokenizer: Tokenizer;
  /** catalog id → its token id. */
  toolTokenIds: Map<string, number>;
  finishId: number;
}

/**
 * Tool virtualization (ToolGen §3.2): one new token `<<id>>` per catalog entry plus `<<Finish>>`, added to a copy
 * of the tokenizer (never split in text) and to the model, each new embedding and lm_head row the mean of the
 * rows of its name's tokens. Existing rows are kept exactly; the inputs are not modified. Tokens that the
 * tokenizer already has keep their ids and rows (virtualizing twice is a no-op).
 */
export function virtualizeTools(
  model: Llama,
  tokenizer: Tokenizer,
  entries: readonly CatalogEntry[],
): VirtualizedModel {
  if (tokenizer.vocabSize > model.config.vocabSize) {
    throw new ToolgenError(
      "invalid_input",
      `virtualize: the tokenizer has ${tokenizer.vocabSize} tokens but the model only ${model.config.vocabSize} rows`,
    );
  }
  const names = [...entries.map(toolName), "Finish"];
  const tokens = [...entries.map((e) => toolToken(e.id)), FINISH_TOKEN];
  const nameIds = names.map((n) => tokenizer.encode(n));
  const copy = Tokenizer.fromJSON(tokenizer.toJSON());
  const ids = copy.addTokens(tokens);
  const sourceOf = new Map<number, number[]>();
  ids.forEach((id, i) => {
    if (id >= model.config.vocabSize) sourceOf.set(id, nameIds[i]!);
  });
  const grown = resizeVocab(model, Math.max(model.config.vocabSize, copy.vocabSize), {
    kind: "mean",
    of: (id) => sourceOf.get(id) ?? [],
  });
  return {
    model: grown,
    tokenizer: copy,
    toolTokenIds: new Map(entries.map((e, i) => [e.id, ids[i]!])),
    finishId: ids[ids.length - 1]!,
  };
}
