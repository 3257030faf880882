import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MatmulCall } from "../../src/nn/kernels/api.ts";
import { DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { emptyStats } from "../../src/nn/kernels/stats.ts";
import { bytes, startKernels } from "../helpers/threaded-kernels.ts";

// matmulMany with products that add into an earlier one's output (the backward's dh = dg·Wg, dh += du·Wu; dh =
// dQ·Wq, += dK·Wk, += dV·Wv): the pool runs them on the first one's row chunks (kernels/wasm-gemm.ts chain()),
// which must give the bits of the calls one by one, in list order, on any thread count.
describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("chained products in one hand-off", () => {
  const kernels: WasmKernels[] = [];

  beforeAll(async () => {
    kernels.push(...(await startKernels([1, 2, 3].map((threads) => ({ threads })))));
  });

  afterAll(async () => {
    for (const k of kernels) await k.close();
  });

  /** The lists of the backward with N token rows, on k: [outputs..., ] after matmulMany or the calls one by one. */
  function run(k: WasmKernels, N: number, f: number, d: number, many: boolean): Float32Array[] {
    let seed = 3;
    const fill = (n: number) => {
      const a = k.alloc(n);
      for (let i = 0; i < n; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        a[i] = (seed / 2 ** 32 - 0.5) * 0.2;
      }
      return a;
    };
    const [dg, du] = [fill(N * f), fill(N * f)];
    const [Wg, Wu] = [fill(f * d), fill(f * d)];
    const h2 = fill(N * d);
    const [dQ, dK, dV] = [fill(N * d), fill(N * d), fill(N * d)];
    const [Wq, Wk, Wv] = [fill(d * d), fill(d * d), fill(d * d)];
    const dh1 = fill(N * d); // overwritten by the first product
    const dh2 = fill(N * d);
    const [dWg, dWu, dWq, dWk, dWv] = [fill(f * d), fill(f * d), fill(d * d), fill(d * d), fill(d * d)];
    const inputGrad = (out: Float32Array, a: Float32Array, b: Float32Array, K: number, accumulate = false) =>
      ({ shape: "AB", out, a, b, M: N, K, N: d, accumulate }) as const;
    const weightGrad = (out: Float32Array, a: Float32Array, b: Float32Array, M: number) =>
      ({ shape: "AtB", out, a, b, M, K: N, N: d, accumulate: true }) as const;
    const lists: MatmulCall[][] = [
      [
        inputGrad(dh1, dg, Wg, f),
        weightGrad(dWg, dg, h2, f),
        weightGrad(dWu, du, h2, f),
        inputGrad(dh1, du, Wu, f, true),
      ],
      [
        inputGrad(dh2, dQ, Wq, d),
        weightGrad(dWq, dQ, h2, d),
        weightGrad(dWk, dK, h2, d),
        weightGrad(dWv, dV, h2, d),
        inputGrad(dh2, dK, Wk, d, true),
        inputGrad(dh2, dV, Wv, d, true),
      ],
    ];
    for (const list of lists) {
      if (many) k.matmulMany!(list);
      else for (const m of list) k[`matmul${m.shape}`](m.out, m.a, m.b, m.M, m.K, m.N, m.accumulate);
    }
    return [dh1, dh2, dWg, dWu, dWq, dWk, dWv].map((x) => Float32Array.from(x));
  }

  it("gives the bits of the products one by one, on 1, 2 and 3 threads, in one job per list", () => {
    // 1059 rows as in the retrieval stage; 203 leaves a last chunk that is not a whole tile
    for (const N of [1059, 203]) {
      const want = run(kernels[0]!, N, 352, 128, false);
      for (const k of kernels) {
        const stats = emptyStats();
        k.collectStats(stats);
        const got = run(k, N, 352, 128, true);
        k.collectStats(undefined);
        got.forEach((x, i) =>
          expect(Buffer.compare(bytes(x), bytes(want[i]!)), `N ${N}, output ${i}`).toBe(0),
        );
        // pooled, every product of the two lists ran in its list's job (the chained ones on the first's chunks)
        if (k.parallel && N === 1059) expect(stats.shared["GEMMs in batches"]).toBe(10);
      }
    }
  });
});
