import { extname } from "node:path";
import type { Command } from "commander";
import { CATALOG_FORMATS, loadCatalog, loadQueries, type CatalogFormat } from "../catalog/load.ts";
import type { LabelledQuery } from "../catalog/catalog.ts";
import { progressBar } from "../eval/progress.ts";
import { evaluateRetrieval, reportJson, reportMarkdown } from "../eval/retrieval.ts";
import { splitQueryFile } from "../eval/split-files.ts";
import { writeFileAtomic } from "../nn/io/atomic.ts";
import { splitQueries } from "../eval/split.ts";
import { createRetriever } from "../retrieval/create.ts";
import { registerBfcl } from "./eval-bfcl.ts";
import { runAction } from "./run-action.ts";
import { DOCUMENT_FORMATS } from "../retrieval/documents.ts";
import { parseIntList, retrieverOptions, type RetrieverCliOptions } from "./retriever-options.ts";

interface RetrievalCliOptions extends RetrieverCliOptions {
  queries: string[];
  k: string;
  depth?: string;
  split?: string;
  seed: string;
  report?: string;
  json?: boolean;
}

/** Fails the command with a clear message on stderr and exit code 1 (no stack trace for bad input). */
function failWith(command: string, error: unknown): void {
  process.stderr.write(`toolgen ${command}: ${(error as Error).message}\n`);
  process.exitCode = 1;
}

async function runRetrieval(opts: RetrievalCliOptions): Promise<void> {
  const ks = parseIntList(opts.k, "--k");
  const catalog = loadCatalog(opts.catalog, { format: opts.format as CatalogFormat | undefined });
  let queries: LabelledQuery[] = opts.queries.flatMap((file) => loadQueries(file, catalog));
  if (opts.split !== undefined) {
    const part = opts.split;
    if (part !== "train" && part !== "dev") throw new Error(`--split must be train or dev, got ${part}`);
    // The split applies per query file (the same rule as `toolgen eval split`), so each file keeps its breakdown.
    const bySource = new Map<string, LabelledQuery[]>();
    for (const q of queries) {
      const list = bySource.get(q.source ?? "") ?? [];
      list.push(q);
      bySource.set(q.source ?? "", list);
    }
    queries = [...bySource.values()].flatMap((list) => splitQueries(list, Number(opts.seed))[part]);
  }
  const retriever = await createRetriever(opts.retriever, retrieverOptions(opts, catalog));
  const bar = progressBar("eval retrieval");
  const report = await evaluateRetrieval(retriever, queries, {
    ks,
    depth: opts.depth === undefined ? undefined : parseIntList(opts.depth, "--depth")[0],
    onProgress: bar.update,
  });
  bar.stop();
  const json = reportJson(report);
  if (opts.report !== undefined) {
    const asJson = extname(opts.report).toLowerCase() === ".json";
    writeFileAtomic(opts.report, asJson ? JSON.stringify(json, null, 2) + "\n" : reportMarkdown(report));
  }
  process.stdout.write(opts.json ? JSON.stringify(json) + "\n" : reportMarkdown(report));
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
    .option("--retriever <kind>", "bm25 | toolgen | hybrid", "bm25")
    .option("--model <dir>", "model for toolgen/hybrid retrieval")
    .option("--k <list>", "cut-offs", "1,3,5")
    .option("--depth <n>", "hits retrieved per query (MRR, ToolGen NDCG); default max(k, 5)")
    .option("--k1 <x>", "BM25 k1", "1.2")
    .option("--b <x>", "BM25 b (textbook: 0.75)", "0.9")
    .option("--no-stem", "no Porter stemming in the BM25 tokenizer (textbook BM25)")
    .option("--no-stopwords", "keep English stopwords (textbook BM25)")
    .option("--document <format>", `indexed text (${DOCUMENT_FORMATS.join(", ")})`, "toolgen")
    .option("--split <part>", "evaluate on the train or dev part of each query file (seeded 80/20 split)")
    .option("--seed <n>", "split seed", "1")
    .option("--report <file>", "also write the report (.md Markdown, .json JSON)")
    .option("--json", "print one JSON object")
    .action(runAction(runRetrieval));
  registerBfcl(evalCmd);
  evalCmd
    .command("split")
    .description(
      "seeded train/dev split of a query file (80/20 by default; MetaTool CSV stays CSV, others JSONL)",
    )
    .requiredOption("--queries <file>", "query file")
    .requiredOption("--train-out <file>", "where the train part goes")
    .requiredOption("--dev-out <file>", "where the dev part goes")
    .option("--seed <n>", "seed", "1")
    .option("--train-fraction <x>", "share of train rows", "0.8")
    .option("--json", "print one JSON object")
    .action(
      (opts: {
        queries: string;
        trainOut: string;
        devOut: string;
        seed: string;
        trainFraction: string;
        json?: boolean;
      }) => {
        try {
          const seed = Number(opts.seed);
          const result = splitQueryFile(
            opts.queries,
            seed,
            opts.trainOut,
            opts.devOut,
            Number(opts.trainFraction),
          );
          const out = {
            queries: opts.queries,
            seed,
            ...result,
            train_out: opts.trainOut,
            dev_out: opts.devOut,
          };
          process.stdout.write(
            opts.json
              ? JSON.stringify(out) + "\n"
              : `train ${result.train} → ${opts.trainOut}, dev ${result.dev} → ${opts.devOut} (seed ${seed})\n`,
          );
        } catch (error) {
          failWith("eval split", error);
        }
      },
    );
}
