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
import { compareStageGemms, gemmRunner, option } from "./lib/stage-gemms.ts";

setFlagsFromString("--experimental-wasm-relaxed-simd");

const argv = process.argv.slice(2);
const rounds = Number(option(argv, "--rounds", "7"));
const name = option(argv, "--name", "history/engine-fma");

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

const gemms = gemmRunner(Object.values(kernels));

// The fused build must round differently (one rounding per step, not two): else no FMA ran.
const fusedDiffers = (() => {
  const outs = names.map((n) => {
    gemms.run(kernels[n], ["AB", 64, 256, 64, 1]);
    return Float32Array.from(gemms.output(kernels[n]).subarray(0, 64 * 64));
  });
  return outs[0]!.some((v, i) => v !== outs[1]![i]);
})();

const loadStart = loadavg().map((x) => +x.toFixed(2));
const { speedup, ...figures } = compareStageGemms([kernels.mul_add, kernels.fma], ["mul_add", "fma"], rounds);
writeBenchResult(name, `npx tsx bench/engine-fma.ts ${argv.join(" ")}`.trim(), {
  cpu_id: cpuId(),
  load_average_start: loadStart,
  load_average_end: loadavg().map((x) => +x.toFixed(2)),
  rounds,
  threads: 1,
  fused_bits_differ: fusedDiffers,
  step_gemm_ms: figures.step_gemm_ms,
  step_gemm_gflops: figures.step_gemm_gflops,
  fma_speedup: speedup,
  by_shape: figures.by_shape,
});
await Promise.all(Object.values(kernels).map((k) => k.close()));
