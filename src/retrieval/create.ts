import type { CatalogEntry } from "../catalog/catalog.ts";
import { Bm25Retriever, type Bm25Options } from "./bm25.ts";
import type { Retriever } from "./retriever.ts";

export const RETRIEVER_KINDS = ["bm25", "toolgen", "hybrid"] as const;
export type RetrieverKind = (typeof RETRIEVER_KINDS)[number];

export interface CreateRetrieverOptions {
  catalog: readonly CatalogEntry[];
  /** A model spec or checkpoint folder (toolgen, hybrid). */
  model?: string;
  bm25?: Bm25Options;
}

/** Builds a retriever of the given kind over a catalog (the one place the CLI and the MCP server go through). */
export async function createRetriever(kind: string, options: CreateRetrieverOptions): Promise<Retriever> {
  if (kind === "bm25") return new Bm25Retriever(options.catalog, options.bm25);
  // The model-backed kinds load the engine, llama.cpp and HTTP clients only when asked for (fast CLI start).
  const [{ HttpGenerativeRetriever, isHttpModelSpec }, { HYBRID_DEFAULTS, HybridRetriever }] =
    await Promise.all([import("./generative-http.ts"), import("./hybrid.ts")]);
  const { isLlamaCppSpec } = await import("../models/llamacpp.ts");
  const openGguf = async (spec: string) =>
    (await import("./toolgen-gguf.ts")).openGgufToolGenRetriever(spec, options.catalog);
  const openLocal = async (model: string | undefined) =>
    (await import("./toolgen-open.ts")).openToolGenRetriever(model, options.catalog);
  switch (kind) {
    case "toolgen":
      if (isHttpModelSpec(options.model))
        return HttpGenerativeRetriever.open(options.catalog, { spec: options.model });
      if (isLlamaCppSpec(options.model)) return openGguf(options.model);
      return openLocal(options.model);
    case "hybrid":
      if (isHttpModelSpec(options.model)) {
        const served = await HttpGenerativeRetriever.open(options.catalog, { spec: options.model });
        return new HybridRetriever(
          [served, new Bm25Retriever(options.catalog, options.bm25)],
          HYBRID_DEFAULTS,
        );
      }
      // A gate chosen on dev and saved with the model (toolgen-gate.json) decides per query; without one,
      // ToolGen's votes weigh 2·p(top hit): a confident model leads, an unsure one leaves the ranking to BM25.
      if (options.model !== undefined && !isLlamaCppSpec(options.model)) {
        const { GatedHybridRetriever, readGate } = await import("./hybrid-gate.ts");
        const gate = readGate(options.model);
        if (gate)
          return new GatedHybridRetriever(
            await openLocal(options.model),
            new Bm25Retriever(options.catalog, options.bm25),
            gate,
          );
      }
      return new HybridRetriever(
        [
          isLlamaCppSpec(options.model) ? await openGguf(options.model) : await openLocal(options.model),
          new Bm25Retriever(options.catalog, options.bm25),
        ],
        HYBRID_DEFAULTS,
      );
    default:
      throw new Error(`unknown retriever "${kind}" (accepted: ${RETRIEVER_KINDS.join(", ")})`);
  }
}
