import type { CatalogEntry } from "../catalog/catalog.ts";
import { Bm25Retriever, type Bm25Options } from "./bm25.ts";
import { HttpGenerativeRetriever, isHttpModelSpec } from "./generative-http.ts";
import { HYBRID_DEFAULTS, HybridRetriever } from "./hybrid.ts";
import { GatedHybridRetriever, readGate } from "./hybrid-gate.ts";
import type { Retriever } from "./retriever.ts";
import { openToolGenRetriever } from "./toolgen-open.ts";
import { isLlamaCppSpec } from "../models/llamacpp.ts";
import { openGgufToolGenRetriever } from "../models/llamacpp/toolgen.ts";

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
  switch (kind) {
    case "bm25":
      return new Bm25Retriever(options.catalog, options.bm25);
    case "toolgen":
      if (isHttpModelSpec(options.model))
        return HttpGenerativeRetriever.open(options.catalog, { spec: options.model });
      if (isLlamaCppSpec(options.model)) return openGgufToolGenRetriever(options.model, options.catalog);
      return openToolGenRetriever(options.model, options.catalog);
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
        const gate = readGate(options.model);
        if (gate)
          return new GatedHybridRetriever(
            openToolGenRetriever(options.model, options.catalog),
            new Bm25Retriever(options.catalog, options.bm25),
            gate,
          );
      }
      return new HybridRetriever(
        [
          isLlamaCppSpec(options.model)
            ? await openGgufToolGenRetriever(options.model, options.catalog)
            : openToolGenRetriever(options.model, options.catalog),
          new Bm25Retriever(options.catalog, options.bm25),
        ],
        HYBRID_DEFAULTS,
      );
    default:
      throw new Error(`unknown retriever "${kind}" (accepted: ${RETRIEVER_KINDS.join(", ")})`);
  }
}
