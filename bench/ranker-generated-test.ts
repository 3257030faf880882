/**
 * The ONE test scoring of the dev-selected ranker with generated pseudo-queries (issue 41; bench/ranker-generated.ts
 * chose it on dev and wrote bench/results/ranker-generated-model.json). Scores it, the shipped ranker, and BM25
 * (shipped defaults, and tuned on dev as bench/retrieval.ts tunes it) on the tool-disjoint test splits, with paired
 * randomisation tests on NDCG@5 and McNemar on top-1, Holm over all of them, as bench/retrieval.ts does.
 * Refuses to run twice (a test split is scored once per model): the result file is its record.
 * `npx tsx bench/ranker-generated-test.ts [--generated DIR] [--help]`
 */
import { execSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PairedTests } from "./lib/paired-tests.ts";
import { metaTool, perQuery, stableToolBench, tuneBm25, type Search } from "./lib/tool-disjoint.ts";
import { Bm25Retriever } from "../src/retrieval/bm25.ts";
import { FieldIndex } from "../src/retrieval/bm25f.ts";
import { attachGenerated } from "../src/retrieval/generated-queries.ts";
import {
  RankerRetriever,
  checkRankerModel,
  shippedRanker,
  type RankerModel,
} from "../src/retrieval/ranker.ts";

const OUT = "bench/results/retrieval-generated-test.json";
const USAGE = "usage: npx tsx bench/ranker-generated-test.ts [--generated DIR] (default /tmp/toolgen-de)\n";
const { values } = parseArgs({
  options: { generated: { type: "string", default: "/tmp/toolgen-de" }, help: { type: "boolean" } },
});
// --help reads and scores nothing (the test split is scored once, by the run without it).
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (existsSync(OUT)) throw new Error(`${OUT} exists: this model's test split was scored already`);
const started = new Date().toISOString();
const load = loadavg();
const pct = (x: number): number => Math.round(x * 10000) / 100;
const mean = (xs: readonly number[]): number => pct(xs.reduce((a, c) => a + c, 0) / Math.max(1, xs.length));
const candidate = checkRankerModel(
  JSON.parse(readFileSync("bench/results/ranker-generated-model.json", "utf8")) as RankerModel,
  "ranker-generated-model.json",
);
const { model, associations, vectors } = shippedRanker();
const sets = [metaTool(), stableToolBench()];
const bm25 = tuneBm25(sets);
const paired = new PairedTests();
const results = sets.map((set) => {
  const generated = new Map(
    Object.entries(
      (
        JSON.parse(readFileSync(join(values.generated!, `generated-${set.name}.json`), "utf8")) as {
          generated: Record<string, string[]>;
        }
      ).generated,
    ),
  );
  const withGenerated = new FieldIndex(set.catalog, { associations });
  attachGenerated(withGenerated, generated);
  const plainBm25 = new Bm25Retriever(set.catalog);
  const tunedBm25 = new Bm25Retriever(set.catalog, bm25.best.config);
  const shipped = new RankerRetriever(
    new FieldIndex(set.catalog, { associations }),
    model,
    undefined,
    vectors,
  );
  const gen = new RankerRetriever(withGenerated, candidate, undefined, vectors);
  const systems: [string, Search][] = [
    ["bm25 (shipped defaults)", (q, k) => plainBm25.searchSync(q, { k })],
    ["bm25 (tuned on dev)", (q, k) => tunedBm25.searchSync(q, { k })],
    ["ranker (shipped)", (q, k) => shipped.searchSync(q, { k })],
    ["ranker + generated queries (dev-selected)", (q, k) => gen.searchSync(q, { k })],
  ];
  const scores = systems.map(([name, search]) => ({ name, ndcg: perQuery(search, set.test) }));
  // Each ranker against both BM25s (tuned last, for McNemar), then the candidate against the shipped ranker (the
  // question the rebuild would answer).
  paired.againstBaselines(set.name, scores.slice(2), scores.slice(0, 2));
  paired.randomisation(set.name, scores[3], scores[2]);
  return {
    set: set.name,
    queries: set.test.length,
    ndcg: Object.fromEntries(
      scores.map((s) => [s.name, { ndcg1: mean(s.ndcg[0]), ndcg3: mean(s.ndcg[1]), ndcg5: mean(s.ndcg[2]) }]),
    ),
  };
});
paired.correct();
const tests = paired.tests;
const result = {
  what: "issue 41: the one test scoring of the dev-selected ranker with generated pseudo-queries",
  command: `npx tsx bench/ranker-generated-test.ts ${process.argv.slice(2).join(" ")}`.trim(),
  started,
  finished: new Date().toISOString(),
  revision: execSync("git rev-parse --short HEAD").toString().trim(),
  machine: "2 shared cores",
  load_average_at_start: load,
  candidate: candidate.header,
  results,
  paired_tests: tests,
};
writeFileSync(OUT, JSON.stringify(result, null, 2) + "\n");
process.stdout.write(JSON.stringify(results, null, 2) + "\n");
for (const t of tests) process.stdout.write(`${JSON.stringify(t)}\n`);
