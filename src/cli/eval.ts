import { extname } from "node:path";
import type { Command } from "commander";
import { CATALOG_FORMATS, loadCatalog, loadQueries, type CatalogFormat } from "../catalog/load.ts";
import type { LabelledQuery } from "../catalog/catalog.ts";
import { progressBar } from "../eval/progress.ts";
import { evaluateRetrieval, reportJson, reportMarkdown } from "../eval/retrieval.ts";
import { splitQueryFile } from "../eval/split-files.ts";
import {
  describeLabelProblems,
  labelProblems,
  modelTrainingQueries,
  overlapCount,
} from "../eval/split-checks.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { splitQueries } from "../eval/split.ts";
import { createRetriever } from "../retrieval/create.ts";
import { registerBfcl } from "./eval-bfcl.ts";
import { runAction } from "./run-action.ts";
import { positiveIntegerListOption } from "./number-options.ts";
import {
  ALLOW_UNFINISHED,
  BM25_OPTIONS,
  RETRIEVER_OPTION,
  checkBm25Options,
  defaultRetrieverNote,
  retrieverKind,
  retrieverOptions,
  type RetrieverCliOptions,
} from "./retriever-options.ts";
import { ToolgenError } from "../errors.ts";

interface RetrievalCliOptions extends RetrieverCliOptions {
  queries: string[];
  k: string;
  depth?: string;
  split?: string;
  seed: string;
  report?: string;
  json?: boolean;
  trainQueries?: string[];
  allowOverlap?: boolean;
  skipInvalid?: boolean;
}

async function runRetrieval(opts: RetrievalCliOptions): Promise<void> {
  checkBm25Options(opts);
  const ks = positiveIntegerListOption(opts.k, "--k");
  const catalog = loadCatalog(opts.catalog, { format: opts.format as CatalogFormat | undefined });
  let queries: LabelledQuery[] = opts.queries.flatMap((file) => loadQueries(file));
  // Labels naming no catalog tool and queries with no relevant tool are refused, or with --skip-invalid left out
  // and counted in the report; never scored as zeros.
  const problems = labelProblems(queries, catalog);
  const problemText = describeLabelProblems(problems, catalog.length);
  if (problemText !== undefined && !opts.skipInvalid)
    throw new ToolgenError(
      "invalid_option",
      `${problemText}; fix the labels or pass --skip-invalid to leave them out (counted)`,
    );
  const ids = new Set(catalog.map((e) => e.id));
  queries = queries.filter((q) => q.relevant.length > 0 && q.relevant.every((id) => ids.has(id)));
  // A query scored here that the model (or a given training file) learned is not a held-out figure.
  const trained = [
    ...(modelTrainingQueries(["toolgen", "hybrid"].includes(retrieverKind(opts)) ? opts.model : undefined) ??
      []),
    ...(opts.trainQueries ?? []).flatMap((f) => loadQueries(f).map((q) => q.query)),
  ];
  const overlap = overlapCount(queries, trained);
  if (overlap > 0 && !opts.allowOverlap)
    throw new ToolgenError(
      "invalid_option",
      `${overlap} of ${queries.length} queries were also training queries (the model's data/retrieval.jsonl or ` +
        "--train-queries); pass --allow-overlap to score them anyway (the count is reported)",
    );
  if (opts.split !== undefined) {
    const part = opts.split;
    if (part !== "train" && part !== "dev")
      throw new ToolgenError("invalid_option", `--split must be train or dev, got ${part}`);
    // The split applies per query file (the same rule as `toolgen eval split`), so each file keeps its breakdown.
    const bySource = new Map<string, LabelledQuery[]>();
    for (const q of queries) {
      const list = bySource.get(q.source ?? "") ?? [];
      list.push(q);
      bySource.set(q.source ?? "", list);
    }
    queries = [...bySource.values()].flatMap((list) => splitQueries(list, Number(opts.seed))[part]);
  }
  const retriever = await createRetriever(retrieverKind(opts), retrieverOptions(opts, catalog));
  process.stderr.write(defaultRetrieverNote(opts, catalog.length));
  const bar = progressBar("eval retrieval");
  const report = await evaluateRetrieval(retriever, queries, {
    ks,
    depth: opts.depth === undefined ? undefined : positiveIntegerListOption(opts.depth, "--depth")[0],
    onProgress: bar.update,
  });
  bar.stop();
  const json = {
    ...reportJson(report),
    excluded: { unknown_tool: problems.unknownTool, no_relevant: problems.noRelevant },
    overlap_with_training: overlap,
  };
  if (opts.report !== undefined) {
    const asJson = extname(opts.report).toLowerCase() === ".json";
    writeFileAtomic(opts.report, asJson ? JSON.stringify(json, null, 2) + "\n" : reportMarkdown(report));
  }
  const notes = [
    ...(problemText === undefined ? [] : [`Left out (--skip-invalid): ${problemText}.`]),
    ...(overlap > 0 ? [`Scored with --allow-overlap: ${overlap} queries were training queries.`] : []),
  ];
  process.stdout.write(
    opts.json ? JSON.stringify(json) + "\n" : reportMarkdown(report) + notes.map((n) => n + "\n").join(""),
  );
}

export function register(program: Command): void {
  const evalCmd = program
    .command("eval")
    .description("evaluate retrieval (NDCG, recall, MRR) and function calling (BFCL)");
  evalCmd
    .command("retrieval")
    .description(
      "retrieval quality on labelled queries: NDCG@k (standard and ToolGen's), recall@k, MRR, latency",
    )
    .requiredOption(
      "--catalog <file>",
      "catalog: StableToolBench apis.json or query file, ToolBench, MetaTool tools.json, BFCL, OpenAPI",
    )
    .requiredOption(
      "--queries <files...>",
      "query files: StableToolBench G*_*.json, MetaTool queries.csv, our JSONL",
    )
    .option("--format <name>", `force the catalog format (${CATALOG_FORMATS.join(", ")})`)
    .option(...RETRIEVER_OPTION)
    .option("--model <dir>", "model for toolgen/hybrid retrieval")
    .option(...ALLOW_UNFINISHED)
    .option("--k <list>", "cut-offs", "1,3,5")
    .option("--depth <n>", "hits retrieved per query (MRR, ToolGen NDCG); default max(k, 5)")
    .option(...BM25_OPTIONS[0])
    .option(...BM25_OPTIONS[1])
    .option(...BM25_OPTIONS[2])
    .option(...BM25_OPTIONS[3])
    .option(...BM25_OPTIONS[4])
    .option("--split <part>", "evaluate on the train or dev part of each query file (seeded 80/20 split)")
    .option("--seed <n>", "split seed", "1")
    .option("--report <file>", "also write the report (.md Markdown, .json JSON)")
    .option("--json", "print one JSON object")
    .option(
      "--train-queries <files...>",
      "refuse queries that are also in these files (a model folder's own training queries are always checked)",
    )
    .option("--allow-overlap", "score queries that were trained on anyway (memorization checks); counted")
    .option(
      "--skip-invalid",
      "leave out queries with no relevant tool or with tools not in the catalog; counted",
    )
    .action(runAction(runRetrieval));
  registerBfcl(evalCmd);
  evalCmd
    .command("split")
    .description(
      "seeded split of a query file: train/dev/test with --test-out (80/10/10 by default), else train/dev " +
        "(80/20); dev/test rows repeating an earlier part's query are dropped and counted; MetaTool CSV stays CSV",
    )
    .requiredOption("--queries <file>", "query file")
    .requiredOption("--train-out <file>", "where the train part goes")
    .requiredOption("--dev-out <file>", "where the dev part goes (selection: epochs, configurations, fusion)")
    .option("--test-out <file>", "where the test part goes (reporting); makes the split three-way")
    .option("--seed <n>", "seed", "1")
    .option("--train-fraction <x>", "two-way split: share of train rows (default 0.8)")
    .option("--dev-fraction <x>", "three-way split: share of dev rows", "0.1")
    .option("--test-fraction <x>", "three-way split: share of test rows", "0.1")
    .option(
      "--by <unit>",
      "query (split the rows) or tool (split the tools: dev/test tools appear in no train query; the fractions " +
        "are shares of the tools; a query naming tools of two parts is dropped and counted)",
      "query",
    )
    .option("--json", "print one JSON object")
    .action(runAction(runSplit));
}

interface SplitCliOptions {
  queries: string;
  trainOut: string;
  devOut: string;
  testOut?: string;
  seed: string;
  trainFraction?: string;
  devFraction: string;
  testFraction: string;
  by: string;
  json?: boolean;
}

function fraction(value: string, flag: string): number {
  const x = Number(value);
  if (!(x > 0 && x < 1))
    throw new ToolgenError("invalid_option", `${flag} must be a number in (0, 1), got ${value}`);
  return x;
}

function runSplit(opts: SplitCliOptions): void {
  const seed = Number(opts.seed);
  if (!Number.isInteger(seed))
    throw new ToolgenError("invalid_option", `--seed must be an integer, got ${opts.seed}`);
  if (opts.by !== "query" && opts.by !== "tool")
    throw new ToolgenError("invalid_option", `--by must be query or tool, got ${opts.by}`);
  const result = splitQueryFile(opts.queries, {
    seed,
    by: opts.by,
    trainOut: opts.trainOut,
    devOut: opts.devOut,
    testOut: opts.testOut,
    trainFraction:
      opts.trainFraction === undefined ? undefined : fraction(opts.trainFraction, "--train-fraction"),
    fractions: {
      dev: fraction(opts.devFraction, "--dev-fraction"),
      test: fraction(opts.testFraction, "--test-fraction"),
    },
  });
  const out = {
    queries: opts.queries,
    seed,
    ...result,
    train_out: opts.trainOut,
    dev_out: opts.devOut,
    ...(opts.testOut === undefined ? {} : { test_out: opts.testOut }),
  };
  const droppedTotal = result.dropped.dev + (result.dropped.test ?? 0);
  const text =
    `train ${result.train} → ${opts.trainOut}, dev ${result.dev} → ${opts.devOut}` +
    (opts.testOut === undefined ? "" : `, test ${result.test} → ${opts.testOut}`) +
    ` (seed ${seed}${result.tools === undefined ? "" : `, by tool: ${result.tools.train}/${result.tools.dev}` + (result.tools.test === undefined ? "" : `/${result.tools.test}`) + " tools"})` +
    (droppedTotal > 0 ? `; ${droppedTotal} rows repeating an earlier part's query dropped` : "") +
    (result.dropped.mixed ? `; ${result.dropped.mixed} rows naming tools of two parts dropped` : "") +
    "\n";
  process.stdout.write(opts.json ? JSON.stringify(out) + "\n" : text);
}
