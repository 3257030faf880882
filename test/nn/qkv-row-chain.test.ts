import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { MatmulCall, RowWork } from "../../src/nn/kernels/api.ts";
import { DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { emptyStats } from "../../src/nn/kernels/stats.ts";
import { bytes, kernelsOnThreads, seededFill } from "../helpers/threaded-kernels.ts";

// The backward's row chain from a layer's q/k/v input gradients (dh = dQ·Wq, += dK·Wk, += dV·Wv, then its norm's
// backward, dx in place) on through the layer below's down, gate/up and o input gradients (llama.ts backward),
// with the q/k/v weight gradients beside the chain in the same job and both norms' weight gradients left for the
// next job. It must give the bits of the calls of before (the q/k/v job, then the layer below's chain) on any
// thread count, for both kernel families: a deferred weight gradient lost or run on the wrong arguments, or a
// product beside the chain that raced it, changes them.
describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("the q/k/v backward at the head of the row chain", () => {
  const kernels = kernelsOnThreads();

  /** Both layers' backward products over N rows on k (merged: one chain with the weights beside it). */
  function layers(k: WasmKernels, N: number, merged: boolean) {
    const d = 128;
    const f = 352;
    const fill = seededFill(k, 7);
    const [dQ, dK, dV, h1, x1, dx, dxNext, x2] = Array.from({ length: 8 }, () => fill(N * d));
    const [g, u, sg] = [fill(N * f, 2), fill(N * f), fill(N * f)];
    const [Wq, Wk, Wv, Wo] = [fill(d * d), fill(d * d), fill(d * d), fill(d * d)];
    const [Wd, Wg, Wu] = [fill(d * f), fill(f * d), fill(f * d)];
    const [dWq, dWk, dWv] = [fill(d * d), fill(d * d), fill(d * d)];
    const [w1, inv1, dw1, w2, inv2, dw2] = [fill(d, 1), fill(N, 1), fill(d), fill(d, 1), fill(N, 1), fill(d)];
    const [dh, chainDh, da, dg, du, dO] = [
      fill(N * d),
      fill(N * d),
      fill(N * f),
      fill(N * f),
      fill(N * f),
      fill(N * d),
    ];
    const ig = (out: Float32Array, dy: Float32Array, W: Float32Array, K: number, n: number, acc = false) =>
      ({ shape: "AB", out, a: dy, b: W, M: N, K, N: n, accumulate: acc }) as const;
    const wg = (out: Float32Array, dy: Float32Array, x: Float32Array): MatmulCall => ({
      shape: "AtB",
      out,
      a: dy,
      b: x,
      M: d,
      K: N,
      N: d,
      accumulate: true,
    });
    const qkv = [ig(dh, dQ, Wq, d, d), ig(dh, dK, Wk, d, d, true), ig(dh, dV, Wv, d, d, true)];
    const norm1: RowWork = { kind: "rmsnormBackward", dx, dw: dw1, x: x1, w: w1, inv: inv1 };
    const weights = [wg(dWq, dQ, h1), wg(dWk, dK, h1), wg(dWv, dV, h1)];
    const chain = [
      ig(da, dx, Wd, d, f),
      ig(chainDh, dg, Wg, f, d),
      ig(chainDh, du, Wu, f, d, true),
      ig(dO, dxNext, Wo, d, d),
    ];
    const norm2: RowWork = {
      kind: "rmsnormBackward",
      dx: dxNext,
      from: dx,
      dw: dw2,
      x: x2,
      w: w2,
      inv: inv2,
    };
    const then: (RowWork | undefined)[] = [
      { kind: "swigluBackward", dg, du, g, u, sg },
      undefined,
      norm2,
      undefined,
    ];
    let took = false;
    if (merged) took = k.matmulChain!([...qkv, ...chain], [undefined, undefined, norm1, ...then], weights);
    if (!took) {
      const list = [qkv[0]!, ...weights, qkv[1]!, qkv[2]!];
      if (!k.matmulThen!(list, [norm1, undefined, undefined, undefined, undefined, undefined])) {
        k.matmulMany!(list);
        k.rmsnormBackward!(dx, dw1, dh, x1, w1, inv1, N, d);
      }
      if (!k.matmulChain!(chain, then)) {
        k.matmulMany!(chain.slice(0, 1));
        k.swigluBackward!(dg, du, da, g, u, N * f, sg);
        k.matmulMany!(chain.slice(1, 3));
        dxNext.set(dx);
        k.rmsnormBackward!(dxNext, dw2, chainDh, x2, w2, inv2, N, d);
        k.matmulMany!(chain.slice(3));
      }
    }
    // the next GEMM job, which the norms' deferred weight gradients join
    const [o, o2, a, b] = [fill(N * d), fill(N * d), fill(N * d), fill(d * d)];
    k.matmulMany!([ig(o, a, b, d, d), ig(o2, a, b, d, d)]);
    k.flush!();
    const outputs = [dh, dx, dxNext, da, dg, du, chainDh, dO, dWq, dWk, dWv, dw1, dw2, o, o2];
    return { outputs: outputs.map((y) => Float32Array.from(y)), took };
  }

  it("gives the bits of the calls of before, on 1, 2 and 3 threads, in one job", () => {
    for (const N of [1059, 331]) {
      for (const native of [false, true]) {
        const family = kernels.filter((k) => k.name.startsWith("native") === native);
        if (family.length === 0) continue;
        const want = layers(family[0]!, N, false).outputs;
        for (const k of family) {
          const stats = emptyStats();
          k.collectStats(stats);
          const got = layers(k, N, true);
          k.collectStats(undefined);
          const what = `N ${N}, ${k.name}`;
          got.outputs.forEach((y, i) =>
            expect(Buffer.compare(bytes(y), bytes(want[i]!)), `${what}, output ${i}`).toBe(0),
          );
          // (the native gemm cuts 331 rows by columns: no chain there)
          if (!k.parallel || (native && N === 331)) continue;
          expect(got.took, what).toBe(true);
          expect(stats.shared["GEMMs beside row chains"], what).toBe(3);
          // both norms' weight gradients joined the next job: none ran in a job of its own
          expect(stats.ms["RMSNorm backward"] ?? 0, what).toBe(0);
        }
      }
    }
  });
});
