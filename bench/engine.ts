/**
 * Engine speed: the matmul kernels at the shapes training uses, side by side with numpy/OpenBLAS (python3,
 * measured in the same run) and the plain JS loop; training tokens/s for the tiny and small presets; and the
 * ToolGen retrieval stage at the tiny preset on MetaTool (packed as training packs it), its GFLOPS next to
 * OpenBLAS's on the stage's own GEMM shapes (`train_efficiency`), on 1 and 2 threads (`stage_by_threads`: the
 * speed-up, where a step's time goes, its serial fraction and Amdahl's projection to more threads).
 *   npm run bench:engine [-- --quick] [-- --threads 1,2,4,8,16] [-- --rounds 2] [-- --kernels wasm,native]
 * (--rounds: how many times each thread count runs the stage, taking turns; the fastest round counts.
 * --kernels: the stage on each of these TOOLGEN_KERNELS settings too, all taking turns in each round, in
 * `stage_by_kernels`; the first one's figures are the headline ones)
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { retrievalStage, type StageFigures, type StageGemm } from "./lib/engine-stage.ts";
import { stageByKernels, STAGE_SETUP } from "./lib/engine-threads.ts";
import { fmaScaling } from "./lib/fma-scaling.ts";
import { writeBenchResult } from "./lib/result.ts";
import { sharedFile } from "./lib/shared-file.ts";
import { kernels, type MatmulKernels } from "../src/nn/kernels/index.ts";
import { referenceKernels } from "../src/nn/kernels/reference.ts";
import { presetConfig, type PresetName } from "../src/nn/config.ts";
import { Llama } from "../src/nn/llama.ts";
import { initParams } from "../src/nn/params.ts";
import { train } from "../src/nn/train/trainer.ts";

type Shape = "ABt" | "AB" | "AtB";
interface Case {
  label: string;
  shape: Shape;
  M: number;
  K: number;
  N: number;
  group: "linear" | "attention";
}

const quick = process.argv.includes("--quick");
const SECONDS = quick ? 0.1 : 0.3; // per case: the machine is shared, keep it brief
const WINDOW_MS = 20;
const ROWS = 2048; // batch · sequence tokens per step

// Linear layers (in, out) of the tiny/small presets (d 128/256, SwiGLU hidden 352/704), a 512 layer, lm_head.
const LAYERS: [number, number][] = [
  [128, 128],
  [128, 352],
  [352, 128],
  [256, 256],
  [256, 704],
  [704, 256],
  [512, 512],
  [256, 8192],
];

function cases(): Case[] {
  const list: Case[] = [];
  for (const [inF, outF] of LAYERS) {
    // forward y = x·Wᵀ, backward dx = dy·W, dW = dyᵀ·x (see api.ts)
    list.push({
      label: `ABt ${ROWS}x${inF}x${outF}`,
      shape: "ABt",
      M: ROWS,
      K: inF,
      N: outF,
      group: "linear",
    });
    list.push({ label: `AB ${ROWS}x${outF}x${inF}`, shape: "AB", M: ROWS, K: outF, N: inF, group: "linear" });
    list.push({
      label: `AtB ${outF}x${ROWS}x${inF}`,
      shape: "AtB",
      M: outF,
      K: ROWS,
      N: inF,
      group: "linear",
    });
  }
  // Attention per (batch, head), tiny preset: T = 256, head dim 32.
  list.push({ label: "ABt 256x32x256 (QKᵀ)", shape: "ABt", M: 256, K: 32, N: 256, group: "attention" });
  list.push({ label: "AB 256x256x32 (PV)", shape: "AB", M: 256, K: 256, N: 32, group: "attention" });
  list.push({ label: "AtB 256x256x32 (PᵀdO)", shape: "AtB", M: 256, K: 256, N: 32, group: "attention" });
  return list;
}

function fill(x: Float32Array): Float32Array {
  for (let i = 0; i < x.length; i++) x[i] = ((i * 2654435761) % 1000) / 1000 - 0.5;
  return x;
}

/**
 * GFLOPS of one case: one warm-up call, then windows of at least WINDOW_MS until SECONDS have passed; the best
 * window counts (like timeit's min), which on a shared machine is the closest to what the code can do.
 */
function gflops(k: MatmulKernels, c: Case): number {
  return rates(k, c).wall;
}

/**
 * Best-window GFLOPS by wall time and by CPU time (all threads of the process). On a machine loaded by other
 * jobs, wall time measures the share of the cores this process got; CPU time the work the code needs.
 */
function rates(k: MatmulKernels, c: Case): { wall: number; cpu: number } {
  const out = k.alloc(c.M * c.N);
  const a = fill(k.alloc(c.M * c.K));
  const b = fill(k.alloc(c.K * c.N));
  const call = () => k[`matmul${c.shape}`](out, a, b, c.M, c.K, c.N);
  call();
  let best = 0;
  let bestCpu = 0;
  const start = performance.now();
  while (performance.now() - start < SECONDS * 1000) {
    let n = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < WINDOW_MS) {
      call();
      n++;
      t = performance.now();
    }
    const cu = process.cpuUsage(c0);
    const flops = (2 * c.M * c.N * c.K * n) / 1e9;
    best = Math.max(best, flops / ((t - t0) / 1000));
    bestCpu = Math.max(bestCpu, flops / Math.max(1e-6, (cu.user + cu.system) / 1e6));
  }
  for (const x of [out, a, b]) k.free?.(x);
  return { wall: best, cpu: bestCpu };
}

const NUMPY = `
import json, sys, time
import numpy as np
cases, seconds, window = json.loads(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]) / 1000
res, cpu = {}, {}
for c in cases:
    M, K, N, s = c["M"], c["K"], c["N"], c["shape"]
    a = np.random.rand(K, M).astype(np.float32) if s == "AtB" else np.random.rand(M, K).astype(np.float32)
    b = np.random.rand(N, K).astype(np.float32) if s == "ABt" else np.random.rand(K, N).astype(np.float32)
    out = np.empty((M, N), dtype=np.float32)
    A = a.T if s == "AtB" else a
    B = b.T if s == "ABt" else b
    np.matmul(A, B, out=out)
    best, best_cpu, start = 0.0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        n, t0, c0 = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - t0 < window:
            np.matmul(A, B, out=out); n += 1
        f = 2 * M * N * K * n / 1e9
        best = max(best, f / (time.perf_counter() - t0))
        best_cpu = max(best_cpu, f / max(1e-6, time.process_time() - c0))
    res[c["label"]] = round(best, 1)
    cpu[c["label"]] = round(best_cpu, 1)
cfg = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
print(json.dumps({"results": res, "cpu": cpu, "reference": "numpy %s / %s %s (python3)" % (np.__version__, cfg.get("name"), cfg.get("version"))}))
`;

function numpyReference(
  list: Array<Pick<Case, "label" | "shape" | "M" | "K" | "N">>,
  threads?: number,
): { results: Record<string, number>; cpu: Record<string, number>; reference: string } | undefined {
  const env = threads ? { ...process.env, OPENBLAS_NUM_THREADS: String(threads) } : process.env;
  const r = spawnSync("python3", ["-c", NUMPY, JSON.stringify(list), String(SECONDS), String(WINDOW_MS)], {
    encoding: "utf8",
    env,
  });
  if (r.status !== 0) {
    process.stderr.write(`numpy reference unavailable: ${(r.stderr || r.error?.message || "").trim()}\n`);
    return undefined;
  }
  return JSON.parse(r.stdout);
}

function geomean(xs: number[]): number {
  return Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
}

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

function byGroup(list: Case[], values: Record<string, number>, group: Case["group"]): number {
  return round(geomean(list.filter((c) => c.group === group).map((c) => values[c.label])));
}

/**
 * Training tokens/s on a random token stream: the first step (allocation, warm-up) is not timed; `best` is the
 * fastest later step (as for the matmuls), `mean` all later steps together.
 */
async function trainTokensPerSecond(
  preset: PresetName,
  batchSize: number,
  steps: number,
): Promise<{ best: number; mean: number }> {
  const config = presetConfig(preset, 8192);
  const model = new Llama(config, initParams(config, 1));
  const stream = new Int32Array(200_000);
  for (let i = 0; i < stream.length; i++) stream[i] = (i * 7919) % config.vocabSize;
  let last = 0;
  let tokens = 0;
  let seconds = 0;
  let best = 0;
  await train(
    model,
    { kind: "stream", tokens: stream, seqLen: config.maxPositions },
    {
      steps,
      batchSize,
      lr: 1e-3,
      seed: 1,
      onStep: (info) => {
        const now = performance.now();
        if (info.step > 1) {
          const dt = (now - last) / 1000;
          tokens += info.tokens;
          seconds += dt;
          best = Math.max(best, info.tokens / dt);
        }
        last = now;
      },
    },
  );
  return { best: Math.round(best), mean: Math.round(tokens / seconds) };
}

/** GFLOPS of a whole step's GEMMs: total FLOPs over the summed time at each shape's rate. */
function stepRate(gemms: StageGemm[], rate: Record<string, number>): number {
  let flops = 0;
  let seconds = 0;
  for (const g of gemms) {
    const f = 2 * g.M * g.K * g.N * g.times;
    flops += f;
    seconds += f / (rate[g.label]! * 1e9);
  }
  return round(flops / seconds / 1e9);
}

const STAGE_STEPS = quick ? 6 : 16;

/** Stage figures on this process's kernels, with the kernels alone and OpenBLAS on the stage's shapes. */
async function stageFigures(k: MatmulKernels, threads: number, files: { tools: string; queries: string }) {
  const stage: StageFigures = await retrievalStage(files.tools, files.queries, STAGE_STEPS);
  const cases: Case[] = stage.gemms.map((g) => ({ ...g, group: "linear" }));
  const fast: Record<string, number> = {};
  const fastCpu: Record<string, number> = {};
  for (const c of cases) {
    const r = rates(k, c);
    fast[c.label] = round(r.wall);
    fastCpu[c.label] = round(r.cpu);
  }
  const np = numpyReference(cases, threads);
  const reference = np ? stepRate(stage.gemms, np.results) : null;
  const referenceCpu = np ? stepRate(stage.gemms, np.cpu) : null;
  const matmul = stepRate(stage.gemms, fast);
  const matmulCpu = stepRate(stage.gemms, fastCpu);
  return {
    threads,
    kernels: k.name,
    load_average: loadavg().map((x) => round(x, 2)),
    ...stage,
    reference_gflops: reference,
    matmul_gflops: matmul,
    train_efficiency: reference ? round(stage.stage_gflops / reference, 3) : null,
    kernels_of_reference: reference ? round(matmul / reference, 3) : null,
    // the same ratios on CPU time (load-independent; OpenBLAS's own threads included)
    reference_gflops_cpu: referenceCpu,
    matmul_gflops_cpu: matmulCpu,
    train_efficiency_cpu: referenceCpu ? round(stage.stage_gflops_cpu / referenceCpu, 3) : null,
    kernels_of_reference_cpu: referenceCpu ? round(matmulCpu / referenceCpu, 3) : null,
    matmul_gflops_by_shape: fast,
    reference_gflops_by_shape: np?.results ?? null,
    matmul_gflops_cpu_by_shape: fastCpu,
    reference_gflops_cpu_by_shape: np?.cpu ?? null,
  };
}

/** The headline figures of one kernel setting's stage_by_threads (--kernels), then the whole of it. */
function kernelSummary(byThreads: Record<string, unknown>) {
  const at = (t: string) =>
    byThreads[t] as { kernels?: string; train_efficiency?: number | null } | undefined;
  return {
    kernels: at("2")?.kernels ?? at("1")?.kernels ?? null,
    train_efficiency: at("2")?.train_efficiency ?? null,
    train_efficiency_1thread: at("1")?.train_efficiency ?? null,
    // against each thread count's highest OpenBLAS reference over all runs of all settings (engine-threads.ts)
    train_efficiency_best_reference: byThreads.train_efficiency_best_reference,
    speedup_over_1_thread: byThreads.speedup_over_1_thread,
    stage_by_threads: byThreads,
  };
}

async function main(): Promise<void> {
  const k = kernels();
  const parallel = () => (k as { parallel?: boolean }).parallel ?? false;
  const until = Date.now() + 10_000;
  while ("parallel" in k && !parallel() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));

  const tools = sharedFile("metatool/tools.json");
  const queries = sharedFile("metatool/queries.csv");
  const files = tools && queries ? { tools, queries } : undefined;
  if (process.argv.includes("--stage-only")) {
    // a child run of the stage figures on TOOLGEN_KERNEL_THREADS threads (lib/engine-threads.ts)
    const threads = Number(process.env.TOOLGEN_KERNEL_THREADS);
    process.stdout.write(JSON.stringify(files ? await stageFigures(k, threads, files) : null) + "\n");
    return;
  }
  const i = process.argv.indexOf("--threads");
  const threadCounts = i >= 0 ? process.argv[i + 1]!.split(",").map(Number) : [1, 2];
  const r = process.argv.indexOf("--rounds");
  const rounds = r >= 0 ? Number(process.argv[r + 1]) : quick ? 1 : 2;
  if (!(Number.isInteger(rounds) && rounds > 0)) throw new Error("--rounds must be a positive integer");
  const ki = process.argv.indexOf("--kernels");
  const kernelSets = ki >= 0 ? process.argv[ki + 1]!.split(",") : [undefined];
  if (kernelSets.some((s) => s !== undefined && !["wasm", "native"].includes(s)))
    throw new Error("--kernels: a comma-separated list of wasm and native");

  const loadStart = loadavg().map((x) => round(x, 2));
  const list = cases();
  const fast: Record<string, number> = {};
  const fastCpu: Record<string, number> = {};
  for (const c of list) {
    const r = rates(k, c);
    fast[c.label] = round(r.wall);
    fastCpu[c.label] = round(r.cpu);
  }
  const np = numpyReference(list);
  const jsCases = list.filter((c) => c.label.endsWith(`x128x128`) || c.label.startsWith("AtB 128x"));
  const js: Record<string, number> = {};
  for (const c of jsCases.slice(0, 3)) js[c.label] = round(gflops(referenceKernels, c), 2);

  const matmul = byGroup(list, fast, "linear");
  const ref = np ? byGroup(list, np.results, "linear") : geomean(Object.values(js));
  const tiny = await trainTokensPerSecond("tiny", 8, quick ? 3 : 4);
  const small = await trainTokensPerSecond("small", 4, 3);
  // the machine's 2-core FMA scaling just before and just after the stage runs (null without the addon)
  const fmaBefore = files ? await fmaScaling() : null;
  const byKernels = files ? stageByKernels(kernelSets, threadCounts, rounds, quick) : null;
  const fmaAfter = files ? await fmaScaling() : null;
  const byThreads = byKernels?.[0] ?? null;
  type Stage = Awaited<ReturnType<typeof stageFigures>>;
  const runs = byThreads as Record<string, unknown> | null;
  const stage2 = (runs?.["2"] ?? null) as Stage | null;
  const stage1 = (runs?.["1"] ?? null) as Stage | null;
  const given = process.argv.slice(2);
  writeBenchResult("engine", `npm run bench:engine${given.length ? ` -- ${given.join(" ")}` : ""}`, {
    load_average_start: loadStart,
    train_efficiency: stage2?.train_efficiency ?? null,
    stage_tokens_per_s: stage2?.stage_tokens_per_s ?? null,
    flops_per_token: stage2?.flops_per_token ?? null,
    stage_gflops: stage2?.stage_gflops ?? null,
    stage_reference_gflops: stage2?.reference_gflops ?? null,
    stage_matmul_gflops: stage2?.matmul_gflops ?? null,
    train_efficiency_cpu: stage2?.train_efficiency_cpu ?? null,
    train_efficiency_1thread: stage1?.train_efficiency ?? null,
    // the step against the engine's own 1-thread GEMM rate × threads (lib/engine-threads.ts own_gemm_efficiency)
    own_gemm_efficiency: stage1 && stage2 ? round(stage2.stage_gflops / (2 * stage1.matmul_gflops), 3) : null,
    own_gemm_efficiency_1thread: stage1 ? round(stage1.stage_gflops / stage1.matmul_gflops, 3) : null,
    train_efficiency_cpu_1thread: stage1?.train_efficiency_cpu ?? null,
    stage_setup: STAGE_SETUP(STAGE_STEPS),
    fma_scaling_before_stage: fmaBefore,
    fma_scaling_after_stage: fmaAfter,
    fma_scaling_note:
      "native/gemm.cc fmaLoop, register-only AVX-512 FMA chains on 1 thread, then 2 at once (lib/fma-scaling.ts): " +
      "what the machine's second core added to pure FMA work just before and after the stage runs",
    stage_by_threads: byThreads,
    // --kernels: each setting's headline figures and its whole stage_by_threads, run side by side
    stage_by_kernels:
      byKernels && kernelSets[0] !== undefined
        ? Object.fromEntries(kernelSets.map((name, i) => [name, kernelSummary(byKernels[i]!)]))
        : undefined,
    kernels: k.name,
    matmul_gflops: matmul,
    reference_gflops: round(ref),
    reference: np ? np.reference : "plain JS loop (numpy/OpenBLAS unavailable)",
    percent_of_reference: round((100 * matmul) / ref),
    matmul_gflops_cpu: byGroup(list, fastCpu, "linear"),
    reference_gflops_cpu: np ? byGroup(list, np.cpu, "linear") : null,
    percent_of_reference_cpu: np
      ? round((100 * byGroup(list, fastCpu, "linear")) / byGroup(list, np.cpu, "linear"))
      : null,
    js_loop_gflops: round(geomean(Object.values(js)), 2),
    matmul_gflops_attention: byGroup(list, fast, "attention"),
    reference_gflops_attention: np ? byGroup(list, np.results, "attention") : null,
    train_tokens_per_s: { tiny: tiny.best, small: small.best },
    train_tokens_per_s_mean: { tiny: tiny.mean, small: small.mean },
    train_setup:
      "src/nn train(): 8192 vocab, tiny batch 8 x 256, small batch 4 x 512 (2048 tokens a step), random " +
      "token stream; the first step is not timed; best step, and the mean of the timed steps",
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    kernel_heap_peak_mb:
      "heap" in k ? Math.round((k as { heap: { peakBytes: number } }).heap.peakBytes / 2 ** 20) : null,
    summary:
      "GFLOPS: geometric means over the linear-layer shapes (M = batch·seq = 2048), per-shape figures below; " +
      `each case is the best ${WINDOW_MS} ms window within ${SECONDS} s, for the kernels and numpy alike`,
    matmul_gflops_by_shape: fast,
    reference_gflops_by_shape: np?.results ?? null,
    js_loop_gflops_by_shape: js,
    load_average_end: loadavg().map((x) => round(x, 2)),
    note: "2-core machine shared with other engineers' jobs while measuring: figures are noisy, both sides alike",
  });
}

await main();
