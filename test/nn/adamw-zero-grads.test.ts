import { afterAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { referenceKernels, useKernels, type MatmulKernels } from "../../src/nn/kernels/index.ts";
import { DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { ParamSet } from "../../src/nn/params.ts";
import { AdamW, gradNormScale } from "../../src/nn/train/adamw.ts";
import { startKernels } from "../helpers/threaded-kernels.ts";

// AdamW.update(grads, lr, scale, true) clears each gradient as the kernels read it, so the trainer's next
// backward adds into zeros instead of a pass that clears them first (issue 40). The weights and moments must
// keep the bits of the update that leaves grads alone (the same on any thread count), and grads must come out +0.

const made: WasmKernels[] = [];
let previous: MatmulKernels | undefined;
afterAll(async () => {
  if (previous) useKernels(previous);
  await Promise.all(made.map((k) => k.close()));
});

/** A matrix (weight decay), a vector (none) and a long tensor cut into several AdamW slices; 4k + 3 floats. */
const SPECS = [
  { name: "w", shape: [37, 41] },
  { name: "norm", shape: [19] },
  { name: "big", shape: [200_003] },
];

function fillGrads(grads: ParamSet, step: number): void {
  for (let i = 0; i < grads.flat.length; i++)
    grads.flat[i] = Math.cos(i * 1.3 + step) * (i % 11 === 0 ? 3 : 0.2);
}

/** Three clipped updates, the gradients cleared by the update (`zero`) or left as they are. */
function run(zero: boolean): { p: Float32Array; m: Float32Array; v: Float32Array; grads: Float32Array } {
  const params = new ParamSet(SPECS);
  const grads = new ParamSet(SPECS);
  for (let i = 0; i < params.flat.length; i++) params.flat[i] = Math.sin(i * 0.37) * 0.05;
  const opt = new AdamW(params);
  for (let step = 0; step < 3; step++) {
    fillGrads(grads, step);
    opt.update(grads, 1e-3, gradNormScale(grads, 1).scale, zero);
  }
  return { p: params.flat.slice(), m: opt.m.flat.slice(), v: opt.v.flat.slice(), grads: grads.flat.slice() };
}

function differing(a: Float32Array, b: Float32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

const threadCounts = existsSync(DEFAULT_WASM_PATH) ? [1, 2, 3] : [];

describe("AdamW clearing the gradients it reads", () => {
  it("keeps the weights and moments, and leaves +0 gradients, on the JS loops and on 1–3 threads", async () => {
    previous ??= useKernels(referenceKernels);
    const kernelSets: Array<[string, MatmulKernels]> = [["the JS loops", referenceKernels]];
    const started = await startKernels(threadCounts.map((threads) => ({ threads })));
    made.push(...started);
    started.forEach((k, i) => kernelSets.push([`${threadCounts[i]} thread(s)`, k]));
    let firstWasm: Float32Array | undefined;
    for (const [name, k] of kernelSets) {
      useKernels(k);
      const kept = run(false);
      const cleared = run(true);
      if (k !== referenceKernels) {
        firstWasm ??= cleared.p;
        expect(differing(cleared.p, firstWasm), name).toBe(0);
      }
      expect(differing(cleared.p, kept.p), name).toBe(0);
      expect(differing(cleared.m, kept.m), name).toBe(0);
      expect(differing(cleared.v, kept.v), name).toBe(0);
      expect(differing(cleared.grads, new Float32Array(cleared.grads.length)), name).toBe(0);
      expect(differing(kept.grads, cleared.grads), name).toBeGreaterThan(0); // the update without it keeps them
    }
  });
});
