/**
 * Rebuilds src/retrieval/ranker-weights.json, ranker-associations.json and ranker-vectors.json, the ranker that
 * `toolgen retrieve`, `toolgen serve mcp` and `toolgen eval retrieval` use by default:
 * `npx tsx bench/train-ranker.ts` (5 min wall and CPU on 2 shared cores; progress on stderr).
 *
 * Data: ../shared/data MetaTool (tools.json, queries.csv) and StableToolBench (apis.json, G1/G2), split by tool
 * (bench/lib/tool-disjoint.ts, seed 41). BM25F's parameters are chosen on dev among 48 seeded configurations; the
 * word vectors learn from every tool document and the train tools' queries, their setting chosen on dev among 3;
 * the ranker is trained on the train tools' queries only, its configuration chosen on dev among 5 over the feature
 * set that bench/ranker-feature-sets.ts chose on dev (SHIPPED_FEATURE_SET), then SHIPPED_SEEDS seeds of the best
 * with hidden units averaged, kept if better on dev (19 min on a loaded machine). No dev or test
 * query is learnt from, and no test query (MetaTool test tools, StableToolBench G2) is read. The files' headers
 * record all of this.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  SEARCH_SEED,
  SPLIT_SEED,
  TRAIN_SEED,
  crossFit,
  learnFrom,
  metaTool,
  SHIPPED_SEEDS,
  rankerConfigs,
  selectRanker,
  selectVectors,
  stableToolBench,
  tuneAssociations,
  tuneBm25f,
  tuneFirstStage,
  type DataSet,
} from "./lib/tool-disjoint.ts";
import { FieldIndex } from "../src/retrieval/bm25f.ts";
import type { RankerModel } from "../src/retrieval/ranker.ts";
import type { TermAssociations } from "../src/retrieval/term-associations.ts";
import { wordVectorsFile, type WordVectors } from "../src/retrieval/word-vectors.ts";

export const WEIGHTS_FILE = fileURLToPath(new URL("../src/retrieval/ranker-weights.json", import.meta.url));
export const ASSOCIATIONS_FILE = fileURLToPath(
  new URL("../src/retrieval/ranker-associations.json", import.meta.url),
);
export const VECTORS_FILE = fileURLToPath(new URL("../src/retrieval/ranker-vectors.json", import.meta.url));

export interface RankerBuild {
  sets: DataSet[];
  /** Per set: the schema-only index, and the one expanded with the associations learnt on all train tools. */
  plain: FieldIndex[];
  expanded: FieldIndex[];
  associations: TermAssociations;
  bm25f: ReturnType<typeof tuneBm25f>;
  associationSearch: ReturnType<typeof tuneAssociations>;
  firstStage: ReturnType<typeof tuneFirstStage>;
  vectorSearch: ReturnType<typeof selectVectors>;
  vectors: WordVectors;
  ranker: ReturnType<typeof selectRanker>;
}

const DATA =
  "../shared/data: metatool/tools.json + queries.csv; stabletoolbench/apis.json + G1_*.json (G2 held out)";

/** The vectors file as written (int8 in base64; the numbers rounded so a rebuild gives the same bytes). */
export function vectorsText(vectors: WordVectors): string {
  return JSON.stringify(wordVectorsFile(vectors)) + "\n";
}

/** The whole dev-only pipeline; deterministic (the seeds above), so a rebuild gives the same files. */
export function buildRanker(): RankerBuild {
  const sets = [metaTool(), stableToolBench()];
  const plain = sets.map((s) => new FieldIndex(s.catalog));
  const bm25f = tuneBm25f(sets, plain);
  const associationSearch = tuneAssociations(sets, plain, bm25f.best.config);
  const chosen = associationSearch.best.config;
  const associations = learnFrom(
    sets,
    sets.map((s) => s.train),
    plain,
    chosen,
    {
      command: "npx tsx bench/train-ranker.ts",
      data: DATA,
      learnt_from: "the train tools' queries (split seed 41); no dev or test query",
      options: chosen,
    },
  );
  const expanded = sets.map((s) => new FieldIndex(s.catalog, { associations }));
  const firstStage = tuneFirstStage(sets, expanded, bm25f.best.config);
  const vectorSearch = selectVectors(
    sets,
    plain,
    crossFit(sets, plain, chosen),
    expanded,
    firstStage.best.config,
    {
      command: "npx tsx bench/train-ranker.ts",
      data: DATA,
      learnt_from:
        "every tool document of both catalogs (test tools' documents included) and the train tools' queries " +
        "(split seed 41); no dev or test query",
    },
  );
  const { vectors, fit } = vectorSearch;
  const ranker = selectRanker(
    sets,
    fit,
    expanded,
    firstStage.best.config,
    vectors,
    (config) => ({
      command: "npx tsx bench/train-ranker.ts",
      data: DATA,
      split: Object.fromEntries(sets.map((s) => [s.name, s.split])),
      seeds: { split: SPLIT_SEED, bm25f_search: SEARCH_SEED, training: TRAIN_SEED },
      trained_on:
        "train tools' queries only; BM25F, the word vectors and this configuration chosen by mean dev NDCG@5",
      vectors: vectorSearch.best.config,
      config,
    }),
    rankerConfigs(),
    SHIPPED_SEEDS,
  );
  return {
    sets,
    plain,
    expanded,
    associations,
    bm25f,
    associationSearch,
    firstStage,
    vectorSearch,
    vectors,
    ranker,
  };
}

/** The selected model with its dev figures in the header. */
export function rankerFile(ranker: RankerBuild["ranker"]): RankerModel {
  return { ...ranker.model, header: { ...ranker.model.header, dev_ndcg5: ranker.best.dev_ndcg5 } };
}

/** The file as written: stable key order, numbers already rounded by the trainer. */
export function weightsText(model: RankerModel): string {
  return JSON.stringify(model) + "\n";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { bm25f, associationSearch, firstStage, vectorSearch, vectors, ranker, associations } = buildRanker();
  writeFileSync(WEIGHTS_FILE, weightsText(rankerFile(ranker)));
  writeFileSync(ASSOCIATIONS_FILE, JSON.stringify(associations) + "\n");
  writeFileSync(VECTORS_FILE, vectorsText(vectors));
  process.stdout.write(
    `BM25F: ${JSON.stringify(bm25f.best)}\nassociations: ${JSON.stringify(associationSearch.best)}\n` +
      `first stage: ${JSON.stringify(firstStage.best)}\n` +
      `vectors: ${JSON.stringify(vectorSearch.tried)}\n` +
      `ranker: ${JSON.stringify(ranker.best)}\nwrote ${WEIGHTS_FILE}, ${ASSOCIATIONS_FILE} and ${VECTORS_FILE}\n`,
  );
}
