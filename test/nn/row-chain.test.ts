import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MatmulCall, RowWork } from "../../src/nn/kernels/api.ts";
import { DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { emptyStats } from "../../src/nn/kernels/stats.ts";
import { bytes, seededFill, startKernels } from "../helpers/threaded-kernels.ts";

// matmulChain: a layer's o, gate, up and down with the residual adds, norms and SwiGLU between them in one pool
// job, each thread going through the whole chain on its row chunks (kernels/wasm-gemm.ts chainRows()). It must
// give the bits of the separate calls the layer made before (llama.ts trunk: three matmulThen calls) on any
// thread count: a cut off the 4-row tiles, or a product that read rows before the work that writes them ran,
// changes them.
describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("a layer's products as one row chain", () => {
  const kernels: WasmKernels[] = [];

  beforeAll(async () => {
    kernels.push(...(await startKernels([1, 2, 3].map((threads) => ({ threads })))));
  });

  afterAll(async () => {
    for (const k of kernels) await k.close();
  });

  /**
   * The rest of a layer after attention over N rows on k (chain: one matmulChain call, else the three matmulThen
   * calls of before); returns x2, h2, g, u, a, σ(g), the next residual rows and their norm, and the two 1/rms.
   */
  function layer(k: WasmKernels, N: number, d: number, f: number, chain: boolean) {
    const fill = seededFill(k, 7);
    const [att, x] = [fill(N * d), fill(N * d, 2)];
    const [Wo, Wd] = [fill(d * d), fill(d * f)];
    const [Wg, Wu] = [fill(f * d), fill(f * d)];
    const [w2, w1] = [fill(d, 1), fill(d, 1)];
    const tmp = fill(N * d); // written by o, then by down
    const [x2, h2, next, h1] = [fill(N * d), fill(N * d), fill(N * d), fill(N * d)];
    const [inv2, inv1] = [fill(N), fill(N)];
    const [g, u, a, sg] = [fill(N * f), fill(N * f), fill(N * f), fill(N * f)];
    const linear = (out: Float32Array, x: Float32Array, W: Float32Array, K: number, n: number) =>
      ({ shape: "ABt", out, a: x, b: W, M: N, K, N: n }) as const;
    const norm2 = { out: h2, inv: inv2, w: w2, eps: 1e-5 };
    const norm1 = { out: h1, inv: inv1, w: w1, eps: 1e-5 };
    const list: MatmulCall[] = [
      linear(tmp, att, Wo, d, d),
      linear(g, h2, Wg, d, f),
      linear(u, h2, Wu, d, f),
      linear(tmp, a, Wd, f, d),
    ];
    const then: (RowWork | undefined)[] = [
      { kind: "residual", sum: x2, x, norm: norm2 },
      undefined,
      { kind: "swiglu", a, g, u, sg },
      { kind: "residual", sum: next, x: x2, norm: norm1 },
    ];
    if (chain) expect(k.matmulChain!(list, then), "matmulChain took the chain").toBe(k.parallel);
    if (!chain || !k.parallel) {
      expect(k.matmulThen!([list[0]!], [then[0]])).toBe(true);
      expect(k.matmulThen!([list[1]!, list[2]!], [undefined, then[2]])).toBe(true);
      expect(k.matmulThen!([list[3]!], [then[3]])).toBe(true);
    }
    return [x2, h2, g, u, a, sg, next, h1, inv2, inv1].map((y) => Float32Array.from(y));
  }

  it("gives the bits of the calls one by one, on 1, 2 and 3 threads, in one job", () => {
    // 1059 rows as in the retrieval stage; 203 leaves a last chunk that is not a whole tile
    for (const N of [1059, 203]) {
      const want = layer(kernels[0]!, N, 128, 352, false);
      for (const k of kernels) {
        const stats = emptyStats();
        k.collectStats(stats);
        const got = layer(k, N, 128, 352, true);
        k.collectStats(undefined);
        got.forEach((y, i) =>
          expect(Buffer.compare(bytes(y), bytes(want[i]!)), `N ${N}, output ${i}, ${k.name}`).toBe(0),
        );
        if (k.parallel) {
          expect(stats.shared["GEMMs in row chains"]).toBe(4);
          expect(stats.shared["row epilogues in GEMM jobs"]).toBe(3);
        }
      }
    }
  });
});
