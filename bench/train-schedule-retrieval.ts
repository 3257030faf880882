/**
 * The tiny schedule's retrieval stage alone, from a memorized model folder, at a chosen number of epochs and
 * user-loss fraction: for comparing retrieval-stage variants at an equal budget without repeating the
 * memorization (issue 40: the user loss makes a retrieval step 1.6× dearer). The stage is the one `toolgen train`
 * runs (bench/lib/retrieval-stage.ts: same samples, dev hold-out, seed and schedule); the memorized folder is
 * copied to --out and its weights replaced by the trained ones, so `toolgen eval retrieval --retriever toolgen
 * --model OUT` scores it. Writes OUT/retrieval-run.json (steps, seconds, mean head rows per step, final loss).
 *   toolgen train --catalog C --queries Q --out MEM --preset tiny --stages memorization   (once)
 *   npx tsx bench/train-schedule-retrieval.ts --model MEM --catalog C --queries Q --out OUT
 *     [--epochs 16] [--user-loss-fraction 1 [--reweight] | --user-loss-samples K] [--seed-offset 0]
 * --seed-offset adds to the stage's seed (another draw of batches, dropout and samples from the same start).
 */
import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import { DEFAULT_DEV_FRACTION } from "../src/cli/train-toolgen.ts";
import { writeFileAtomic } from "../src/io/atomic.ts";
import { loadCheckpoint, saveCheckpoint } from "../src/nn/checkpoint.ts";
import { kernels } from "../src/nn/kernels/index.ts";
import { train } from "../src/nn/train/trainer.ts";
import { readManifest, readToolIndex } from "../src/toolgen/model-folder.ts";
import { splitDev } from "../src/train/dev-split.ts";
import { countHeadRows, retrievalStage } from "./lib/retrieval-stage.ts";

const argv = process.argv.slice(2);
function fail(message: string): never {
  process.stderr.write(`train-schedule-retrieval: ${message}\n`);
  process.exit(1);
}
const option = (name: string, fallback?: string): string => {
  const i = argv.indexOf(name);
  const v = i >= 0 ? argv[i + 1] : fallback;
  return v ?? fail(`${name} is required`);
};
const dir = option("--model");
const out = option("--out");
const epochs = Number(option("--epochs", "16"));
const fraction = Number(option("--user-loss-fraction", "1"));
const reweight = argv.includes("--reweight");
const samplesText = option("--user-loss-samples", "");
const userLossSamples = samplesText === "" ? undefined : Number(samplesText);
const seedOffset = Number(option("--seed-offset", "0"));
if (userLossSamples !== undefined && !(Number.isInteger(userLossSamples) && userLossSamples > 0))
  fail(`--user-loss-samples must be a positive integer, got ${samplesText}`);
if (!Number.isInteger(seedOffset)) fail(`--seed-offset must be an integer, got ${seedOffset}`);
if (!(epochs > 0)) fail(`--epochs must be positive, got ${epochs}`);
if (!(fraction > 0 && fraction <= 1)) fail(`--user-loss-fraction must be in (0, 1], got ${fraction}`);
if (existsSync(out)) fail(`${out} exists; choose a new --out`);
const catalog = loadCatalog(option("--catalog"));
const allQueries = loadQueries(option("--queries"), catalog);
const manifest = readManifest(dir);
if (!manifest?.done.some((r) => r.stage === "memorization")) fail(`${dir}: no memorized model`);
// the hold-out `toolgen train` makes by default: the retrieval stage trains on the rest
const split = splitDev(catalog, allQueries, {
  fraction: DEFAULT_DEV_FRACTION,
  toolsFraction: "auto",
  seed: manifest.seed,
});
const { model, tokenizer } = loadCheckpoint(dir);
const stage = retrievalStage(model, tokenizer!, manifest, split.train, readToolIndex(dir), true, {
  epochs,
  ...(fraction < 1 ? { userLossFraction: fraction, userLossReweight: reweight } : {}),
  ...(userLossSamples !== undefined ? { userLossSamples } : {}),
});
const head = countHeadRows(model);
process.stderr.write(
  `train-schedule-retrieval: ${stage.samples.length} samples, ${stage.total} steps, ` +
    `user-loss fraction ${fraction}${reweight ? " reweighted" : ""}` +
    `${userLossSamples !== undefined ? `, sampled user loss (${userLossSamples} drawn)` : ""}, ` +
    `seed offset ${seedOffset}, kernels ${kernels().name}\n`,
);
const started = performance.now();
const cpuStart = process.cpuUsage();
let lastLoss = NaN;
const options = stage.options(new AbortController().signal);
await train(model, stage.data, {
  ...options,
  seed: options.seed + seedOffset,
  onStep: (info) => {
    lastLoss = info.loss;
    if (info.step % 100 === 0 || info.step === info.steps)
      process.stderr.write(
        `step ${info.step}/${info.steps} loss ${info.loss.toFixed(4)} ` +
          `${((performance.now() - started) / 1000).toFixed(0)} s\n`,
      );
  },
});
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStart);
cpSync(dir, out, { recursive: true });
model.releaseWorkspace();
saveCheckpoint(out, model, { tokenizer });
const record = {
  command: `npx tsx bench/train-schedule-retrieval.ts ${argv.join(" ")}`,
  memorized: dir,
  samples: stage.samples.length,
  epochs,
  userLossFraction: fraction,
  userLossReweight: reweight,
  ...(userLossSamples !== undefined ? { userLossSamples } : {}),
  seed: options.seed + seedOffset,
  steps: stage.total,
  seconds: Math.round(seconds * 10) / 10,
  cpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
  stepsPerSecond: Math.round((stage.total / seconds) * 100) / 100,
  headRowsPerStep: Math.round(head.rows / stage.total),
  finalLoss: lastLoss,
  kernelThreads: process.env.TOOLGEN_KERNEL_THREADS ?? "default",
};
writeFileAtomic(join(out, "retrieval-run.json"), JSON.stringify(record, null, 2) + "\n");
process.stdout.write(JSON.stringify(record) + "\n");
process.exit(0);
