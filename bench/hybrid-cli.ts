// The hybrid as a user gets it: a model folder trained by `toolgen train` (which holds out its own dev queries and
// writes the gate) scored by `toolgen eval retrieval --retriever toolgen | ranker | bm25 | hybrid` on held-out
// queries the training never saw. Runs the four CLI commands and writes bench/results/hybrid-cli.json (or NAME.json)
// with the figures, the training command given, the model's dev split and gate, and the commands run.
// hybrid_minus_better_part compares the hybrid with the better of ToolGen and the lexical part its gate names
// (the ranker, the default retriever, for gates since f02bffa; BM25 for older ones); BM25 is scored for reading.
//
//   npx tsx bench/hybrid-cli.ts --catalog FILE --queries TEST.csv --model DIR --train "the toolgen train command"
//     [--split "the eval split command"] [--name hybrid-cli] [--label metatool]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { readGate } from "../src/retrieval/hybrid-gate.ts";
import { writeBenchResult } from "./lib/result.ts";

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : fallback;
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}

const [catalog, queries, model] = [arg("catalog"), arg("queries"), arg("model")];
const label = arg("label", "run");
const name = arg("name", "hybrid-cli");
const load = { before: loadavg()[0] };
const figures: Record<string, Record<string, number>> = {};
const commands: string[] = [];
for (const retriever of ["toolgen", "ranker", "bm25", "hybrid"]) {
  const args = ["eval", "retrieval", "--catalog", catalog, "--queries", queries, "--retriever", retriever];
  if (retriever === "toolgen" || retriever === "hybrid") args.push("--model", model);
  args.push("--json");
  commands.push(`node bin/toolgen.mjs ${args.join(" ")}`);
  const out = execFileSync("node", ["bin/toolgen.mjs", ...args], { encoding: "utf8" });
  const all = JSON.parse(out) as Record<string, number>;
  figures[retriever] = Object.fromEntries(
    ["ndcg@1", "ndcg@3", "ndcg@5", "recall@5", "mrr", "queries", "p50_ms"].map((k) => [k, all[k]!]),
  );
}
const manifest = JSON.parse(readFileSync(join(model, "toolgen.json"), "utf8")) as Record<string, unknown>;
const done = (manifest.done as Array<Record<string, unknown>>).map((r) => ({
  stage: r.stage,
  epochs: r.epochs,
  steps: r.steps,
  seconds: r.seconds,
}));
// The gate `--retriever hybrid` reads (toolgen-gate.json) names its lexical part; an older gate without one is BM25.
const gateFile = readGate(model);
const lexical = gateFile?.lexical ?? "bm25";
if (figures[lexical] === undefined) throw new Error(`the gate's lexical part ${lexical} was not scored`);
const best = (k: string) => Math.max(figures.toolgen![k]!, figures[lexical]![k]!);
writeBenchResult(name, process.argv.slice(2).join(" "), {
  label,
  load_1min: { before: load.before, after: loadavg()[0] },
  split_command: process.argv.includes("--split") ? arg("split") : undefined,
  train_command: arg("train"),
  eval_commands: commands,
  model: {
    dir: model,
    fingerprint: manifest.fingerprint,
    stages: done,
    dev: manifest.dev,
    gate: manifest.gate,
    // JSON has no ±Infinity: a threshold that opens or shuts the gate for every query is written as text.
    gate_file: gateFile && {
      ...gateFile,
      threshold: Number.isFinite(gateFile.threshold) ? gateFile.threshold : String(gateFile.threshold),
    },
  },
  figures,
  hybrid_lexical_part: lexical,
  hybrid_minus_better_part: Object.fromEntries(
    ["ndcg@1", "ndcg@5"].map((k) => [k, Math.round((figures.hybrid![k]! - best(k)) * 100) / 100]),
  ),
});
