import type { MatmulKernels } from "./api.ts";
import { referenceKernels } from "./reference.ts";
import { Rng } from "../rng.ts";
import { createWasmKernels } from "./wasm.ts";
import { loadNative } from "./native.mjs";

// The self-check `toolgen train` runs before it picks the native gemm on its own (training-kernels.ts): an addon
// built for another CPU or from other sources than the engine's could load and still compute wrong products, and
// a wrong product shows only as a model that does not learn, half an hour later.

/** Products (M, K, N) with edge tiles in every direction and more than one depth block: a few ms in all. */
const SHAPES = [
  [5, 3, 7],
  [37, 300, 45],
  [13, 600, 100],
] as const;
/** Largest difference from the reference, relative to the largest output, that passes (float32 sums). */
const TOLERANCE = 1e-4;

/** What the self-check found: the addon's tiles when it passed; whether it loaded and why not when it did not. */
export type NativeCheck =
  { ok: true; tiles: "AVX-512" | "AVX2" } | { ok: false; loads: boolean; why: string };

/**
 * Loads the addon, then computes small products with the native gemm on one thread and with the plain JS
 * reference: ok when every output agrees within 1e-4 of the largest. `products` (tests) wraps the kernels.
 */
export async function nativeSelfCheck(
  products: (k: MatmulKernels) => MatmulKernels = (k) => k,
): Promise<NativeCheck> {
  let level: number;
  try {
    level = loadNative().level;
  } catch (error) {
    return { ok: false, loads: false, why: (error as Error).message.split("\n")[0]! };
  }
  let k;
  try {
    // a small heap: only these products live in it
    k = createWasmKernels({ threads: 1, native: true, maxHeapMiB: 16 });
  } catch (error) {
    return { ok: false, loads: false, why: (error as Error).message.split("\n")[0]! };
  }
  const failed = (why: string): NativeCheck => ({ ok: false, loads: true, why });
  try {
    if (!k.name.startsWith("native")) return failed("the engine did not take it");
    const rng = new Rng(11);
    for (const [M, K, N] of SHAPES) {
      for (const shape of ["AB", "ABt", "AtB"] as const) {
        const a = k.alloc(M * K);
        const b = k.alloc(K * N);
        const out = k.alloc(M * N);
        for (let i = 0; i < a.length; i++) a[i] = rng.next() * 2 - 1;
        for (let i = 0; i < b.length; i++) b[i] = rng.next() * 2 - 1;
        const want = new Float32Array(M * N);
        referenceKernels[`matmul${shape}`](want, a, b, M, K, N, false);
        products(k)[`matmul${shape}`](out, a, b, M, K, N, false);
        let scale = 1;
        let worst = 0;
        for (let i = 0; i < want.length; i++) {
          scale = Math.max(scale, Math.abs(want[i]!));
          const d = Math.abs(out[i]! - want[i]!);
          worst = Number.isNaN(d) ? Infinity : Math.max(worst, d);
        }
        k.free(a);
        k.free(b);
        k.free(out);
        if (!(worst / scale < TOLERANCE))
          return failed(
            `its ${shape} product ${M}×${K}×${N} is off the reference by ${(worst / scale).toExponential(1)}`,
          );
      }
    }
    return { ok: true, tiles: level >= 2 ? "AVX-512" : "AVX2" };
  } finally {
    await k.close();
  }
}
