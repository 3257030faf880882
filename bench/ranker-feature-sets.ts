/**
 * Dev-only comparison of the ranker's feature sets (bench/lib/tool-disjoint.ts FEATURE_SETS) before the full
 * rebuild: `npx tsx bench/ranker-feature-sets.ts [configs]` (about 5 min on 2 shared cores; progress on stderr).
 * It reuses the shipped first stage, associations and word vectors (the deterministic output of
 * bench/train-ranker.ts, so the same as a rebuild gives), cross-fits as the rebuild does, trains each feature
 * set with the shipped ranker's configuration (or every ranker configuration with `all-configs`, or other settings
 * with `l2=0.03,0.1`, `hidden=4,8`, `dense=0,30`, `synth=0,0.5` (synthetic questions over the train tools, their
 * share of each set's weight), `normalize=none,both` (features also standardised per query), `interact=none,
 * query_terms_log` (features also times the query's length), `seeds=1,5` (an ensemble of that many seeds' models,
 * scores averaged; the seeds' models are trained once and shared)) and prints mean
 * dev NDCG@5 per set. No test query is read.
 */
import {
  FEATURE_SETS,
  crossFit,
  metaTool,
  rankerConfigs,
  selectRanker,
  stableToolBench,
  withFoldVectors,
  type AssociationConfig,
  type FeatureSetName,
  type RankerConfig,
  type VectorConfig,
} from "./lib/tool-disjoint.ts";
import { FieldIndex } from "../src/retrieval/bm25f.ts";
import type { RankerFeature } from "../src/retrieval/ranker-features.ts";
import { shippedRanker } from "../src/retrieval/ranker.ts";

const { model, associations, vectors } = shippedRanker();
const header = model.header as { config: RankerConfig; vectors: VectorConfig };
const assocOptions = (associations.header as { options: AssociationConfig }).options;
const sets = [metaTool(), stableToolBench()];
const plain = sets.map((s) => new FieldIndex(s.catalog));
const expanded = sets.map((s) => new FieldIndex(s.catalog, { associations }));
const fit = withFoldVectors(sets, plain, crossFit(sets, plain, assocOptions), header.vectors);
const base = { ...header.config };
const names = (process.argv[2] ?? Object.keys(FEATURE_SETS).join(",")).split(",") as FeatureSetName[];
/** `key=a,b`: the values to try for one setting (absent: the shipped ranker's). */
const listed = (key: string): string[] | undefined =>
  process.argv
    .find((a) => a.startsWith(`${key}=`))
    ?.slice(key.length + 1)
    .split(",");
const values = (key: "l2" | "hidden" | "dense" | "synth" | "seeds"): number[] =>
  listed(key)?.map(Number) ?? [base[key] ?? (key === "seeds" ? 1 : 0)];
const interactions = (listed("interact") ?? [base.interact ?? "none"]).map((f) =>
  f === "none" ? undefined : (f as RankerFeature),
);
const normalizations = (listed("normalize") ?? [base.normalize ?? "none"]).map((n) =>
  n === "both" ? ("both" as const) : undefined,
);
const configs: RankerConfig[] = process.argv.includes("all-configs")
  ? names.flatMap((features) => rankerConfigs().map((c) => ({ ...c, features })))
  : names.flatMap((features) =>
      values("hidden").flatMap((hidden) =>
        values("dense").flatMap((dense) =>
          values("synth").flatMap((synth) =>
            normalizations.flatMap((normalize) =>
              interactions.flatMap((interact) =>
                values("seeds").flatMap((seeds) =>
                  values("l2").map((l2) => ({
                    ...base,
                    hidden,
                    dense,
                    l2,
                    features,
                    ...(synth > 0 ? { synth } : {}),
                    ...(normalize ? { normalize } : {}),
                    ...(interact ? { interact } : {}),
                    ...(seeds > 1 ? { seeds } : {}),
                  })),
                ),
              ),
            ),
          ),
        ),
      ),
    );
const { tried } = selectRanker(sets, fit, expanded, model.bm25f, vectors, () => ({}), configs);
for (const t of tried) process.stdout.write(`${JSON.stringify(t)}\n`);
