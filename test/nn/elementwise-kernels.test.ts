import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { createWasmKernels, DEFAULT_WASM_PATH } from "../../src/nn/kernels/wasm.ts";
import { swigluBackward, swigluForward } from "../../src/nn/layers/swiglu.ts";
import { rmsnormBackward, rmsnormForward } from "../../src/nn/layers/rmsnorm.ts";
import { referenceKernels } from "../../src/nn/kernels/reference.ts";
import {
  attentionBackward,
  attentionForward,
  attentionProbsSize,
  QUERY_BLOCK,
  type AttentionShape,
} from "../../src/nn/layers/attention.ts";

function wave(x: Float32Array, f: (i: number) => number): Float32Array {
  for (let i = 0; i < x.length; i++) x[i] = f(i);
  return x;
}

/** Largest |fast − ref| / max(1, |ref|). */
function worst(fast: Float32Array, ref: Float32Array): number {
  let w = 0;
  for (let i = 0; i < ref.length; i++)
    w = Math.max(w, Math.abs(fast[i]! - ref[i]!) / Math.max(1, Math.abs(ref[i]!)));
  return w;
}

describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("elementwise WebAssembly kernels", () => {
  const k = createWasmKernels({ threads: 1 });
  afterAll(() => k.close());
  // an odd length exercises the one-lane tail; large |g| the clamped exponent
  const n = 4 * 257 + 3;
  const g = wave(k.alloc(n), (i) => Math.sin(i * 0.37) * (i % 41 === 0 ? 120 : 6));
  const u = wave(k.alloc(n), (i) => Math.cos(i * 0.11));
  const da = wave(k.alloc(n), (i) => Math.sin(i * 0.05));

  it("SwiGLU forward and backward match the JS layer", () => {
    const a = k.alloc(n);
    const ref = new Float32Array(n);
    k.swigluForward(a, g, u, n);
    swigluForward(ref, g, u, n);
    expect(worst(a, ref)).toBeLessThan(1e-6);
    const [dg, du] = [k.alloc(n), k.alloc(n)];
    const [dg0, du0] = [new Float32Array(n), new Float32Array(n)];
    k.swigluBackward(dg, du, da, g, u, n);
    swigluBackward(dg0, du0, da, g, u, n);
    expect(worst(dg, dg0)).toBeLessThan(1e-6);
    expect(worst(du, du0)).toBeLessThan(1e-6);
  });

  it("falls back to the JS layer for arrays outside the kernel heap", () => {
    const a = new Float32Array(n);
    const ref = new Float32Array(n);
    k.swigluForward(a, Float32Array.from(g), u, n);
    swigluForward(ref, g, u, n);
    expect(Array.from(a)).toEqual(Array.from(ref));
  });

  it("AdamW matches the textbook update, and refuses plain arrays", () => {
    const p = wave(k.alloc(n), (i) => Math.sin(i));
    const grad = wave(k.alloc(n), (i) => Math.cos(i * 3) * 0.1);
    const m = wave(k.alloc(n), (i) => Math.sin(i * 7) * 0.01);
    const v = wave(k.alloc(n), (i) => 0.001 + Math.abs(Math.cos(i * 5)) * 0.001);
    const o = {
      lr: 1e-3,
      beta1: 0.9,
      beta2: 0.95,
      eps: 1e-8,
      wd: 1e-4,
      c1: 1 / (1 - 0.9 ** 3),
      c2: 1 / (1 - 0.95 ** 3),
    };
    const want = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const mi = o.beta1 * m[i]! + (1 - o.beta1) * grad[i]!;
      const vi = o.beta2 * v[i]! + (1 - o.beta2) * grad[i]! * grad[i]!;
      want[i] = p[i]! - (o.lr * ((mi * o.c1) / (Math.sqrt(vi * o.c2) + o.eps)) + o.wd * p[i]!);
    }
    expect(k.adamw(new Float32Array(n), grad, m, v, o)).toBe(false);
    expect(k.adamw(p, grad, m, v, o)).toBe(true);
    expect(worst(p, want)).toBeLessThan(1e-6);
  });

  it("attention of packed sequences (one call per sequence and head) matches the JS products", () => {
    // lengths 1 and 3 take the few-row paths, 70 and 130 span two and three query blocks
    const lengths = [1, 3, 70, 5, 130, 2];
    const T = lengths.reduce((a, b) => a + b, 0);
    const spans = Int32Array.from(
      lengths.flatMap((L, i) => [lengths.slice(0, i).reduce((a, b) => a + b, 0), L]),
    );
    const s: AttentionShape = { B: 1, H: 2, T, hd: 16, spans };
    const n = s.H * T * s.hd;
    const [Q, K, V, dO] = [1, 2, 3, 4].map((seed) => wave(k.alloc(n), (i) => Math.sin(i * 0.7 + seed)));
    const P = k.alloc(attentionProbsSize(s));
    const O = k.alloc(n);
    const P0 = new Float32Array(P.length);
    const O0 = new Float32Array(n);
    attentionForward(k, O, P, Q!, K!, V!, s);
    attentionForward(referenceKernels, O0, P0, Q!, K!, V!, s);
    expect(worst(P, P0)).toBeLessThan(1e-5);
    expect(worst(O, O0)).toBeLessThan(1e-5);
    const grads = () => [k.alloc(n), k.alloc(n), k.alloc(n)];
    const [dQ, dK, dV] = grads();
    const [dQ0, dK0, dV0] = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
    attentionBackward(k, dQ!, dK!, dV!, dO!, P, Q!, K!, V!, k.alloc(QUERY_BLOCK * T), s);
    attentionBackward(
      referenceKernels,
      dQ0,
      dK0,
      dV0,
      dO!,
      P0,
      Q!,
      K!,
      V!,
      new Float32Array(QUERY_BLOCK * T),
      s,
    );
    expect(worst(dQ!, dQ0)).toBeLessThan(1e-5);
    expect(worst(dK!, dK0)).toBeLessThan(1e-5);
    expect(worst(dV!, dV0)).toBeLessThan(1e-5);
  });

  it("RMSNorm forward and backward match the JS layer (a width with a tail)", () => {
    const [rows, d] = [7, 35];
    const x = wave(k.alloc(rows * d), (i) => Math.sin(i * 0.3) * 2);
    const w = wave(k.alloc(d), (i) => 1 + 0.1 * Math.cos(i));
    const dy = wave(k.alloc(rows * d), (i) => Math.cos(i * 0.2));
    const [out, inv, dx, dw] = [k.alloc(rows * d), k.alloc(rows), k.alloc(rows * d), k.alloc(d)];
    const [out0, inv0, dx0, dw0] = [rows * d, rows, rows * d, d].map((m) => new Float32Array(m));
    dx.fill(0.5);
    dx0!.fill(0.5);
    expect(k.rmsnormForward(out, inv, x, w, rows, d, 1e-5)).toBe(true);
    rmsnormForward(out0!, inv0!, x, w, rows, d, 1e-5);
    expect(worst(out, out0!)).toBeLessThan(1e-6);
    expect(k.rmsnormBackward(dx, dw, dy, x, w, inv, rows, d)).toBe(true);
    rmsnormBackward(dx0!, dw0!, dy, x, w, inv0!, rows, d);
    expect(worst(dx, dx0!)).toBeLessThan(1e-5);
    expect(worst(dw, dw0!)).toBeLessThan(1e-5);
    expect(k.rmsnormForward(new Float32Array(rows * d), inv, x, w, rows, d, 1e-5)).toBe(false);
  });
});
