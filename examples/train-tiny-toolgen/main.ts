// Train a tiny ToolGen model (one token per tool) on a 12-tool catalog in seconds, then retrieve with it.
//   npx tsx --conditions toolgen-source examples/train-tiny-toolgen/main.ts [OUT_DIR]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRetriever } from "toolgen";
import { trainToolGen } from "toolgen/train";
import { CATALOG, HELD_OUT, TRAIN_QUERIES } from "./catalog.ts";

// Without a folder on the command line, a temporary one, removed at the end.
const out = process.argv[2] ?? mkdtempSync(join(tmpdir(), "toolgen-tiny-"));
if (process.argv[2] === undefined) process.once("exit", () => rmSync(out, { recursive: true, force: true }));
const started = performance.now();
// The paper's first two stages: memorisation (tool document → tool token), then retrieval (question → token).
// The schedule and model are far smaller than the "tiny" preset's, so that this runs in seconds; running it
// again with the same OUT_DIR resumes and finds every stage done.
const manifest = await trainToolGen({
  catalog: CATALOG,
  queries: TRAIN_QUERIES,
  out,
  preset: "tiny",
  seed: 1,
  progress: false,
  log: () => {},
  schedule: {
    tokenizerVocab: 300,
    batchSize: 16,
    stages: {
      memorization: { epochs: 32 },
      retrieval: { epochs: 60, lr: 3e-3, tokenDropout: 0, userLoss: false },
    },
  },
  config: { hiddenSize: 64, intermediateSize: 160, numLayers: 2, numHeads: 2, maxPositions: 64 },
});
for (const stage of manifest.done) {
  const curve = stage.lossCurve ?? [];
  console.log(
    `${stage.stage}: ${stage.steps} steps, loss ${curve[0]?.loss.toFixed(2)} → ${curve.at(-1)?.loss.toFixed(2)}`,
  );
}
const kept = process.argv[2] === undefined ? " (temporary)" : "";
console.log(
  `trained in ${((performance.now() - started) / 1000).toFixed(1)} s; model folder: ${out}${kept}\n`,
);

// The trained folder is a retriever: it writes one tool token, constrained to the catalog's tokens.
const retriever = await createRetriever("toolgen", { catalog: CATALOG, model: `builtin:${out}` });
for (const [name, queries] of [
  ["training", TRAIN_QUERIES],
  ["held-out", HELD_OUT],
] as const) {
  let right = 0;
  for (const { query, relevant } of queries)
    if ((await retriever.search(query, { k: 1 }))[0]?.id === relevant[0]) right++;
  console.log(`${name} questions: ${right}/${queries.length} right at rank 1`);
}
for (const { query } of HELD_OUT.slice(0, 3)) {
  const hits = await retriever.search(query, { k: 3 });
  console.log(`  "${query}" → ${hits.map((h) => `${h.id} (${h.score.toFixed(2)})`).join(", ")}`);
}
