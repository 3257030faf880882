import type { CatalogEntry } from "../catalog/catalog.ts";
import { DEFAULT_RETRIEVER, RETRIEVER_KINDS, type CreateRetrieverOptions } from "../retrieval/create.ts";
import { DOCUMENT_FORMATS, type DocumentFormat } from "../retrieval/documents.ts";
import { ENGLISH_STOPWORDS } from "../text/terms.ts";
import { ToolgenError } from "../errors.ts";
import { numberOption } from "./number-options.ts";

/** Retriever options shared by `eval retrieval` and `retrieve`. */
export interface RetrieverCliOptions {
  catalog: string;
  format?: string;
  /** Undefined when not given: DEFAULT_RETRIEVER, and the command says so (`defaultRetrieverNote`). */
  retriever?: string;
  model?: string;
  k1: string;
  b: string;
  stem?: boolean;
  stopwords?: boolean;
  document: string;
  allowUnfinished?: boolean;
}

/**
 * `--retriever`, the same in `retrieve`, `eval retrieval` and `serve mcp`. The default is the shipped ranker; BM25's
 * options (--k1, --b, --document, --no-stem, --no-stopwords) apply to `bm25` (and hybrid's BM25 part) only.
 */
export const RETRIEVER_OPTION = [
  "--retriever <kind>",
  `${RETRIEVER_KINDS.join(" | ")} (default ${DEFAULT_RETRIEVER}: a ranker over BM25F that ships with toolgen)`,
] as const;

/** The retriever a command uses: the one asked for, else the default. */
export function retrieverKind(opts: Pick<RetrieverCliOptions, "retriever">): string {
  return opts.retriever ?? DEFAULT_RETRIEVER;
}

/**
 * When no --retriever was given, the stderr line that says which retriever answered (stdout formats stay as they
 * were; an explicit choice needs no note).
 */
export function defaultRetrieverNote(
  opts: Pick<RetrieverCliOptions, "retriever">,
  catalogSize: number,
): string {
  return opts.retriever === undefined
    ? `retriever: ${DEFAULT_RETRIEVER} (the default; --retriever ${RETRIEVER_KINDS.join(" | ")}) over ${catalogSize} catalog entries\n`
    : "";
}

/** The flag both commands add: a model whose training stopped early is refused without it. */
export const ALLOW_UNFINISHED = [
  "--allow-unfinished",
  "use a toolgen/hybrid model whose training was interrupted (fewer stages done than planned)",
] as const;

export function retrieverOptions(
  opts: RetrieverCliOptions,
  catalog: readonly CatalogEntry[],
): CreateRetrieverOptions {
  if (!(DOCUMENT_FORMATS as readonly string[]).includes(opts.document)) {
    throw new ToolgenError(
      "invalid_option",
      `--document must be one of ${DOCUMENT_FORMATS.join(", ")}, got "${opts.document}"`,
    );
  }
  return {
    catalog,
    model: opts.model,
    allowUnfinished: opts.allowUnfinished === true,
    bm25: {
      k1: numberOption(opts.k1, "--k1"),
      b: numberOption(opts.b, "--b"),
      document: opts.document as DocumentFormat,
      tokenizer: {
        stem: opts.stem !== false,
        ...(opts.stopwords === false ? {} : { stopwords: ENGLISH_STOPWORDS }),
      },
    },
  };
}
