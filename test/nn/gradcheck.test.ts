import { describe, expect, it } from "vitest";
import { presetConfig, type LlamaConfig } from "../../src/nn/config.ts";
import { referenceKernels } from "../../src/nn/kernels/reference.ts";
import {
  QUERY_BLOCK,
  attentionProbsSize,
  attentionBackward,
  attentionForward,
  mergeHeads,
  splitHeads,
  type AttentionShape,
} from "../../src/nn/layers/attention.ts";
import { crossEntropyInPlace } from "../../src/nn/layers/cross-entropy.ts";
import { rmsnormBackward, rmsnormForward } from "../../src/nn/layers/rmsnorm.ts";
import { ropeTable } from "../../src/nn/layers/rope.ts";
import { swigluBackward, swigluForward } from "../../src/nn/layers/swiglu.ts";
import { Llama, type Batch } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";

const rng = new Rng(7);
const randn = (n: number, std = 1) => Float32Array.from({ length: n }, () => rng.normal() * std);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i], 0);

/**
 * Central finite differences of a scalar function f against an analytic gradient, on a sample of entries.
 * float32 arithmetic, so eps is moderate and the tolerance relative to the gradient's scale.
 */
function check(x: Float32Array, analytic: Float32Array, f: () => number, eps = 1e-2, samples = 24): void {
  const scale = Math.max(1e-3, ...Array.from(analytic, Math.abs));
  const idx =
    x.length <= samples
      ? [...Array(x.length).keys()]
      : Array.from({ length: samples }, () => rng.int(x.length));
  for (const i of idx) {
    const old = x[i];
    x[i] = old + eps;
    const up = f();
    x[i] = old - eps;
    const down = f();
    x[i] = old;
    const numeric = (up - down) / (2 * eps);
    expect(
      Math.abs(numeric - analytic[i]) / scale,
      `entry ${i}: numeric ${numeric} vs analytic ${analytic[i]}`,
    ).toBeLessThan(2e-2);
  }
}

describe("finite-difference gradient checks per layer", () => {
  it("RMSNorm: input and weight", () => {
    const rows = 3,
      d = 8,
      eps = 1e-5;
    const x = randn(rows * d),
      w = randn(d),
      r = randn(rows * d);
    const out = new Float32Array(rows * d),
      inv = new Float32Array(rows);
    const f = () => (rmsnormForward(out, inv, x, w, rows, d, eps), dot(out, r));
    f();
    const dx = new Float32Array(rows * d),
      dw = new Float32Array(d);
    rmsnormBackward(dx, dw, r, x, w, inv, rows, d);
    check(x, dx, f);
    check(w, dw, f);
  });

  it("SwiGLU: gate and up", () => {
    const n = 20;
    const g = randn(n),
      u = randn(n),
      r = randn(n),
      a = new Float32Array(n);
    const f = () => (swigluForward(a, g, u, n), dot(a, r));
    const dg = new Float32Array(n),
      du = new Float32Array(n);
    swigluBackward(dg, du, r, g, u, n);
    check(g, dg, f);
    check(u, du, f);
  });

  it("RoPE split/merge: the backward is the transpose of the rotation", () => {
    const s: AttentionShape = { B: 2, H: 2, T: 5, hd: 4 };
    const n = s.B * s.T * s.H * s.hd;
    const rope = ropeTable(16, s.hd, 10000);
    const positions = Int32Array.from({ length: s.B * s.T }, (_, i) => (i % s.T) + 3);
    const x = randn(n),
      r = randn(n),
      y = new Float32Array(n);
    const f = () => (splitHeads(y, x, s, rope, positions), dot(y, r));
    const dx = new Float32Array(n);
    mergeHeads(dx, r, s, rope, positions);
    check(x, dx, f);
    // rotation preserves norms and merge∘split is the identity
    const back = new Float32Array(n);
    splitHeads(y, x, s, rope, positions);
    mergeHeads(back, y, s, rope, positions);
    for (let i = 0; i < n; i++) expect(back[i]).toBeCloseTo(x[i], 5);
  });

  for (const s of [
    { B: 2, H: 2, T: 6, hd: 4 },
    { B: 1, H: 2, T: 2 * QUERY_BLOCK + 3, hd: 4 }, // three query blocks
  ] satisfies AttentionShape[]) {
    it(`causal attention (T=${s.T}): matches a direct softmax, gradients of Q, K and V`, () => {
      const n = s.B * s.H * s.T * s.hd;
      const Q = randn(n),
        K = randn(n),
        V = randn(n),
        r = randn(n);
      const O = new Float32Array(n),
        P = new Float32Array(attentionProbsSize(s));
      const f = () => (attentionForward(referenceKernels, O, P, Q, K, V, s), dot(O, r));
      f();
      // direct computation for the last head, at a few query rows
      const base = (s.B * s.H - 1) * s.T * s.hd;
      for (const t of [0, s.T >> 1, s.T - 1]) {
        const w = Array.from({ length: t + 1 }, (_, j) => {
          let a = 0;
          for (let i = 0; i < s.hd; i++) a += Q[base + t * s.hd + i] * K[base + j * s.hd + i];
          return Math.exp(a / Math.sqrt(s.hd));
        });
        const z = w.reduce((a, b) => a + b, 0);
        for (let i = 0; i < s.hd; i++) {
          const want = w.reduce((acc, wj, j) => acc + (wj / z) * V[base + j * s.hd + i], 0);
          expect(O[base + t * s.hd + i]).toBeCloseTo(want, 4);
        }
      }
      const dQ = new Float32Array(n),
        dK = new Float32Array(n),
        dV = new Float32Array(n);
      attentionBackward(referenceKernels, dQ, dK, dV, r, P, Q, K, V, new Float32Array(QUERY_BLOCK * s.T), s);
      check(Q, dQ, f);
      check(K, dK, f);
      check(V, dV, f);
      // causality: changing the last key/value leaves the earlier outputs unchanged
      const before = O.slice();
      K[(s.T - 1) * s.hd] += 1;
      V[(s.T - 1) * s.hd] += 1;
      f();
      for (let t = 0; t < s.T - 1; t++) expect(O[t * s.hd]).toBe(before[t * s.hd]);
    });
  }

  it("cross-entropy: gradient of the mean loss over the logits", () => {
    const rows = 3,
      V = 7;
    const logits = randn(rows * V),
      targets = [1, 6, 0];
    const f = () => crossEntropyInPlace(logits.slice(), targets, rows, V, 1 / rows) / rows;
    const g = logits.slice();
    crossEntropyInPlace(g, targets, rows, V, 1 / rows);
    check(logits, g, f);
  });

  it("whole model: every parameter tensor, tied and untied, with a loss mask", () => {
    for (const tie of [false, true]) {
      const c: LlamaConfig = presetConfig("tiny", 11, {
        hiddenSize: 8,
        intermediateSize: 12,
        numLayers: 2,
        numHeads: 2,
        maxPositions: 16,
        initStd: 0.5,
        tieWordEmbeddings: tie,
      });
      const params = initParams(c, 3);
      // make the norm weights non-trivial so their gradients are checked at a generic point
      for (const t of params.tensors)
        if (t.shape.length === 1) for (let i = 0; i < t.data.length; i++) t.data[i] = 1 + 0.3 * rng.normal();
      const model = new Llama(c, params);
      const B = 2,
        T = 5;
      const batch: Batch = {
        B,
        T,
        tokens: Int32Array.from({ length: B * T }, () => rng.int(11)),
        targets: Int32Array.from({ length: B * T }, (_, i) => (i % 3 === 0 ? -1 : rng.int(11))),
        positions: Int32Array.from({ length: B * T }, (_, i) => i % T),
      };
      const grads = params.like();
      model.forwardBackward(batch, grads);
      for (const t of params.tensors) check(t.data, grads.get(t.name), () => model.loss(batch).loss, 1e-2, 6);
    }
  });
});
