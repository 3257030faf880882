import type { CatalogEntry } from "../catalog/catalog.ts";
import type { CreateRetrieverOptions } from "../retrieval/create.ts";
import { DOCUMENT_FORMATS, type DocumentFormat } from "../retrieval/documents.ts";
import { ENGLISH_STOPWORDS } from "../text/terms.ts";
import { ToolgenError } from "../errors.ts";
import { numberOption } from "./number-options.ts";

/** Retriever options shared by `eval retrieval` and `retrieve`. */
export interface RetrieverCliOptions {
  catalog: string;
  format?: string;
  retriever: string;
  model?: string;
  k1: string;
  b: string;
  stem?: boolean;
  stopwords?: boolean;
  document: string;
  allowUnfinished?: boolean;
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
