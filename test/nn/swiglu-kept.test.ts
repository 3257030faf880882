import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { Rng } from "../../src/nn/rng.ts";

// The forward keeps σ(g) for the SwiGLU backward (issue 40: the backward's exponential and division were most
// of its time): reading it back must give the bits of computing it again, on one thread and on the pool.

const made: WasmKernels[] = [];

describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("SwiGLU with σ(g) kept by the forward", () => {
  afterAll(async () => {
    await Promise.all(made.map((k) => k.close()));
  });

  it("gives the same a, dg and du as computing σ(g) again, on 1 and 2 threads", async () => {
    const n = 200_003; // a tail that is no multiple of 4, and several pool items
    for (const threads of [1, 2]) {
      const k = createWasmKernels({ threads });
      made.push(k);
      const until = Date.now() + 20_000;
      while (threads > 1 && !k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const rng = new Rng(7);
      const [g, u, da] = [0, 1, 2].map(() => {
        const x = k.alloc(n);
        for (let i = 0; i < n; i++) x[i] = rng.normal() * 4;
        return x;
      });
      const [a1, a2, sg, dg1, du1, dg2, du2] = Array.from({ length: 7 }, () => k.alloc(n));
      k.swigluForward(a1!, g!, u!, n);
      expect(k.swigluForward(a2!, g!, u!, n, sg)).toBe(true);
      expect(
        Buffer.compare(
          Buffer.from(a1!.buffer, a1!.byteOffset, 4 * n),
          Buffer.from(a2!.buffer, a2!.byteOffset, 4 * n),
        ),
      ).toBe(0);
      k.swigluBackward(dg1!, du1!, da!, g!, u!, n);
      k.swigluBackward(dg2!, du2!, da!, g!, u!, n, sg);
      for (const [x, y] of [
        [dg1!, dg2!],
        [du1!, du2!],
      ]) {
        expect(x.findIndex((v, i) => !Object.is(v, y[i]))).toBe(-1);
      }
      // σ(g) itself, as the lanes compute it
      expect(sg![0]).toBeCloseTo(1 / (1 + Math.exp(-g![0]!)), 6);
    }
  });
});
