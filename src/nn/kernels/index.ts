import type { MatmulKernels } from "./api.ts";
import { referenceKernels } from "./reference.ts";

/** The kernels the engine uses. The fast WebAssembly/worker kernels replace the reference here once built. */
export function kernels(): MatmulKernels {
  return referenceKernels;
}

export type { MatmulKernels } from "./api.ts";
