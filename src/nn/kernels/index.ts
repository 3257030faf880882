import type { MatmulKernels } from "./api.ts";
import { referenceKernels } from "./reference.ts";
import { createWasmKernels, type WasmKernelOptions } from "./wasm.ts";

let chosen: MatmulKernels | undefined;

/**
 * Builds the fast WebAssembly kernels, or falls back to the plain JS reference with one warning line on
 * stderr when the module is missing or cannot load. TOOLGEN_KERNELS=reference forces the reference;
 * TOOLGEN_KERNEL_THREADS=1 keeps the fast kernels on the calling thread.
 */
export function selectKernels(options: WasmKernelOptions = {}): MatmulKernels {
  if (process.env.TOOLGEN_KERNELS === "reference") return referenceKernels;
  try {
    const threads = process.env.TOOLGEN_KERNEL_THREADS === "1" ? 1 : undefined;
    return createWasmKernels({ threads, ...options });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(`toolgen: fast matmul kernels unavailable (${why}); using the slow JS reference\n`);
    return referenceKernels;
  }
}

/** The kernels the engine uses: one shared instance per process. */
export function kernels(): MatmulKernels {
  chosen ??= selectKernels();
  return chosen;
}

export type { MatmulKernels } from "./api.ts";
export { referenceKernels } from "./reference.ts";
export { createWasmKernels, type WasmKernels, type WasmKernelOptions } from "./wasm.ts";
