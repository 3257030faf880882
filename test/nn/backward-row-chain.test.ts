import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { MatmulCall, RowWork } from "../../src/nn/kernels/api.ts";
import { DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { emptyStats } from "../../src/nn/kernels/stats.ts";
import { bytes, kernelsOnThreads, seededFill } from "../helpers/threaded-kernels.ts";

// The backward's row chain (llama.ts backward): down's input gradient, SwiGLU's backward, the gate/up input
// gradients summed, RMSNorm's backward writing dL/dx2 into a second buffer (RowWork `from`), o's input gradient,
// in one pool job per layer, then the four weight gradients in one job. It must give the bits of the calls of
// before (three matmulThen/matmulMany calls, the norm adding into dx in place) on any thread count, for both
// kernel families: an epilogue that ran before the rows it reads were summed, or a deferred norm weight gradient
// that raced the chain, changes them.
describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("a layer's backward products as one row chain", () => {
  const kernels = kernelsOnThreads();

  /**
   * A layer's MLP and o backward over N rows on k (chain: matmulChain, then the weight gradients in one call;
   * else the calls of before); returns every output: da, dg, du, dh, dL/dx2, dO and the five weight gradients.
   */
  function layer(k: WasmKernels, N: number, d: number, f: number, chain: boolean) {
    const fill = seededFill(k, 11);
    const [dx, x2, h2, att] = [fill(N * d), fill(N * d, 2), fill(N * d), fill(N * d)];
    const [g, u, a, sg] = [fill(N * f, 2), fill(N * f), fill(N * f), fill(N * f)];
    const [Wd, Wg, Wu, Wo] = [fill(d * f), fill(f * d), fill(f * d), fill(d * d)];
    const [w2, inv2] = [fill(d, 1), fill(N, 1)];
    const [dWd, dWg, dWu, dWo, dw2] = [fill(d * f), fill(f * d), fill(f * d), fill(d * d), fill(d)];
    const [da, dg, du, dh, dO, dx2] = [
      fill(N * f),
      fill(N * f),
      fill(N * f),
      fill(N * d),
      fill(N * d),
      fill(N * d),
    ];
    const ig = (
      out: Float32Array,
      dy: Float32Array,
      W: Float32Array,
      K: number,
      n: number,
      accumulate = false,
    ) => ({ shape: "AB", out, a: dy, b: W, M: N, K, N: n, accumulate }) as const;
    const wg = (out: Float32Array, dy: Float32Array, x: Float32Array, M: number, n: number) =>
      ({ shape: "AtB", out, a: dy, b: x, M, K: N, N: n, accumulate: true }) as const;
    const swiglu: RowWork = { kind: "swigluBackward", dg, du, g, u, sg };
    // first a norm's backward whose weight gradient is left for the next job (as the layer above leaves its
    // norm1's), reading dL/dx2's rows before the chain writes them: it must run before the chain, not beside it
    const [h0, r0, dw0] = [fill(N * d), fill(N * d), fill(d)];
    const before: RowWork = { kind: "rmsnormBackward", dx: r0, dw: dw0, x: dx2, w: w2, inv: inv2 };
    if (!k.matmulThen!([ig(h0, dx, Wo, d, d)], [before])) {
      k.matmulAB(h0, dx, Wo, N, d, d);
      k.rmsnormBackward!(r0, dw0, h0, dx2, w2, inv2, N, d);
    }
    const weights = [wg(dWd, dx, a, d, f), wg(dWg, dg, h2, f, d), wg(dWu, du, h2, f, d)];
    let took = false;
    if (chain) {
      const list: MatmulCall[] = [
        ig(da, dx, Wd, d, f),
        ig(dh, dg, Wg, f, d),
        ig(dh, du, Wu, f, d, true),
        ig(dO, dx2, Wo, d, d),
      ];
      const norm: RowWork = { kind: "rmsnormBackward", dx: dx2, from: dx, dw: dw2, x: x2, w: w2, inv: inv2 };
      took = k.matmulChain!(list, [swiglu, undefined, norm, undefined]);
      if (took) k.matmulMany!([...weights, wg(dWo, dx2, att, d, d)]);
    }
    if (!took) {
      expect(k.matmulThen!([ig(da, dx, Wd, d, f), weights[0]!], [swiglu, undefined])).toBe(true);
      dx2.set(dx); // (before: the norm's backward added into dx in place)
      const norm: RowWork = { kind: "rmsnormBackward", dx: dx2, dw: dw2, x: x2, w: w2, inv: inv2 };
      const mlp = [ig(dh, dg, Wg, f, d), weights[1]!, weights[2]!, ig(dh, du, Wu, f, d, true)];
      if (!k.matmulThen!(mlp, [norm, undefined, undefined, undefined])) {
        k.matmulMany!(mlp);
        k.rmsnormBackward!(dx2, dw2, dh, x2, w2, inv2, N, d);
      }
      k.matmulMany!([ig(dO, dx2, Wo, d, d), wg(dWo, dx2, att, d, d)]);
    }
    k.flush!();
    return [da, dg, du, dh, dx2, dO, dWd, dWg, dWu, dWo, dw2, h0, r0, dw0].map((y) => Float32Array.from(y));
  }

  it("gives the bits of the calls one by one, on 1, 2 and 3 threads, in one job a layer", () => {
    // 1059 rows as in the retrieval stage; 331 leaves a last chunk that is not a whole tile (and is above the
    // size under which the norm's backward stays off the pool: wasm-train.ts POOL_FLOATS)
    for (const N of [1059, 331]) {
      for (const native of [false, true]) {
        const family = kernels.filter((k) => k.name.startsWith("native") === native);
        if (family.length === 0) continue;
        const want = layer(family[0]!, N, 128, 352, false);
        for (const k of family) {
          const stats = emptyStats();
          k.collectStats(stats);
          const got = layer(k, N, 128, 352, true);
          k.collectStats(undefined);
          got.forEach((y, i) =>
            expect(Buffer.compare(bytes(y), bytes(want[i]!)), `N ${N}, output ${i}, ${k.name}`).toBe(0),
          );
          // (the native gemm cuts 331 rows by columns: no chain there, the calls of before)
          if (k.parallel && (N === 1059 || !native)) {
            expect(stats.shared["GEMMs in row chains"], `N ${N}, ${k.name}`).toBe(4);
            expect(stats.shared["row epilogues in GEMM jobs"]).toBe(3);
            // the first norm's weight gradient ran in a job of its own, before the chain that writes its x (a race
            // beside the chain seldom shows in the bits: its items come first)
            expect(stats.ms["RMSNorm backward"] ?? 0, `N ${N}, ${k.name}`).toBeGreaterThan(0);
          }
        }
      }
    }
  });
});
