/**
 * The ToolGen retrieval stage in several variants trained at once in one process, one step of each in turn, so
 * the machine's load (a shared 2-core machine drifts by 2× within minutes) hits every variant alike: tokens/s
 * per window of `--every` steps for each. Variants: `pipeline` (as `toolgen train` runs the stage: the folder's
 * memorized model, user loss on), `saving` (the same, writing a resumable checkpoint every `--every` steps), `nouser` (the same without the user loss: the head at the tool token alone),
 * `thin:F` (the pipeline variant with the user loss thinned to a fraction F of the query's words, `userLossFraction`),
 * `thinw:F` (the same with the kept words' losses weighted 1/F, `userLossReweight`),
 * `sampled:K` (the pipeline variant with the user's words on a sampled softmax: the batch's targets and K ids drawn, `userLossSamples`),
 * `bench` (a freshly initialised model without user loss: bench:engine's stage workload), `state:DIR` (the
 * pipeline variant resumed from a checkpoint engine-drift.ts saved with --save-at: an early and a late state of
 * the stage side by side tell whether a step gets slower as training goes on, apart from the machine's load).
 *   toolgen train --catalog C --queries Q --out DIR --preset tiny --stages memorization   (once)
 *   TOOLGEN_KERNEL_THREADS=1 npx tsx bench/engine-drift-pair.ts --model DIR --catalog C --queries Q
 *     [--variants pipeline,bench|pipeline,thin:0.25|state:DIR1,state:DIR2] [--steps 300] [--every 50]
 * A variant may end in `@clipX`: gradient clipping at norm X instead of the stage's 1 (0: none), e.g.
 * `thinw:0.25@clip0`. Each line also gives the window's mean gradient norm before clipping.
 */
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import { DEFAULT_DEV_FRACTION } from "../src/cli/train-toolgen.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCheckpoint, loadTrainingState, saveCheckpoint } from "../src/nn/checkpoint.ts";
import { kernels } from "../src/nn/kernels/index.ts";
import { initParams } from "../src/nn/params.ts";
import { train } from "../src/nn/train/trainer.ts";
import { readManifest, readToolIndex } from "../src/toolgen/model-folder.ts";
import { splitDev } from "../src/train/dev-split.ts";
import { countHeadRows, retrievalStage } from "./lib/retrieval-stage.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback?: string): string => {
  const i = argv.indexOf(name);
  const v = i >= 0 ? argv[i + 1] : fallback;
  if (v === undefined) {
    process.stderr.write(`engine-drift-pair: ${name} is required\n`);
    process.exit(1);
  }
  return v;
};
const dir = option("--model");
const catalog = loadCatalog(option("--catalog"));
const allQueries = loadQueries(option("--queries"), catalog);
const steps = Number(option("--steps", "300"));
const every = Number(option("--every", "50"));
const variants = option("--variants", "pipeline,bench").split(",");
/** A variant's name without its `@clipX`, and X when given. */
const clipOf = (v: string): { name: string; clip?: number } => {
  const at = v.indexOf("@clip");
  if (at < 0) return { name: v };
  const clip = Number(v.slice(at + 5));
  if (!(clip >= 0)) throw new Error(`bad clip in variant ${v}`);
  return { name: v.slice(0, at), clip };
};
for (const v of variants.map((x) => clipOf(x).name))
  if (
    !["pipeline", "saving", "nouser", "bench"].includes(v) &&
    !v.startsWith("state:") &&
    !(/^thinw?:/.test(v) && Number(v.split(":")[1]) > 0 && Number(v.split(":")[1]) <= 1) &&
    !(/^sampled:/.test(v) && Number.isInteger(Number(v.split(":")[1])) && Number(v.split(":")[1]) > 0)
  )
    throw new Error(`unknown variant ${v}`);

const manifest = readManifest(dir);
if (!manifest?.done.some((r) => r.stage === "memorization")) throw new Error(`${dir}: no memorized model`);
const split = splitDev(catalog, allQueries, {
  fraction: DEFAULT_DEV_FRACTION,
  toolsFraction: "auto",
  seed: manifest.seed,
});
const index = readToolIndex(dir);

const k = kernels();
process.stderr.write(`engine-drift-pair: variants ${variants.join(", ")}, kernels ${k.name}\n`);
let last = performance.now();
let lastCpu = process.cpuUsage();
const runs = variants.map(async (label) => {
  const { name: variant, clip } = clipOf(label);
  const state = variant.startsWith("state:") ? loadCheckpoint(variant.slice(6)) : undefined;
  const optimizer = state ? loadTrainingState(state).optimizer : undefined;
  const { model, tokenizer } = state ?? loadCheckpoint(dir);
  if (variant === "bench") model.params.flat.set(initParams(model.config, 1).flat);
  const thin = /^thinw?:/.test(variant) ? Number(variant.split(":")[1]) : undefined;
  const sampled = variant.startsWith("sampled:") ? Number(variant.split(":")[1]) : undefined;
  const userLoss =
    variant === "pipeline" ||
    variant === "saving" ||
    state !== undefined ||
    thin !== undefined ||
    sampled !== undefined;
  const stage = retrievalStage(model, tokenizer!, manifest, split.train, index, userLoss, {
    userLossFraction: thin,
    userLossReweight: variant.startsWith("thinw:"),
    userLossSamples: sampled,
  });
  const stop = new AbortController();
  const first = optimizer?.step ?? 0;
  let ms = 0;
  let cpuMs = 0;
  let tokens = 0;
  let normSum = 0;
  const head = countHeadRows(model);
  await train(model, stage.data, {
    ...stage.options(stop.signal),
    optimizer,
    ...(clip !== undefined ? { clip } : {}),
    onStep: (info, opt) => {
      // the steps of the variants take turns: the time since the last step of any variant is this one's
      const now = performance.now();
      const cpu = process.cpuUsage();
      const done = info.step - first; // steps this run made
      if (done > 1) {
        ms += now - last;
        cpuMs += (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
        tokens += info.tokens;
        normSum += info.gradNorm;
      }
      if (done > 1 && (done - 1) % every === 0) {
        const n = every;
        const line = {
          variant: label,
          step: info.step,
          ms_per_step: +(ms / n).toFixed(1),
          cpu_ms_per_step: +(cpuMs / n).toFixed(1),
          tokens_per_step: Math.round(tokens / n),
          head_rows_per_step: Math.round(head.rows / (n + (done === every + 1 ? 1 : 0))),
          tokens_per_s: Math.round((tokens * 1000) / ms),
          loss: +info.loss.toFixed(4),
          grad_norm: +(normSum / n).toFixed(3),
        };
        process.stdout.write(JSON.stringify(line) + "\n");
        ms = cpuMs = tokens = normSum = head.rows = 0;
      }
      if (done > steps) stop.abort();
      // `saving`: a resumable checkpoint every `every` steps (the pipeline writes one a minute), its own time
      // left out: what is timed is whether the steps after it are slower
      if (variant === "saving" && info.step % every === 0)
        saveCheckpoint(join(tmpdir(), "engine-drift-pair-saving"), model, { tokenizer, optimizer: opt });
      last = performance.now();
      lastCpu = process.cpuUsage();
    },
  });
});
await Promise.all(runs);
process.exit(0);
