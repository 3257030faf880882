/**
 * Two gemm implementations side by side on one thread in one process, on the retrieval stage's GEMM shapes
 * (tiny preset): each one's best time per shape over `rounds` rounds, the two taking turns (the first
 * alternating by round), and a step's GEMM time. Shared by bench/engine-fma.ts and bench/engine-native.ts.
 */
import type { WasmKernels } from "../../src/nn/kernels/index.ts";

/** `--name value` from argv, or `fallback`. */
export function option(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1]! : fallback;
}

const T = 1059;
const H = 64;
const d = 128;
const f = 352;
const V = 8392;
const LAYERS = 4;
type Shape = "AB" | "ABt" | "AtB";
/** [shape, M, K, N, calls per step] (bench/engine-gemm.ts stepCalls: 4 layers forward and backward, the head). */
export type StageGemm = [Shape, number, number, number, number];
export const STAGE_GEMMS: StageGemm[] = [
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

/** Operands large enough for every shape, in each kernel set's own heap; `run` computes one product. */
export function gemmRunner(kernels: WasmKernels[]) {
  const operands = new Map<WasmKernels, Float32Array[]>();
  for (const k of kernels) {
    const arr = (n: number) => {
      const a = k.alloc(n);
      for (let i = 0; i < n; i++) a[i] = Math.sin(i * 0.37) * 0.1;
      return a;
    };
    operands.set(k, [arr(V * d), arr(V * d), arr(V * d)]);
  }
  return {
    run(k: WasmKernels, [shape, M, K, N]: StageGemm): void {
      const [out, a, b] = operands.get(k)!;
      k[`matmul${shape}`](out!, a!, b!, M, K, N, false);
    },
    /** The output buffer of `k` (to compare bits). */
    output: (k: WasmKernels) => operands.get(k)![0]!,
  };
}

/** The comparison of kernel sets `[first, second]`, labelled `labels` in the figures. */
export function compareStageGemms(
  kernels: [WasmKernels, WasmKernels],
  labels: [string, string],
  rounds: number,
) {
  const { run } = gemmRunner(kernels);
  const best = kernels.map(() => STAGE_GEMMS.map(() => Infinity));
  for (let r = 0; r < rounds; r++) {
    STAGE_GEMMS.forEach((s, si) => {
      const reps = Math.max(3, Math.round(3e8 / (2 * s[1] * s[2] * s[3])));
      for (const ni of r % 2 ? [1, 0] : [0, 1]) {
        const k = kernels[ni]!;
        run(k, s);
        const t0 = performance.now();
        for (let i = 0; i < reps; i++) run(k, s);
        best[ni]![si] = Math.min(best[ni]![si]!, (performance.now() - t0) / reps);
      }
    });
  }
  const gflops = (ms: number, [, M, K, N]: StageGemm) => +((2 * M * K * N) / ms / 1e6).toFixed(1);
  const stepMs = best.map((b) => b.reduce((s, ms, si) => s + ms * STAGE_GEMMS[si]![4], 0));
  const stepFlops = STAGE_GEMMS.reduce((s, [, M, K, N, n]) => s + 2 * M * K * N * n, 0);
  const [a, b] = labels;
  return {
    step_gemm_ms: { [a]: +stepMs[0]!.toFixed(2), [b]: +stepMs[1]!.toFixed(2) },
    step_gemm_gflops: {
      [a]: +(stepFlops / stepMs[0]! / 1e6).toFixed(1),
      [b]: +(stepFlops / stepMs[1]! / 1e6).toFixed(1),
    },
    speedup: +(stepMs[0]! / stepMs[1]!).toFixed(3),
    by_shape: Object.fromEntries(
      STAGE_GEMMS.map((s, si) => [
        `${s[0]} ${s[1]}x${s[2]}x${s[3]} (${s[4]}/step)`,
        { [`${a}_gflops`]: gflops(best[0]![si]!, s), [`${b}_gflops`]: gflops(best[1]![si]!, s) },
      ]),
    ),
  };
}
