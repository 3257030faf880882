/**
 * The heap an index holds, measured in a process of its own: `bench/retrieval.ts` runs this file once per
 * (retriever, catalog) with `--expose-gc`, so no garbage from the bench's other work can be collected between the
 * two readings (in one process, a build that triggered the collection of the quality part's garbage read as
 * -709.5 MB). Each reading follows forced collections repeated until the heap stops falling. Prints one JSON
 * object: { bytes } (the index kept alive until after the second reading).
 *
 * `tsx --expose-gc bench/lib/index-memory.ts <bm25|bm25f|ranker> <apis>`: the StableToolBench catalog, or the
 * synthetic catalog of that many APIs grown from it (bench/lib/synthetic-catalog.ts) when <apis> exceeds it.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { synthesize } from "./synthetic-catalog.ts";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { loadCatalog } from "../../src/catalog/load.ts";
import { Bm25Retriever } from "../../src/retrieval/bm25.ts";
import { Bm25fRetriever } from "../../src/retrieval/bm25f.ts";
import { RankerRetriever } from "../../src/retrieval/ranker.ts";
import { SHARED_DATA } from "../../test/helpers/shared-data.ts";

export const BUILDERS = {
  bm25: (c: readonly CatalogEntry[]): unknown => new Bm25Retriever(c),
  bm25f: (c: readonly CatalogEntry[]): unknown => new Bm25fRetriever(c),
  ranker: (c: readonly CatalogEntry[]): unknown => new RankerRetriever(c),
} as const;
export type BuilderName = keyof typeof BUILDERS;

const SELF = fileURLToPath(import.meta.url);
const MAX_COLLECTIONS = 10;

/** Heap and array buffers after forced collections, repeated until a collection frees under 64 kB. */
function settled(gc: () => void): number {
  const used = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  let last = Infinity;
  for (let i = 0; i < MAX_COLLECTIONS; i++) {
    gc();
    const now = used();
    if (last - now < 65_536) return now;
    last = now;
  }
  return last;
}

/**
 * Runs this file in a fresh Node process (the same loader flags as this one, plus --expose-gc) and returns the
 * bytes the index holds; throws if the child fails or its reading is negative, so a wrong figure is never written.
 */
export function indexMemoryBytes(retriever: BuilderName, apis: number): number {
  const flags = process.execArgv.includes("--expose-gc")
    ? process.execArgv
    : [...process.execArgv, "--expose-gc"];
  const run = spawnSync(process.execPath, [...flags, SELF, retriever, String(apis)], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (run.status !== 0) throw new Error(`index-memory ${retriever} ${apis} failed: ${run.stderr}`);
  const { bytes } = JSON.parse(run.stdout.trim().split("\n").pop()!) as { bytes: number };
  if (!(bytes >= 0)) throw new Error(`index-memory ${retriever} ${apis}: ${bytes} bytes (not a size)`);
  return bytes;
}

if (process.argv[1] === SELF) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("index-memory needs --expose-gc");
  const name = process.argv[2] as BuilderName;
  const apis = Number(process.argv[3]);
  if (!(name in BUILDERS) || !Number.isInteger(apis))
    throw new Error("usage: index-memory <bm25|bm25f|ranker> <apis>");
  const base = loadCatalog(join(SHARED_DATA, "stabletoolbench", "apis.json"));
  const catalog = apis > base.length ? synthesize(base, apis) : base;
  const before = settled(gc);
  const index = BUILDERS[name](catalog);
  const after = settled(gc);
  process.stdout.write(`${JSON.stringify({ bytes: after - before, built: index !== undefined })}\n`);
}
