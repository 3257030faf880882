import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { MatmulCall, RowWork } from "../../src/nn/kernels/api.ts";
import { DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { emptyStats } from "../../src/nn/kernels/stats.ts";
import {
  attentionBackwardRows,
  attentionBackwardRowsWith,
  attentionProbsSize,
  type AttentionShape,
} from "../../src/nn/layers/attention.ts";
import { ropeTable } from "../../src/nn/layers/rope.ts";
import { bytes, kernelsOnThreads, seededFill } from "../helpers/threaded-kernels.ts";

// A backward layer's attention (with RoPE's backward) and its four weight gradients in one pool job (llama.ts
// backward, kernels attentionBackwardWith): each thread takes the attention items of its rows first, then its
// share of the products' chunks. It must give the bits of the attention's own job and then the products on any
// thread count, for both kernel families, with a norm's weight gradient left for the next job reading either a
// buffer of its own (it joins the job) or dQ, which the attention writes (it must run first, in a job of its own).
describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("the attention backward beside the weight gradients", () => {
  const kernels = kernelsOnThreads();

  /** Packed samples of 9-60 tokens over N rows (the retrieval stage packs 15-55). */
  function spans(N: number): Int32Array {
    const out: number[] = [];
    let seed = 5;
    for (let t = 0; t < N;) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const L = Math.min(N - t, 9 + (seed % 52));
      out.push(t, L);
      t += L;
    }
    return Int32Array.from(out);
  }

  /**
   * The attention backward and the weight gradients over N rows on k, after a norm backward whose weight
   * gradient is deferred (reading dQ when `dwReadsDq`); with: in one job (attentionBackwardWith), else the calls
   * one by one. Returns every output and whether one job took them.
   */
  function layer(k: WasmKernels, N: number, with_: boolean, dwReadsDq: boolean) {
    const d = 128;
    const f = 352;
    const H = 4;
    const hd = d / H;
    const s: AttentionShape = { B: 1, H, T: N, hd, spans: spans(N) };
    const fill = seededFill(k, 11);
    const [dO, q, kk, v, dx, dxNext, h2, att, x2] = Array.from({ length: 9 }, () => fill(N * d));
    const [dQ, dK, dV] = [fill(N * d), fill(N * d), fill(N * d)];
    const P = fill(attentionProbsSize(s), 0.05);
    const [a, dg, du] = [fill(N * f), fill(N * f), fill(N * f)];
    const [dWd, dWg, dWu, dWo] = [fill(d * f), fill(f * d), fill(f * d), fill(d * d)];
    const [w2, inv2, dw2] = [fill(d, 1), fill(N, 1), fill(d)];
    const [dy, r0, W0] = [dwReadsDq ? dQ : fill(N * d), fill(N * d), fill(d * d)];
    const positions = Int32Array.from({ length: N }, (_, i) => i % 64);
    const rope = { rope: ropeTable(64, hd, 10000), positions };
    // a norm's backward whose weight gradient (reading dy) is left for the next job
    const norm: RowWork = { kind: "rmsnormBackward", dx: r0, dw: dw2, x: x2, w: w2, inv: inv2 };
    const ig = { shape: "AB", out: dy, a: dxNext, b: W0, M: N, K: d, N: d } as const;
    if (!k.matmulThen!([ig], [norm])) {
      k.matmulAB(dy, dxNext, W0, N, d, d);
      k.rmsnormBackward!(r0, dw2, dy, x2, w2, inv2, N, d);
    }
    const wg = (out: Float32Array, g: Float32Array, x: Float32Array, M: number, n: number): MatmulCall => ({
      shape: "AtB",
      out,
      a: g,
      b: x,
      M,
      K: N,
      N: n,
      accumulate: true,
    });
    const weights = [
      wg(dWd, dx, a, d, f),
      wg(dWg, dg, h2, f, d),
      wg(dWu, du, h2, f, d),
      wg(dWo, dxNext, att, d, d),
    ];
    const took = with_ && attentionBackwardRowsWith(k, weights, dQ, dK, dV, dO, P, q, kk, v, s, rope);
    if (!took) {
      k.matmulMany!(weights);
      expect(attentionBackwardRows(k, dQ, dK, dV, dO, P, q, kk, v, fill(64 * N), s, rope)).toBe(true);
    }
    k.flush!();
    const outputs = [dQ, dK, dV, dWd, dWg, dWu, dWo, dw2, r0].map((y) => Float32Array.from(y));
    return { outputs, took };
  }

  it("gives the bits of the calls one by one, on 1, 2 and 3 threads, in one job", () => {
    // 1059 rows as in the retrieval stage; 331 leaves a last chunk that is not a whole tile
    for (const N of [1059, 331]) {
      for (const native of [false, true]) {
        const family = kernels.filter((k) => k.name.startsWith("native") === native);
        if (family.length === 0) continue;
        for (const dwReadsDq of [false, true]) {
          const want = layer(family[0]!, N, false, dwReadsDq).outputs;
          for (const k of family) {
            const stats = emptyStats();
            k.collectStats(stats);
            const got = layer(k, N, true, dwReadsDq);
            k.collectStats(undefined);
            const what = `N ${N}, ${k.name}, dw reads dQ: ${dwReadsDq}`;
            got.outputs.forEach((y, i) =>
              expect(Buffer.compare(bytes(y), bytes(want[i]!)), `${what}, output ${i}`).toBe(0),
            );
            expect(got.took, what).toBe(k.parallel);
            if (!k.parallel) continue;
            expect(stats.shared["tasks in GEMM jobs"], what).toBe(1);
            // the norm's weight gradient joined the job, unless it reads what the attention writes
            expect((stats.ms["RMSNorm backward"] ?? 0) > 0, what).toBe(dwReadsDq);
          }
        }
      }
    }
  });
});
