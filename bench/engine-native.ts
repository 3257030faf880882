/**
 * The opt-in native gemm (TOOLGEN_KERNELS=native, native/gemm.cc) against the WebAssembly gemm, side by side on
 * one thread in one process: GFLOPS per training shape (the retrieval stage's, tiny preset; the shapes of
 * bench/engine-fma.ts) and a step's GEMM time, to decide whether the native path is worth a full
 * `bench:engine` run (issue 40: worth it above 60 GFLOPS per thread). Needs `npm run build:native`.
 *   npx tsx bench/engine-native.ts [--rounds 5] [--name history/engine-native]
 */
import { loadavg } from "node:os";
import { createWasmKernels } from "../src/nn/kernels/index.ts";
import { writeBenchResult } from "./lib/result.ts";
import { compareStageGemms, option } from "./lib/stage-gemms.ts";

const argv = process.argv.slice(2);
const rounds = Number(option(argv, "--rounds", "5"));
const name = option(argv, "--name", "history/engine-native");

const kernels = {
  wasm: createWasmKernels({ threads: 1 }),
  native: createWasmKernels({ threads: 1, native: true }),
};
if (!kernels.native.name.startsWith("native"))
  throw new Error("native gemm not loaded (npm run build:native)");

const loadStart = loadavg().map((x) => +x.toFixed(2));
const { speedup, ...figures } = compareStageGemms([kernels.wasm, kernels.native], ["wasm", "native"], rounds);
writeBenchResult(name, `npx tsx bench/engine-native.ts ${argv.join(" ")}`.trim(), {
  kernels: { wasm: kernels.wasm.name, native: kernels.native.name },
  load_average_start: loadStart,
  load_average_end: loadavg().map((x) => +x.toFixed(2)),
  rounds,
  threads: 1,
  step_gemm_ms: figures.step_gemm_ms,
  step_gemm_gflops: figures.step_gemm_gflops,
  native_speedup: speedup,
  by_shape: figures.by_shape,
});
await Promise.all(Object.values(kernels).map((k) => k.close()));
