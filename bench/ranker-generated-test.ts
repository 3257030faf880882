/**
 * The ONE test scoring of the dev-selected ranker with generated pseudo-queries (issue 41; bench/ranker-generated.ts
 * chose it on dev and wrote bench/results/ranker-generated-model.json). Scores it, the shipped ranker, and BM25
 * (shipped defaults, and tuned on dev as bench/retrieval.ts tunes it) on the tool-disjoint test splits, with paired
 * randomisation tests on NDCG@5 and McNemar on top-1, Holm over all of them, as bench/retrieval.ts does.
 * Refuses to run twice (a test split is scored once per model): the result file is its record.
 * `npx tsx bench/ranker-generated-test.ts [--generated DIR]`
 */
import { execSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  SPLIT_SEED,
  metaTool,
  perQuery,
  stableToolBench,
  tuneBm25,
  type Search,
} from "./lib/tool-disjoint.ts";
import { holm, pairedTop1 } from "../src/eval/paired.ts";
import { pairedRandomization } from "../src/eval/paired-randomization.ts";
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
const { values } = parseArgs({ options: { generated: { type: "string", default: "/tmp/toolgen-de" } } });
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
const tests: Record<string, unknown>[] = [];
const pValues: number[] = [];
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
  const [plain, tuned] = scores;
  for (const system of scores.slice(2)) {
    for (const baseline of [plain, tuned]) {
      const r = pairedRandomization(system.ndcg[2], baseline.ndcg[2], { seed: SPLIT_SEED, rounds: 20_000 });
      tests.push({
        set: set.name,
        test: "randomisation, NDCG@5",
        system: system.name,
        baseline: baseline.name,
        difference_points: pct(r.difference),
        p: r.p,
      });
      pValues.push(r.p);
    }
    const top1 = pairedTop1(
      system.ndcg[0].map((x) => x === 1),
      tuned.ndcg[0].map((x) => x === 1),
    );
    tests.push({
      set: set.name,
      test: "McNemar, top-1",
      system: system.name,
      baseline: tuned.name,
      only_system: top1.onlyA,
      only_baseline: top1.onlyB,
      p: top1.p,
    });
    pValues.push(top1.p);
  }
  // The candidate against the shipped ranker (the question the rebuild would answer).
  const r = pairedRandomization(scores[3].ndcg[2], scores[2].ndcg[2], { seed: SPLIT_SEED, rounds: 20_000 });
  tests.push({
    set: set.name,
    test: "randomisation, NDCG@5",
    system: scores[3].name,
    baseline: scores[2].name,
    difference_points: pct(r.difference),
    p: r.p,
  });
  pValues.push(r.p);
  return {
    set: set.name,
    queries: set.test.length,
    ndcg: Object.fromEntries(
      scores.map((s) => [s.name, { ndcg1: mean(s.ndcg[0]), ndcg3: mean(s.ndcg[1]), ndcg5: mean(s.ndcg[2]) }]),
    ),
  };
});
holm(pValues).forEach((p, i) => (tests[i].p_holm = p));
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
