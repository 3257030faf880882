/** Where `npm run build:native` puts the addon. */
export const NATIVE_PATH: string;
/**
 * The addon: gemm on a Float32Array over the heap (c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, accumulate, then
 * optionally the tiles' level, a pool job's token and the operand its chunks share: native/gemm.cc GemmCall);
 * level 1: AVX2 tiles, 2: AVX-512 tiles.
 */
export interface NativeAddon {
  gemm(heap: Float32Array, ...args: number[]): void;
  /** madvise(MADV_HUGEPAGE) over [heap, heap + bytes), 2 MB-aligned; the errno or 0 (absent in older builds). */
  adviseHugePages?(heap: Float32Array, bytes: number): number;
  /** The register-only FMA loop (bench/lib/fma-scaling.ts); its result only defeats optimization. */
  fmaLoop?(iterations: number): number;
  level: number;
}
/** Loads the addon; throws when it is missing, cannot load, or the CPU lacks AVX2+FMA. */
export function loadNative(path?: string): NativeAddon;
/** The module's exports with gemm replaced by the addon's on `memory`'s heap. */
export function withNativeGemm<T extends object>(
  exports: T,
  memory: WebAssembly.Memory,
  addon: NativeAddon,
): T & { gemm(...args: number[]): void; native: number };
/** 2 MB pages over `memory` up to `bytes` (TOOLGEN_NATIVE_HUGE_PAGES=0: not asked, -1); the errno or 0. */
export function adviseHugePages(memory: WebAssembly.Memory, addon: NativeAddon, bytes: number): number;
