import type { CatalogEntry } from "../catalog/catalog.ts";
import { Bm25Retriever, type Bm25Options } from "./bm25.ts";
import { Bm25fRetriever, type Bm25fParams } from "./bm25f.ts";
import { RankerRetriever } from "./ranker.ts";
import type { Retriever } from "./retriever.ts";
import { ToolgenError } from "../errors.ts";

export const RETRIEVER_KINDS = ["ranker", "bm25f", "bm25", "toolgen", "hybrid"] as const;
export type RetrieverKind = (typeof RETRIEVER_KINDS)[number];

/**
 * What `toolgen retrieve`, `toolgen eval retrieval` and `toolgen serve mcp` use without `--retriever`: the shipped
 * ranker over BM25F (no model to train). It won on dev over BM25 and BM25F on tools no training query named; the
 * test figures are in bench/results/retrieval.json (`tool_disjoint`).
 */
export const DEFAULT_RETRIEVER: RetrieverKind = "ranker";

export interface CreateRetrieverOptions {
  catalog: readonly CatalogEntry[];
  /** A model spec or checkpoint folder (toolgen, hybrid). */
  model?: string;
  bm25?: Bm25Options;
  /** BM25F's parameters (kind bm25f); default BM25F_DEFAULTS. */
  bm25f?: Bm25fParams;
  /** Use a model folder whose training was interrupted (fewer stages done than planned); refused otherwise. */
  allowUnfinished?: boolean;
}

/** Builds a retriever of the given kind over a catalog (the one place the CLI and the MCP server go through). */
export async function createRetriever(kind: string, options: CreateRetrieverOptions): Promise<Retriever> {
  checkArguments(kind, options);
  if (kind === "bm25") return new Bm25Retriever(options.catalog, options.bm25);
  if (kind === "bm25f") return new Bm25fRetriever(options.catalog, options.bm25f);
  if (kind === "ranker") return new RankerRetriever(options.catalog);
  // The model-backed kinds load the engine, llama.cpp and HTTP clients only when asked for (fast CLI start).
  const [{ HttpGenerativeRetriever, isHttpModelSpec }, { HYBRID_DEFAULTS, HybridRetriever }] =
    await Promise.all([import("./generative-http.ts"), import("./hybrid.ts")]);
  const { isLlamaCppSpec } = await import("../models/llamacpp.ts");
  const openGguf = async (spec: string) =>
    (await import("./toolgen-gguf.ts")).openGgufToolGenRetriever(spec, options.catalog);
  const openLocal = async (model: string | undefined) => {
    if (model !== undefined && !options.allowUnfinished) await refuseUnfinished(model);
    return (await import("./toolgen-open.ts")).openToolGenRetriever(model, options.catalog);
  };
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
      // A model folder: the gate `toolgen train` chose on its held-out dev queries (toolgen-gate.json) decides
      // per query; a folder without one is refused, since an ungated fusion can fall below both of its parts.
      // Served and GGUF models have no folder to hold a gate: ToolGen's votes weigh 2·p(top hit) against BM25's.
      if (!isLlamaCppSpec(options.model)) {
        const toolgen = await openLocal(options.model);
        const { GatedHybridRetriever, readQueried, requireGate } = await import("./hybrid-gate.ts");
        const gate = requireGate(options.model!);
        // The lexical part the gate was chosen against (older gates: BM25).
        const lexical =
          gate.lexical === "ranker"
            ? new RankerRetriever(options.catalog)
            : new Bm25Retriever(options.catalog, options.bm25);
        // Tools ToolGen has no training queries for keep the lexical part's ranks (folders from before: none).
        return new GatedHybridRetriever(toolgen, lexical, gate, 100, readQueried(options.model!));
      }
      return new HybridRetriever(
        [await openGguf(options.model!), new Bm25Retriever(options.catalog, options.bm25)],
        HYBRID_DEFAULTS,
      );
  }
}

/**
 * The library's callers get a typed error naming what is valid, not a TypeError from deep inside (a common
 * slip: `createRetriever({ catalog })` with the options in the kind's place).
 */
function checkArguments(kind: unknown, options: unknown): asserts kind is RetrieverKind {
  if (typeof kind !== "string" || !(RETRIEVER_KINDS as readonly string[]).includes(kind)) {
    const got =
      typeof kind === "string"
        ? `"${kind}"`
        : typeof kind === "object" && kind !== null
          ? 'an object (the kind comes first: createRetriever("bm25", { catalog }))'
          : String(kind);
    throw new ToolgenError(
      "invalid_option",
      `createRetriever(kind, options): kind must be one of ${RETRIEVER_KINDS.join(", ")}, got ${got}`,
    );
  }
  const catalog = (options as Partial<CreateRetrieverOptions> | undefined)?.catalog;
  if (!Array.isArray(catalog)) {
    throw new ToolgenError(
      "invalid_option",
      `createRetriever("${kind}", options): options.catalog must be an array of catalog entries (loadCatalog(file))`,
    );
  }
}

/**
 * A ToolGen folder whose training stopped early (Ctrl-C, a crash) holds the weights of a stage that did not
 * finish; its manifest lists fewer finished stages than planned. Retrieval from it would quietly measure a
 * half-trained model, so it is refused unless asked for.
 */
async function refuseUnfinished(model: string): Promise<void> {
  const { readManifest } = await import("../toolgen/model-folder.ts");
  const dir = model.startsWith("builtin:") ? model.slice("builtin:".length) : model;
  const manifest = readManifest(dir);
  if (!manifest || manifest.done.length >= manifest.stages.length) return;
  const done = manifest.done.map((r) => r.stage);
  throw new ToolgenError(
    "invalid_input",
    `the model in ${dir} is unfinished: its training stopped after ${done.length} of ${manifest.stages.length} stages ` +
      `(${done.join(", ") || "none"} done; ${manifest.stages.join(", ")} planned); finish it by running the same ` +
      "`toolgen train` again, or use it as it is with --allow-unfinished (allowUnfinished: true)",
  );
}
