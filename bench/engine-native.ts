/**
 * The opt-in native gemm (TOOLGEN_KERNELS=native, native/gemm.cc) against the WebAssembly gemm, side by side on
 * one thread in one process: GFLOPS per training shape (the retrieval stage's, tiny preset; the shapes of
 * bench/engine-fma.ts) and a step's GEMM time, to decide whether the native path is worth a full
 * `bench:engine` run (issue 40: worth it above 60 GFLOPS per thread). Needs `npm run build:native`.
 *   npx tsx bench/engine-native.ts [--rounds 5] [--name history/engine-native]
 */
import { loadavg } from "node:os";
import { createWasmKernels, type WasmKernels } from "../src/nn/kernels/index.ts";
import { writeBenchResult } from "./lib/result.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1]! : fallback;
};
const rounds = Number(option("--rounds", "5"));
const name = option("--name", "history/engine-native");

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

const kernels = {
  wasm: createWasmKernels({ threads: 1 }),
  native: createWasmKernels({ threads: 1, native: true }),
};
if (!kernels.native.name.startsWith("native"))
  throw new Error("native gemm not loaded (npm run build:native)");
const names = Object.keys(kernels) as (keyof typeof kernels)[];

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

const loadStart = loadavg().map((x) => +x.toFixed(2));
const best = names.map(() => SHAPES.map(() => Infinity));
for (let r = 0; r < rounds; r++) {
  SHAPES.forEach((s, si) => {
    const reps = Math.max(3, Math.round(3e8 / (2 * s[1] * s[2] * s[3])));
    // the two take turns, the first alternating by round
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
writeBenchResult(name, `npx tsx bench/engine-native.ts ${argv.join(" ")}`.trim(), {
  kernels: { wasm: kernels.wasm.name, native: kernels.native.name },
  load_average_start: loadStart,
  load_average_end: loadavg().map((x) => +x.toFixed(2)),
  rounds,
  threads: 1,
  step_gemm_ms: { wasm: +stepMs[0]!.toFixed(2), native: +stepMs[1]!.toFixed(2) },
  step_gemm_gflops: {
    wasm: +(stepFlops / stepMs[0]! / 1e6).toFixed(1),
    native: +(stepFlops / stepMs[1]! / 1e6).toFixed(1),
  },
  native_speedup: +(stepMs[0]! / stepMs[1]!).toFixed(3),
  by_shape: Object.fromEntries(
    SHAPES.map((s, si) => [
      `${s[0]} ${s[1]}x${s[2]}x${s[3]} (${s[4]}/step)`,
      { wasm_gflops: gflops(best[0]![si]!, s), native_gflops: gflops(best[1]![si]!, s) },
    ]),
  ),
});
await Promise.all(Object.values(kernels).map((k) => k.close()));
