/**
 * Does a training step get slower as the ToolGen retrieval stage goes on? The stage exactly as `toolgen train`
 * runs it (the folder's memorized model and tokenizer, the CLI's dev split, user loss, token dropout, the
 * stage's seed and its full cosine schedule), for the first `--steps` updates, reported per window of
 * `--every` steps: tokens/s, milliseconds per kernel operation, and how many floats of the weights and of
 * AdamW's moments are subnormal (WebAssembly cannot flush them to zero; on Intel cores arithmetic on them is
 * many times slower).
 *   toolgen train --catalog C --queries Q --out DIR --preset tiny --stages memorization   (once)
 *   TOOLGEN_KERNEL_THREADS=1 npx tsx bench/engine-drift.ts --model DIR --catalog C --queries Q [--steps 1000]
 *     [--every 100] [--json FILE] [--save-at 300,1300 --save-dir DIR]
 */
import { writeFileSync } from "node:fs";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import { DEFAULT_DEV_FRACTION } from "../src/cli/train-toolgen.ts";
import { join } from "node:path";
import { loadCheckpoint, saveCheckpoint } from "../src/nn/checkpoint.ts";
import { emptyStats, kernels, type KernelStats } from "../src/nn/kernels/index.ts";
import type { MatmulCall, MatmulKernels } from "../src/nn/kernels/api.ts";
import { train } from "../src/nn/train/trainer.ts";
import { readManifest, readToolIndex } from "../src/toolgen/model-folder.ts";
import { splitDev } from "../src/train/dev-split.ts";
import { SCHEDULES } from "../src/train/schedule.ts";
import { countSubnormals } from "./lib/subnormals.ts";
import { retrievalStage } from "./lib/retrieval-stage.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback?: string): string => {
  const i = argv.indexOf(name);
  const v = i >= 0 ? argv[i + 1] : fallback;
  if (v === undefined) {
    process.stderr.write(`engine-drift: ${name} is required\n`);
    process.exit(1);
  }
  return v;
};
const dir = option("--model");
const catalog = loadCatalog(option("--catalog"));
const allQueries = loadQueries(option("--queries"), catalog);
const steps = Number(option("--steps", "1000"));
const every = Number(option("--every", "100"));
const jsonOut = argv.includes("--json") ? option("--json") : undefined;
// checkpoints (model, optimizer) after these steps, for engine-drift-pair.ts to time an early and a late state
const saveAt = argv.includes("--save-at") ? option("--save-at").split(",").map(Number) : [];
const saveDir = saveAt.length ? option("--save-dir") : "";

const manifest = readManifest(dir);
if (!manifest?.done.some((r) => r.stage === "memorization")) {
  process.stderr.write(`engine-drift: ${dir} holds no memorized ToolGen model\n`);
  process.exit(1);
}
const split = splitDev(catalog, allQueries, {
  fraction: DEFAULT_DEV_FRACTION,
  toolsFraction: "auto",
  seed: manifest.seed,
});
const index = readToolIndex(dir);
const { model, tokenizer } = loadCheckpoint(dir);
const stage = retrievalStage(
  model,
  tokenizer!,
  manifest,
  split.train,
  index,
  SCHEDULES.tiny.stages.retrieval.userLoss === true,
);
const { samples, total } = stage;
const k = kernels() as { collectStats?: (s?: KernelStats) => void; name: string };
// On the last step of each window: subnormal floats among the inputs of each kind of product and in the
// cross-entropy's gradient (the logits it turns into softmax − one-hot), what the products read next.
const inputs: Record<string, number> = {};
let sampling = false;
const count = (label: string, x: Float32Array, n: number) => {
  if (sampling) inputs[label] = (inputs[label] ?? 0) + countSubnormals(x.subarray(0, n));
};
const wrapped = k as unknown as Record<string, unknown>;
for (const shape of ["ABt", "AB", "AtB"] as const) {
  const f = wrapped[`matmul${shape}`] as (...a: unknown[]) => void;
  wrapped[`matmul${shape}`] = (...args: Parameters<MatmulKernels["matmulABt"]>) => {
    const [, a, b, M, K, N] = args;
    count(`${shape} a`, a, M * K);
    count(`${shape} b`, b, K * N);
    return f.apply(k, args);
  };
}
for (const name of ["matmulMany", "matmulThen"]) {
  const f = wrapped[name] as ((...a: unknown[]) => unknown) | undefined;
  if (!f) continue;
  wrapped[name] = (list: MatmulCall[], ...rest: unknown[]) => {
    for (const c of list) {
      count(`${c.shape} a`, c.a, c.M * c.K);
      count(`${c.shape} b`, c.b, c.K * c.N);
    }
    return f.call(k, list, ...rest);
  };
}
const ce = wrapped.crossEntropy as ((...a: unknown[]) => unknown) | undefined;
if (ce)
  wrapped.crossEntropy = (
    logits: Float32Array,
    targets: Int32Array,
    rows: number,
    V: number,
    scale: number,
  ) => {
    const r = ce.call(k, logits, targets, rows, V, scale);
    count("cross-entropy gradient", logits, rows * V);
    if (sampling)
      inputs["cross-entropy gradient (of)"] = (inputs["cross-entropy gradient (of)"] ?? 0) + rows * V;
    return r;
  };
let stats = emptyStats();
k.collectStats?.(stats);
const stop = new AbortController();
const windows: unknown[] = [];
let t0 = performance.now();
let cpu0 = process.cpuUsage();
let tokens = 0;
process.stderr.write(
  `engine-drift: ${samples.length} samples, ${total} stage steps, the first ${steps} timed, kernels ${k.name}\n`,
);
await train(model, stage.data, {
  ...stage.options(stop.signal),
  onStep: (info, optimizer) => {
    if (saveAt.includes(info.step))
      saveCheckpoint(join(saveDir, `step-${info.step}`), model, { tokenizer, optimizer, trainOptions: {} });
    tokens += info.tokens;
    sampling = (info.step + 1) % every === 0 || info.step + 1 === steps;
    if (info.step % every !== 0 && info.step < steps) return;
    const cpu = process.cpuUsage(cpu0);
    const seconds = (performance.now() - t0) / 1000;
    const n = info.step % every || every;
    const ops = Object.fromEntries(
      Object.entries(stats.ms)
        .sort((a, b) => b[1] - a[1])
        .map(([op, ms]) => [op, Number((ms / n).toFixed(2))]),
    );
    const w = {
      step: info.step,
      ms_per_step: Number(((seconds * 1000) / n).toFixed(1)),
      tokens_per_s: Math.round(tokens / seconds),
      cpu_ms_per_step: Number(((cpu.user + cpu.system) / 1000 / n).toFixed(1)),
      tokens_per_cpu_s: Math.round(tokens / ((cpu.user + cpu.system) / 1e6)),
      loss: Number(info.loss.toFixed(4)),
      subnormal: {
        weights: countSubnormals(optimizer.params.flat),
        adam_m: countSubnormals(optimizer.m.flat),
        adam_v: countSubnormals(optimizer.v.flat),
      },
      subnormal_inputs_last_step: { ...inputs },
      ops_ms_per_step: ops,
    };
    windows.push(w);
    process.stdout.write(JSON.stringify(w) + "\n");
    if (info.step >= steps) stop.abort();
    for (const key of Object.keys(inputs)) delete inputs[key];
    stats = emptyStats();
    k.collectStats?.(stats);
    tokens = 0;
    t0 = performance.now();
    cpu0 = process.cpuUsage();
  },
});
k.collectStats?.(undefined);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ dir, steps, every, kernels: k.name, windows }, null, 1));
