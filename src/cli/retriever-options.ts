import type { CatalogEntry } from "../catalog/catalog.ts";
import type { CreateRetrieverOptions } from "../retrieval/create.ts";
import { DOCUMENT_FORMATS, type DocumentFormat } from "../retrieval/documents.ts";
import { ENGLISH_STOPWORDS } from "../text/terms.ts";

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
}

export function parseIntList(text: string, flag: string): number[] {
  const values = text.split(",").map((s) => Number(s.trim()));
  if (values.length === 0 || !values.every((v) => Number.isInteger(v) && v > 0)) {
    throw new Error(`${flag} expects positive integers separated by commas, got "${text}"`);
  }
  return values;
}

function parseNumber(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`${flag} expects a number, got "${text}"`);
  return value;
}

export function retrieverOptions(
  opts: RetrieverCliOptions,
  catalog: readonly CatalogEntry[],
): CreateRetrieverOptions {
  if (!(DOCUMENT_FORMATS as readonly string[]).includes(opts.document)) {
    throw new Error(`--document must be one of ${DOCUMENT_FORMATS.join(", ")}, got "${opts.document}"`);
  }
  return {
    catalog,
    model: opts.model,
    bm25: {
      k1: parseNumber(opts.k1, "--k1"),
      b: parseNumber(opts.b, "--b"),
      document: opts.document as DocumentFormat,
      tokenizer: {
        stem: opts.stem !== false,
        ...(opts.stopwords === false ? {} : { stopwords: ENGLISH_STOPWORDS }),
      },
    },
  };
}
