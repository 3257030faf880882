/**
 * ToolGen retrieval on llama.cpp: any GGUF whose vocabulary has tool tokens (our exports, or a converted
 * published ToolGen checkpoint) becomes a GenerativeRetriever. The index (how each tool id is written) comes
 * from the file's `toolgen.index` metadata, which `toolgen export gguf` stores for ToolGen folders; a file
 * without it is read as atomic indexing, each catalog entry's token being `<<id>>`.
 */
import type { CatalogEntry } from "../catalog/catalog.ts";
import { toolToken } from "../toolgen/tokens.ts";
import { GGUF_TOOLGEN_INDEX_KEY } from "../nn/gguf/export.ts";
import { GenerativeRetriever, type GenerativeRetrieverOptions } from "./generative.ts";
import { isIndexKind, type ToolIndex } from "../toolgen/ids.ts";
import { LlamaCppModel, type LlamaCppOptions } from "../models/llamacpp.ts";

function storedIndex(model: LlamaCppModel): ToolIndex | undefined {
  const raw = model.metadata(GGUF_TOOLGEN_INDEX_KEY);
  if (raw === undefined) return undefined;
  let value: Partial<ToolIndex>;
  try {
    value = JSON.parse(String(raw)) as Partial<ToolIndex>;
  } catch (e) {
    throw new Error(`${model.id}: ${GGUF_TOOLGEN_INDEX_KEY} is not JSON (${(e as Error).message})`, {
      cause: e,
    });
  }
  if (typeof value?.kind !== "string" || !isIndexKind(value.kind) || typeof value.texts !== "object") {
    throw new Error(`${model.id}: ${GGUF_TOOLGEN_INDEX_KEY} must be {"kind", "texts"}`);
  }
  return { kind: value.kind, texts: value.texts as Record<string, string> };
}

/** The ids the retriever ranks: the stored index cut to the catalog, or the catalog's tool tokens the model has. */
export function ggufToolIndex(model: LlamaCppModel, catalog: readonly CatalogEntry[] | undefined): ToolIndex {
  const stored = storedIndex(model);
  if (!catalog) {
    if (stored) return stored;
    throw new Error(
      `${model.id} holds no ${GGUF_TOOLGEN_INDEX_KEY}; give --catalog so tool tokens <<id>> can be looked up`,
    );
  }
  const kind = stored?.kind ?? "atomic";
  const texts: Record<string, string> = {};
  for (const e of catalog) {
    const text = stored ? stored.texts[e.id] : toolToken(e.id);
    // An atomic id must be one token of the vocabulary; other kinds are spelled with ordinary tokens.
    if (text === undefined || (kind === "atomic" && model.tokenId(text) === undefined)) continue;
    texts[e.id] = text;
  }
  const found = Object.keys(texts).length;
  if (found === 0) throw new Error(`${model.id} has no tool id for any entry of this catalog`);
  if (found < catalog.length) {
    process.stderr.write(
      `toolgen: ${catalog.length - found} of ${catalog.length} catalog entries have no id in ${model.id}\n`,
    );
  }
  return { kind, texts };
}

/** `gguf:PATH` / `hf:USER/REPO/FILE` -> a ToolGen retriever running on llama.cpp. */
export async function openGgufToolGenRetriever(
  spec: string,
  catalog: readonly CatalogEntry[] | undefined,
  options: GenerativeRetrieverOptions & LlamaCppOptions = {},
): Promise<GenerativeRetriever> {
  const model = await LlamaCppModel.load(spec, options);
  return new GenerativeRetriever(model, ggufToolIndex(model, catalog), options);
}
