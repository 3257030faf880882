import type { CatalogEntry } from "../catalog/catalog.ts";
import { BuiltinTokenModel } from "../models/builtin.ts";
import { llamaBatchScorer } from "./llama-scorer.ts";
import { loadToolGenModel } from "../toolgen/model-folder.ts";
import { GenerativeRetriever, type GenerativeRetrieverOptions } from "./generative.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Opens a trained ToolGen folder (`DIR` or `builtin:DIR`) as a retriever over `catalog`: the search space is
 * restricted to the catalog's entries that the model has ids for, so a model trained on a larger catalog can be
 * evaluated in-domain. A catalog entry the model never learned is reported, not silently ignored.
 */
export function openToolGenRetriever(
  spec: string | undefined,
  catalog: readonly CatalogEntry[] | undefined,
  options: GenerativeRetrieverOptions = {},
): GenerativeRetriever {
  if (!spec)
    throw new ToolgenError(
      "invalid_option",
      "the toolgen retriever needs a trained model: --model DIR (from toolgen train)",
    );
  if (spec.startsWith("gguf:") || spec.startsWith("hf:")) {
    throw new ToolgenError(
      "invalid_option",
      `the toolgen retriever runs on the built-in engine; give a folder from toolgen train, not ${spec}`,
    );
  }
  const loaded = loadToolGenModel(spec);
  let index: ToolIndex = loaded.index;
  if (catalog) {
    const texts = Object.fromEntries(
      catalog.filter((e) => index.texts[e.id] !== undefined).map((e) => [e.id, index.texts[e.id]!]),
    );
    const unknown = catalog.length - Object.keys(texts).length;
    if (Object.keys(texts).length === 0) {
      throw new ToolgenError(
        "invalid_input",
        `the model in ${loaded.dir} was trained on another catalog: none of its tool ids is in this one`,
      );
    }
    if (unknown > 0) {
      process.stderr.write(
        `toolgen: ${unknown} of ${catalog.length} catalog entries have no id in ${loaded.dir}; they cannot be retrieved\n`,
      );
    }
    index = { kind: index.kind, texts };
  }
  return new GenerativeRetriever(
    new BuiltinTokenModel(loaded.model, loaded.tokenizer, `builtin:${loaded.dir}`),
    index,
    // The folder's offsets (an addition's calibration) unless the caller gives its own.
    { chatFormat: loaded.chatFormat, ...(loaded.offsets ? { offsets: loaded.offsets } : {}), ...options },
    llamaBatchScorer(loaded.model),
  );
}
