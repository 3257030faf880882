import { join } from "node:path";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { DEFAULT_RETRIEVER, RETRIEVER_KINDS, type CreateRetrieverOptions } from "../retrieval/create.ts";
import { DOCUMENT_FORMATS, type DocumentFormat } from "../retrieval/documents.ts";
import { ENGLISH_STOPWORDS } from "../text/terms.ts";
import { GATE_FILE, readGate } from "../retrieval/hybrid-gate.ts";
import { ToolgenError } from "../errors.ts";
import { numberOption } from "./number-options.ts";

/** Retriever options shared by `eval retrieval` and `retrieve`. */
export interface RetrieverCliOptions {
  catalog: string;
  format?: string;
  /** Undefined when not given: DEFAULT_RETRIEVER, and the command says so (`defaultRetrieverNote`). */
  retriever?: string;
  model?: string;
  /** BM25's options: undefined when not given (so a retriever they do not apply to can refuse them). */
  k1?: string;
  b?: string;
  stem?: boolean;
  stopwords?: boolean;
  document?: string;
  allowUnfinished?: boolean;
}

/** BM25's defaults as the CLI has always had them (k1 1.2, b 0.9, the toolgen document format). */
export const BM25_CLI_DEFAULTS = { k1: "1.2", b: "0.9", document: "toolgen" } as const;

/** The kinds with a BM25 these options tune (hybrid's BM25 part); the ranker and BM25F have their own parameters. */
const BM25_KINDS: readonly string[] = ["bm25", "hybrid"];

/** BM25's options as `retrieve` and `eval retrieval` declare them (defaults in the help text, applied later). */
export const BM25_OPTIONS = [
  ["--k1 <x>", `BM25 k1 (--retriever bm25 or hybrid; default ${BM25_CLI_DEFAULTS.k1})`],
  ["--b <x>", `BM25 b (--retriever bm25 or hybrid; default ${BM25_CLI_DEFAULTS.b}, textbook 0.75)`],
  ["--no-stem", "no Porter stemming in the BM25 tokenizer (--retriever bm25 or hybrid; textbook BM25)"],
  [
    "--no-stopwords",
    "keep English stopwords in the BM25 tokenizer (--retriever bm25 or hybrid; textbook BM25)",
  ],
  [
    "--document <format>",
    `BM25's indexed text (--retriever bm25 or hybrid; ${DOCUMENT_FORMATS.join(", ")}; default ${BM25_CLI_DEFAULTS.document})`,
  ],
] as const;

/**
 * BM25's options given with a retriever that has no BM25 would do nothing; refused before anything runs, in one
 * line that says which retriever they apply to. That includes `--retriever hybrid` with a model folder whose gate
 * names the ranker as its lexical part (read from the folder's toolgen-gate.json, a small file).
 */
export function checkBm25Options(opts: RetrieverCliOptions): void {
  const given = [
    ...(opts.k1 !== undefined ? ["--k1"] : []),
    ...(opts.b !== undefined ? ["--b"] : []),
    ...(opts.document !== undefined ? ["--document"] : []),
    ...(opts.stem === false ? ["--no-stem"] : []),
    ...(opts.stopwords === false ? ["--no-stopwords"] : []),
  ];
  if (given.length === 0) return;
  const kind = retrieverKind(opts);
  // A hybrid whose gate was chosen against the ranker (toolgen train since f02bffa) has no BM25 part to tune.
  const rankerGate =
    kind === "hybrid" && opts.model !== undefined && readGate(opts.model)?.lexical === "ranker";
  if (BM25_KINDS.includes(kind) && !rankerGate) return;
  const which = rankerGate
    ? `the hybrid's lexical part is the ranker (${join(opts.model!.replace(/^builtin:/, ""), GATE_FILE)})`
    : opts.retriever === undefined
      ? `the default retriever is ${kind}`
      : `--retriever is ${kind}`;
  throw new ToolgenError(
    "invalid_option",
    `${given.join(", ")} ${given.length === 1 ? "applies" : "apply"} to --retriever bm25 or hybrid (its BM25 part); ${which}`,
  );
}

/**
 * `--retriever`, the same in `retrieve`, `eval retrieval` and `serve mcp`. The default is the shipped ranker; BM25's
 * options (--k1, --b, --document, --no-stem, --no-stopwords) apply to `bm25` (and hybrid's BM25 part) only, and
 * are refused with any other retriever (`checkBm25Options`).
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
  checkBm25Options(opts);
  const document = opts.document ?? BM25_CLI_DEFAULTS.document;
  if (!(DOCUMENT_FORMATS as readonly string[]).includes(document)) {
    throw new ToolgenError(
      "invalid_option",
      `--document must be one of ${DOCUMENT_FORMATS.join(", ")}, got "${document}"`,
    );
  }
  return {
    catalog,
    model: opts.model,
    allowUnfinished: opts.allowUnfinished === true,
    bm25: {
      k1: numberOption(opts.k1 ?? BM25_CLI_DEFAULTS.k1, "--k1"),
      b: numberOption(opts.b ?? BM25_CLI_DEFAULTS.b, "--b"),
      document: document as DocumentFormat,
      tokenizer: {
        stem: opts.stem !== false,
        ...(opts.stopwords === false ? {} : { stopwords: ENGLISH_STOPWORDS }),
      },
    },
  };
}
