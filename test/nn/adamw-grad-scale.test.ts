import { afterAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { referenceKernels, useKernels, type MatmulKernels } from "../../src/nn/kernels/index.ts";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { ParamSet } from "../../src/nn/params.ts";
import { AdamW, clipGradNorm, gradNormScale } from "../../src/nn/train/adamw.ts";

// The trainer no longer scales the gradients in place before the update: AdamW.update(grads, lr, scale) reads
// them scaled (one pass over ~3M floats less per step, issue 40). The weights and moments must come out with the
// bits of clipping first, on the fast kernels (SIMD lanes and the scalar tail: 4k + 3 floats) and without them.

const made: WasmKernels[] = [];
let previous: MatmulKernels | undefined;
afterAll(async () => {
  if (previous) useKernels(previous);
  await Promise.all(made.map((k) => k.close()));
});

/** Parameters and gradients of a few tensors (a matrix with weight decay, a vector without), seeded. */
function problem(): { params: ParamSet; grads: ParamSet } {
  const specs = [
    { name: "w", shape: [37, 41] },
    { name: "norm", shape: [19] },
    { name: "big", shape: [70_003] },
  ];
  const params = new ParamSet(specs);
  const grads = new ParamSet(specs);
  for (let i = 0; i < params.flat.length; i++) params.flat[i] = Math.sin(i * 0.37) * 0.05;
  fillGrads(grads, 0);
  return { params, grads };
}

/** The gradients of step `step` (seeded by it alone: whatever the update did to the previous ones). */
function fillGrads(grads: ParamSet, step: number): void {
  for (let i = 0; i < grads.flat.length; i++)
    grads.flat[i] = Math.cos(i * 1.3 + step) * (i % 11 === 0 ? 3 : 0.2);
}

/** How many elements differ (a count, not a diff of 70k floats, in a failure message). */
function differing(a: Float32Array, b: Float32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

/** Three updates, clipping at `maxNorm` either in place first or inside the update. */
function run(inside: boolean, maxNorm: number): { p: Float32Array; m: Float32Array; v: Float32Array } {
  const { params, grads } = problem();
  const opt = new AdamW(params);
  for (let step = 0; step < 3; step++) {
    fillGrads(grads, step);
    if (inside) {
      opt.update(grads, 1e-3, gradNormScale(grads, maxNorm).scale);
    } else {
      clipGradNorm(grads, maxNorm);
      opt.update(grads, 1e-3);
    }
  }
  return { p: params.flat.slice(), m: opt.m.flat.slice(), v: opt.v.flat.slice() };
}

const kernelSets: Array<[string, () => MatmulKernels]> = [
  ["the JS loops", () => referenceKernels],
  ...(existsSync(DEFAULT_WASM_PATH)
    ? ([
        ["the WebAssembly kernels on 1 thread", () => remember(createWasmKernels({ threads: 1 }))],
        ["the WebAssembly kernels on 2 threads", () => remember(createWasmKernels({ threads: 2 }))],
      ] as Array<[string, () => MatmulKernels]>)
    : []),
];

function remember(k: WasmKernels): WasmKernels {
  made.push(k);
  return k;
}

describe("AdamW with the clipping scale folded in", () => {
  for (const [name, make] of kernelSets) {
    it(`gives the bits of clipping first, on ${name}`, () => {
      const before = useKernels(make());
      previous ??= before;
      const norm = gradNormScale(problem().grads, 0).norm;
      expect(norm).toBeGreaterThan(10); // so a limit of 1 clips
      for (const maxNorm of [1, 1e9]) {
        const first = run(false, maxNorm);
        const inside = run(true, maxNorm);
        expect(first.p.length).toBe(70_003 + 37 * 41 + 19);
        expect(differing(inside.p, first.p)).toBe(0);
        expect(differing(inside.m, first.m)).toBe(0);
        expect(differing(inside.v, first.v)).toBe(0);
      }
      expect(gradNormScale(problem().grads, 1).scale).toBeCloseTo(1 / (norm + 1e-6), 12);
    });
  }
});
