/**
 * Dev-only test of document expansion by generation (issue 41): the ranker with and without the `gen_*` features
 * (src/retrieval/generated-queries.ts), over the pseudo-queries bench/doc-expansion-generate.ts wrote (cross-fitted
 * for train tools, the all-train-tools generator for the rest). Everything else is the shipped ranker's (first
 * stage, associations, word vectors, configuration), cross-fitted as bench/ranker-feature-sets.ts does.
 * `npx tsx bench/ranker-generated.ts [--generated DIR] [--out FILE] [hidden=0,16]`; no test query is read.
 */
import { execSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  crossFit,
  metaTool,
  selectRanker,
  stableToolBench,
  withFoldVectors,
  type AssociationConfig,
  type FeatureSetName,
  type RankerConfig,
  type VectorConfig,
} from "./lib/tool-disjoint.ts";
import { FieldIndex } from "../src/retrieval/bm25f.ts";
import { attachGenerated } from "../src/retrieval/generated-queries.ts";
import { shippedRanker } from "../src/retrieval/ranker.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    generated: { type: "string", default: "/tmp/toolgen-de" },
    out: { type: "string", default: "bench/results/retrieval-generated.json" },
    model: { type: "string", default: "bench/results/ranker-generated-model.json" },
  },
});
const started = new Date().toISOString();
const load = loadavg();
const { model, associations, vectors } = shippedRanker();
const header = model.header as { config: RankerConfig; vectors: VectorConfig };
const assocOptions = (associations.header as { options: AssociationConfig }).options;
const sets = [metaTool(), stableToolBench()];
const plain = sets.map((s) => new FieldIndex(s.catalog));
const expanded = sets.map((s) => new FieldIndex(s.catalog, { associations }));
const fit = withFoldVectors(sets, plain, crossFit(sets, plain, assocOptions), header.vectors);
const files = sets.map((s) => {
  const file = JSON.parse(readFileSync(join(values.generated!, `generated-${s.name}.json`), "utf8")) as {
    generated: Record<string, string[]>;
    settings: unknown;
    generators: unknown;
    seconds: number;
  };
  return file;
});
sets.forEach((_s, i) => {
  const generated = new Map(Object.entries(files[i].generated));
  attachGenerated(expanded[i], generated);
  for (const k of [0, 1]) attachGenerated(fit.indexes[k][i], generated);
});
const hiddens = (positionals.find((a) => a.startsWith("hidden="))?.slice(7) ?? `${header.config.hidden}`)
  .split(",")
  .map(Number);
const featureSets: FeatureSetName[] = ["ql_prefix", "ql_prefix_gen"];
const configs: RankerConfig[] = featureSets.flatMap((features) =>
  hiddens.map((hidden) => ({ ...header.config, hidden, features })),
);
const {
  tried,
  best,
  model: chosen,
} = selectRanker(sets, fit, expanded, model.bm25f, vectors, () => ({}), configs);
for (const t of tried) process.stdout.write(`${JSON.stringify(t)}\n`);
// The dev-selected model, kept for its one test scoring (bench/ranker-generated-test.ts) when it reads gen_*.
if (best.config.features === "ql_prefix_gen")
  writeFileSync(
    values.model!,
    JSON.stringify({ ...chosen, header: { config: best.config, dev_ndcg5: best.dev_ndcg5 } }) + "\n",
  );
const revision = execSync("git rev-parse --short HEAD").toString().trim();
writeFileSync(
  values.out!,
  JSON.stringify(
    {
      what: "issue 41: ranker with generated pseudo-queries (gen_*) vs without, dev only (mean dev NDCG@5 per set)",
      command: `npx tsx bench/ranker-generated.ts ${process.argv.slice(2).join(" ")}`.trim(),
      started,
      finished: new Date().toISOString(),
      revision,
      machine: "2 shared cores",
      load_average_at_start: load,
      generator: sets.map((s, i) => ({
        set: s.name,
        settings: files[i].settings,
        generators: files[i].generators,
        seconds: files[i].seconds,
      })),
      tried,
      best,
    },
    null,
    2,
  ) + "\n",
);
