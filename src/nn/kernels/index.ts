import type { MatmulKernels } from "./api.ts";
import { referenceKernels } from "./reference.ts";
import { createWasmKernels, type WasmKernelOptions } from "./wasm.ts";
import { chooseTrainingKernels, type TrainingKernelsChoice } from "./training-kernels.ts";

let chosen: MatmulKernels | undefined;

/**
 * Builds the fast WebAssembly kernels, or falls back to the plain JS reference with one warning line on
 * stderr when the module is missing or cannot load. TOOLGEN_KERNELS=reference forces the reference,
 * TOOLGEN_KERNELS=native the opt-in native gemm (native.mjs) for the matrix products;
 * TOOLGEN_KERNEL_THREADS=n sets the number of threads (1: the calling thread alone; default: the cores, at
 * most 8).
 */
export function selectKernels(options: WasmKernelOptions = {}): MatmulKernels {
  if (process.env.TOOLGEN_KERNELS === "reference") return referenceKernels;
  try {
    const wanted = Number(process.env.TOOLGEN_KERNEL_THREADS);
    const threads = Number.isInteger(wanted) && wanted > 0 ? wanted : undefined;
    const native = process.env.TOOLGEN_KERNELS === "native";
    return createWasmKernels({ threads, native, ...options });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(`toolgen: fast matmul kernels unavailable (${why}); using the slow JS reference\n`);
    return referenceKernels;
  }
}

let noteOnBuild: string | undefined;

/** The kernels the engine uses: one shared instance per process. */
export function kernels(): MatmulKernels {
  if (!chosen) {
    chosen = selectKernels();
    if (noteOnBuild) process.stderr.write(noteOnBuild + "\n");
    noteOnBuild = undefined;
  }
  return chosen;
}

/** Whether this process has built its kernels already (TOOLGEN_KERNELS is read once, then). */
export function kernelsBuilt(): boolean {
  return chosen !== undefined;
}

/**
 * A line for stderr when the engine builds its kernels (`toolgen train`'s automatic choice says which it took
 * when training starts, so a command refused for a bad option prints its error alone).
 */
export function noteWhenKernelsBuilt(line: string): void {
  noteOnBuild = line;
}

/**
 * Makes `k` the kernels the engine uses from now on and returns the previous ones (tests and benches that
 * compare thread counts in one process). Models, parameter sets and optimizers made before keep the arrays
 * of the kernels they were made with: make them after the switch.
 */
export function useKernels(k: MatmulKernels): MatmulKernels | undefined {
  const previous = chosen;
  chosen = k;
  return previous;
}

/**
 * For library callers who train: picks the kernels as `toolgen train` does (training-kernels.ts: the native gemm
 * where the addon loads and passes its self-check, else WebAssembly) and makes them the engine's, unless
 * TOOLGEN_KERNELS already says. Call it before any model is made: the kernels are the whole process's (inference
 * included), and arrays made by earlier ones stay theirs. Returns the choice (its `line` is not printed).
 */
export async function useTrainingKernels(): Promise<TrainingKernelsChoice | undefined> {
  if (chosen)
    throw new Error(
      "useTrainingKernels: the engine's kernels are already built; call it before any model is made",
    );
  if (process.env.TOOLGEN_KERNELS) return undefined;
  const choice = await chooseTrainingKernels();
  process.env.TOOLGEN_KERNELS = choice.family;
  return choice;
}

/**
 * Pins this process to the WebAssembly kernels (the same bytes on every machine) before `what` is trained: the
 * committed models are rebuilt with the kernels they were built with. A TOOLGEN_KERNELS that says otherwise is
 * overridden, with one line on stderr; kernels already built of another family are an error.
 */
export function pinWasmKernels(what: string): void {
  if (chosen && gemmFamily(chosen.name) !== "wasm")
    throw new Error(
      `${what}: the engine already runs ${chosen.name}; it is built with the WebAssembly kernels`,
    );
  const asked = process.env.TOOLGEN_KERNELS;
  if (asked && asked !== "wasm")
    process.stderr.write(
      `toolgen: ${what} is built with the WebAssembly kernels, as committed (TOOLGEN_KERNELS=${asked} left aside)\n`,
    );
  process.env.TOOLGEN_KERNELS = "wasm";
}

/**
 * The family of the matrix-product kernels named `name`, which fixes a run's bits (the thread count does not):
 * `wasm` (the default WebAssembly gemm: the same bits on every machine), `native` (TOOLGEN_KERNELS=native: the
 * same bits on every x86-64 CPU with AVX2+FMA, other bits than `wasm`) or `reference` (the plain JS loops).
 */
export function gemmFamily(name: string): "wasm" | "native" | "reference" {
  if (name.startsWith("native")) return "native";
  return name === referenceKernels.name ? "reference" : "wasm";
}

export type { MatmulKernels } from "./api.ts";
export { chooseTrainingKernels, type TrainingKernelsChoice } from "./training-kernels.ts";
export { nativeSelfCheck, type NativeCheck } from "./native-check.ts";
export { referenceKernels } from "./reference.ts";
export { createWasmKernels, type WasmKernels, type WasmKernelOptions } from "./wasm.ts";
export { emptyStats, type KernelStats } from "./stats.ts";
