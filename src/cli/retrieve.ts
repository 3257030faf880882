import type { Command } from "commander";
import { CATALOG_FORMATS, loadCatalog, type CatalogFormat } from "../catalog/load.ts";
import { createRetriever } from "../retrieval/create.ts";
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

/** `toolgen retrieve "QUERY" --catalog F [-k 5] [--json]`: the top catalog entries for one query. */
export function register(program: Command): void {
  program
    .command("retrieve")
    .description("the catalog entries that best match a query")
    .argument("<query>", "what the user asks")
    .requiredOption("--catalog <file>", "catalog file or folder (format recognised from the file)")
    .option("--format <name>", `force the catalog format (${CATALOG_FORMATS.join(", ")})`)
    .option(...RETRIEVER_OPTION)
    .option("--model <spec>", "model for toolgen/hybrid (DIR, builtin:DIR, gguf:FILE)")
    .option(...ALLOW_UNFINISHED)
    .option("-k, --k <n>", "how many results", "5")
    .option(...BM25_OPTIONS[0])
    .option(...BM25_OPTIONS[1])
    .option(...BM25_OPTIONS[2])
    .option(...BM25_OPTIONS[3])
    .option(...BM25_OPTIONS[4])
    .option("--json", 'print one JSON object: {"query", "results": [{"id", "score"}]}')
    .action(
      runAction(async (query: string, opts: RetrieverCliOptions & { k: string; json?: boolean }) => {
        checkBm25Options(opts);
        const [k] = positiveIntegerListOption(opts.k, "-k");
        const catalog = loadCatalog(opts.catalog, { format: opts.format as CatalogFormat | undefined });
        const retriever = await createRetriever(retrieverKind(opts), retrieverOptions(opts, catalog));
        const results = await retriever.search(query, { k });
        process.stderr.write(defaultRetrieverNote(opts, catalog.length));
        if (opts.json) process.stdout.write(JSON.stringify({ query, results }) + "\n");
        else if (results.length === 0) {
          // BM25 scores only documents that share a word with the query; say so instead of printing nothing.
          process.stdout.write(
            `no catalog entry matches ${JSON.stringify(query)} (${catalog.length} searched)\n`,
          );
        } else {
          const byId = new Map(catalog.map((e) => [e.id, e]));
          for (const [i, hit] of results.entries()) {
            const description = byId.get(hit.id)?.description.replace(/\s+/g, " ").slice(0, 100) ?? "";
            process.stdout.write(`${i + 1}. ${hit.id}  (${hit.score.toFixed(3)})  ${description}\n`);
          }
        }
      }),
    );
}
