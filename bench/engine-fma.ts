/**
 * The GEMM kernel built twice from the same sources, side by side on one thread in one process: as shipped
 * (f32x4.mul then f32x4.add) and with WebAssembly relaxed SIMD, where assembly/tile.ts's madd() becomes one
 * fused multiply-add (v128.relaxed_madd). GFLOPS per training shape (the retrieval stage's, tiny preset) and a
 * step's GEMM time, to decide whether an FMA build is worth shipping (issue 40). Both modules are compiled here
 * into a temporary folder with package.json's build:wasm options; Node 20 validates relaxed SIMD only behind a
 * V8 flag, set below before anything compiles (it holds for the whole process, worker threads included).
 *   npx tsx bench/engine-fma.ts [--rounds 7] [--name history/engine-fma]
 */
import { setFlagsFromString } from "node:v8";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createWasmKernels, type WasmKernels } from "../src/nn/kernels/index.ts";
import { writeBenchResult } from "./lib/result.ts";

setFlagsFromString("--experimental-wasm-relaxed-simd");

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1]! : fallback;
};
const rounds = Number(option("--rounds", "7"));
const name = option("--name", "history/engine-fma");

const T = 1059;
const H = 64;
const d = 128;
const f = 352;
const V = 8392;
const LAYERS = 4;
type Shape = "AB" | "ABt" | "AtB";
/** [shape, M, K, N, calls per step] (bench/engine-gemm.ts stepCalls: 4 layers forward and backward, the head). */
const SHAPES: [Shape, number, number, number, number][] = [
  ["ABt", T, d, d, 4 * LAYERS],
  ["ABt", T, d, f, 2 * LAYERS],
  ["ABt", T, f, d, LAYERS],
  ["AB", T, d, f, LAYERS],
  ["AtB", d, T, f, LAYERS],
  ["AB", T, f, d, 2 * LAYERS],
  ["AtB", f, T, d, 2 * LAYERS],
  ["AB", T, d, d, 4 * LAYERS],
  ["AtB", d, T, d, 4 * LAYERS],
  ["ABt", H, d, V, 1],
  ["AB", H, V, d, 1],
  ["AtB", V, H, d, 1],
];

/** Compiles assembly/matmul.ts with build:wasm's options (plus `extra`) into dir/file. */
function build(dir: string, file: string, extra: string[]): string {
  const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> })
    .scripts["build:wasm"]!;
  const args = script.split(/\s+/).slice(1);
  const out = join(dir, file);
  args[args.indexOf("-o") + 1] = out;
  execFileSync("npx", ["asc", ...args, ...extra], { stdio: ["ignore", "ignore", "pipe"] });
  return out;
}

/** The CPU's family and model (os.cpus() names only the brand): which FP pipes a mul and an add use. */
function cpuId(): string {
  try {
    const info = readFileSync("/proc/cpuinfo", "utf8");
    const field = (k: string) => new RegExp(`^${k}\\s*:\\s*(.*)$`, "m").exec(info)?.[1] ?? "?";
    return `${field("vendor_id")} family ${field("cpu family")} model ${field("model")}`;
  } catch {
    return "unknown";
  }
}

const dir = mkdtempSync(join(tmpdir(), "toolgen-fma-"));
const modules = {
  mul_add: build(dir, "simd.wasm", []),
  fma: build(dir, "fma.wasm", ["--enable", "relaxed-simd"]),
};
const kernels = Object.fromEntries(
  Object.entries(modules).map(([k, path]) => [k, createWasmKernels({ threads: 1, wasmPath: path })]),
) as Record<keyof typeof modules, WasmKernels>;
const names = Object.keys(modules) as (keyof typeof modules)[];

const operands = new Map<WasmKernels, Float32Array[]>();
for (const k of Object.values(kernels)) {
  const arr = (n: number) => {
    const a = k.alloc(n);
    for (let i = 0; i < n; i++) a[i] = Math.sin(i * 0.37) * 0.1;
    return a;
  };
  operands.set(k, [arr(V * d), arr(V * d), arr(V * d)]);
}
const mm = (k: WasmKernels, [shape, M, K, N]: (typeof SHAPES)[number]) => {
  const [out, a, b] = operands.get(k)!;
  k[`matmul${shape}`](out!, a!, b!, M, K, N, false);
};

// The fused build must round differently (one rounding per step, not two): else no FMA ran.
const fusedDiffers = (() => {
  const outs = names.map((n) => {
    mm(kernels[n], ["AB", 64, 256, 64, 1]);
    return Float32Array.from(operands.get(kernels[n])![0]!.subarray(0, 64 * 64));
  });
  return outs[0]!.some((v, i) => v !== outs[1]![i]);
})();

const loadStart = loadavg().map((x) => +x.toFixed(2));
const best = names.map(() => SHAPES.map(() => Infinity));
for (let r = 0; r < rounds; r++) {
  SHAPES.forEach((s, si) => {
    const reps = Math.max(3, Math.round(3e8 / (2 * s[1] * s[2] * s[3])));
    // the two builds take turns, the first alternating by round
    for (const ni of r % 2 ? [1, 0] : [0, 1]) {
      const k = kernels[names[ni]!];
      mm(k, s);
      const t0 = performance.now();
      for (let i = 0; i < reps; i++) mm(k, s);
      best[ni]![si] = Math.min(best[ni]![si]!, (performance.now() - t0) / reps);
    }
  });
}
const gflops = (ms: number, [, M, K, N]: (typeof SHAPES)[number]) => +((2 * M * K * N) / ms / 1e6).toFixed(1);
const stepMs = best.map((b) => b.reduce((s, ms, si) => s + ms * SHAPES[si]![4], 0));
const stepFlops = SHAPES.reduce((s, [, M, K, N, n]) => s + 2 * M * K * N * n, 0);
const byShape = Object.fromEntries(
  SHAPES.map((s, si) => [
    `${s[0]} ${s[1]}x${s[2]}x${s[3]} (${s[4]}/step)`,
    { mul_add_gflops: gflops(best[0]![si]!, s), fma_gflops: gflops(best[1]![si]!, s) },
  ]),
);
writeBenchResult(name, `npx tsx bench/engine-fma.ts ${argv.join(" ")}`.trim(), {
  cpu_id: cpuId(),
  load_average_start: loadStart,
  load_average_end: loadavg().map((x) => +x.toFixed(2)),
  rounds,
  threads: 1,
  fused_bits_differ: fusedDiffers,
  step_gemm_ms: { mul_add: +stepMs[0]!.toFixed(2), fma: +stepMs[1]!.toFixed(2) },
  step_gemm_gflops: {
    mul_add: +(stepFlops / stepMs[0]! / 1e6).toFixed(1),
    fma: +(stepFlops / stepMs[1]! / 1e6).toFixed(1),
  },
  fma_speedup: +(stepMs[0]! / stepMs[1]!).toFixed(3),
  by_shape: byShape,
});
await Promise.all(Object.values(kernels).map((k) => k.close()));
