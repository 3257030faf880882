import type { MatmulKernels } from "./api.ts";

/** Plain JavaScript loops: the correctness reference for the fast kernels, and the fallback. */
export const referenceKernels: MatmulKernels = {
  name: "js-reference",
  matmulABt(out, a, b, M, K, N, accumulate = false) {
    for (let i = 0; i < M; i++) {
      const ai = i * K;
      for (let j = 0; j < N; j++) {
        const bj = j * K;
        let s = 0;
        for (let k = 0; k < K; k++) s += a[ai + k] * b[bj + k];
        out[i * N + j] = accumulate ? out[i * N + j] + s : s;
      }
    }
  },
  matmulAB(out, a, b, M, K, N, accumulate = false) {
    if (!accumulate) out.fill(0, 0, M * N);
    for (let i = 0; i < M; i++) {
      for (let k = 0; k < K; k++) {
        const aik = a[i * K + k];
        if (aik === 0) continue;
        const bk = k * N;
        const oi = i * N;
        for (let j = 0; j < N; j++) out[oi + j] += aik * b[bk + j];
      }
    }
  },
  matmulAtB(out, a, b, M, K, N, accumulate = false) {
    if (!accumulate) out.fill(0, 0, M * N);
    for (let k = 0; k < K; k++) {
      const ak = k * M;
      const bk = k * N;
      for (let i = 0; i < M; i++) {
        const aki = a[ak + i];
        if (aki === 0) continue;
        const oi = i * N;
        for (let j = 0; j < N; j++) out[oi + j] += aki * b[bk + j];
      }
    }
  },
  alloc(length) {
    return new Float32Array(length);
  },
};
