/**
 * BM25 index build time, memory and query latency on the shared 2,479-API StableToolBench catalog and on a
 * 47,000-API catalog synthesised deterministically from it (seeded word drops + a variant tag per copy).
 * Queries: the 704 StableToolBench test queries. Run: npm run bench:retrieval.
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { writeBenchResult } from "./lib/result.ts";
import type { CatalogEntry } from "../src/catalog/catalog.ts";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import { quantile } from "../src/eval/metrics.ts";
import { mulberry32 } from "../src/eval/split.ts";
import { Bm25Retriever } from "../src/retrieval/bm25.ts";
import { SHARED_DATA } from "../test/helpers/shared-data.ts";

const DIR = join(SHARED_DATA, "stabletoolbench");
const SYNTHETIC_SIZE = 47_000;
const ROUNDS = 5;

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Copies of the catalog with seeded word drops, so each copy has its own (realistic) text and id. */
function synthesize(base: readonly CatalogEntry[], size: number): CatalogEntry[] {
  const rand = mulberry32(47);
  const out: CatalogEntry[] = [];
  for (let copy = 0; out.length < size; copy++) {
    for (const entry of base) {
      if (out.length >= size) break;
      const words = entry.description.split(/\s+/).filter(() => copy === 0 || rand() > 0.2);
      const tool = copy === 0 ? entry.tool : `${entry.tool} v${copy}`;
      out.push({
        ...entry,
        id: `${tool}&&${entry.api}`,
        tool,
        description: words.join(" "),
        doc: { ...(entry.doc as object), tool_name: tool, api_description: words.join(" ") },
      });
    }
  }
  return out;
}

function measure(
  name: string,
  catalog: readonly CatalogEntry[],
  queries: readonly string[],
): Record<string, unknown> {
  gc();
  const memory = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const before = memory();
  const start = performance.now();
  const bm25 = new Bm25Retriever(catalog);
  const buildMs = performance.now() - start;
  gc();
  const indexBytes = memory() - before;
  for (const q of queries) bm25.searchSync(q, { k: 5 }); // warm-up
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of queries) {
      const t = performance.now();
      bm25.searchSync(q, { k: 5 });
      times.push(performance.now() - t);
    }
  }
  const round3 = (x: number): number => Math.round(x * 1000) / 1000;
  return {
    catalog: name,
    apis: catalog.length,
    terms: bm25.vocabularySize,
    build_ms: round3(buildMs),
    index_memory_mb: Math.round((indexBytes / 2 ** 20) * 10) / 10,
    queries: times.length,
    p50_ms: round3(quantile(times, 0.5)),
    p95_ms: round3(quantile(times, 0.95)),
    max_ms: round3(Math.max(...times)),
  };
}

const loadBefore = loadavg()[0];
try {
  const base = loadCatalog(join(DIR, "apis.json"));
  const files = ["G1_instruction", "G1_category", "G1_tool", "G2_instruction", "G2_category"];
  const queries = files.flatMap((f) => loadQueries(join(DIR, `${f}.json`), base)).map((q) => q.query);
  const small = measure("stabletoolbench/apis.json", base, queries);
  const large = measure(`synthetic ${SYNTHETIC_SIZE} (seed 47)`, synthesize(base, SYNTHETIC_SIZE), queries);
  writeBenchResult("retrieval", "npm run bench:retrieval", {
    // The machine is shared (2 cores); the 1-minute load average says how contended the run was.
    load_average_1m: [loadavg()[0], "before", loadBefore],
    gc_exposed: typeof (globalThis as { gc?: unknown }).gc === "function",
    bm25: { k1: 1.2, b: 0.9, stem: true, stopwords: "english", document: "toolgen", k: 5 },
    results: [small, large],
    goal_p50_ms_at_47k: 1,
    goal_met: (large.p50_ms as number) <= 1,
  });
} catch (error) {
  process.stderr.write(`bench:retrieval needs ../shared/data/stabletoolbench: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
