// The opt-in native GEMM (TOOLGEN_KERNELS=native): a C++ addon (native/gemm.cc, `npm run build:native`) that
// takes the WebAssembly gemm's arguments and computes on the same shared heap with AVX2/AVX-512 FMA tiles,
// about twice the WebAssembly gemm's speed per thread (issue 40). Plain JS: the pool's workers import it too.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** Where `npm run build:native` puts the addon. */
export const NATIVE_PATH = fileURLToPath(
  new URL("../../../native/build/Release/toolgen_gemm.node", import.meta.url),
);

/** Loads the addon; throws when it is missing, cannot load, or the CPU lacks AVX2+FMA. */
export function loadNative(path = NATIVE_PATH) {
  const addon = createRequire(import.meta.url)(path);
  if (!(addon.level > 0)) throw new Error("this CPU has no AVX2+FMA");
  return addon;
}

/**
 * The WebAssembly module's exports with gemm replaced by the addon's, on `memory`'s heap. The heap view is
 * made again when the memory has grown (a new buffer object), so the addon always sees the whole heap.
 */
export function withNativeGemm(exports, memory, addon) {
  let heap = new Float32Array(memory.buffer);
  const gemm = (c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, acc) => {
    if (heap.buffer !== memory.buffer) heap = new Float32Array(memory.buffer);
    addon.gemm(heap, c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, acc);
  };
  return { ...exports, gemm, native: addon.level };
}
