import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { emptyStats, referenceKernels, type MatmulKernels } from "../../src/nn/kernels/index.ts";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import {
  attentionBackward,
  attentionBackwardRows,
  attentionForward,
  attentionForwardRows,
  attentionProbsSize,
  mergeHeads,
  splitHeads,
  type AttentionShape,
} from "../../src/nn/layers/attention.ts";
import { ropeTable, rotateRows } from "../../src/nn/layers/rope.ts";
import { Rng } from "../../src/nn/rng.ts";

// The model keeps q, k, v and the attention's output and gradients in their rows [N, H·hd] (issue 40: no
// head-major copies, RoPE in place): on the pool's threads these must give exactly the bits of the head-major
// path they replace (split with RoPE → attention → merge), on any thread count.

const H = 4;
const hd = 32;
const d = H * hd;
// two packed rows of 160 tokens, samples of different lengths (one longer than a query block)
const s: AttentionShape = { B: 2, H, T: 160, hd, spans: Int32Array.from([0, 70, 70, 90, 160, 5, 165, 155]) };
const N = s.B * s.T;
const rope = ropeTable(256, hd, 10000);
const positions = Int32Array.from({ length: N }, (_, i) => {
  const t = i % s.T;
  return i < s.T ? (t < 70 ? t : t - 70) : t < 5 ? t : t - 5;
});

function filled(k: MatmulKernels, n: number, seed: number): Float32Array {
  const rng = new Rng(seed);
  const a = k.alloc(n);
  for (let i = 0; i < n; i++) a[i] = rng.normal() * 0.5;
  return a;
}

/** The head-major path: rows → heads with RoPE on q and k, attention, heads → rows (RoPE back on dQ, dK). */
function headMajor(k: MatmulKernels, q: Float32Array, kk: Float32Array, v: Float32Array, dO: Float32Array) {
  // in k's heap (the fast kernels take only those; others go through the plain loops)
  const P = k.alloc(attentionProbsSize(s));
  const [qh, kh, vh, oh, dOh, dQh, dKh, dVh] = Array.from({ length: 8 }, () => k.alloc(N * d));
  splitHeads(qh!, q, s, rope, positions);
  splitHeads(kh!, kk, s, rope, positions);
  splitHeads(vh!, v, s);
  attentionForward(k, oh!, P, qh!, kh!, vh!, s);
  const O = new Float32Array(N * d);
  mergeHeads(O, oh!, s);
  splitHeads(dOh!, dO, s);
  attentionBackward(k, dQh!, dKh!, dVh!, dOh!, P, qh!, kh!, vh!, k.alloc(64 * s.T), s);
  const [dQ, dK, dV] = [0, 1, 2].map(() => new Float32Array(N * d));
  mergeHeads(dQ!, dQh!, s, rope, positions);
  mergeHeads(dK!, dKh!, s, rope, positions);
  mergeHeads(dV!, dVh!, s);
  return { O, P, dQ, dK, dV };
}

/** The rows path of llama.ts on kernels k (operands in k's heap). */
function rows(k: MatmulKernels, q0: Float32Array, k0: Float32Array, v0: Float32Array, dO0: Float32Array) {
  const [q, kk, v, dO] = [q0, k0, v0, dO0].map((x) => {
    const a = k.alloc(N * d);
    a.set(x);
    return a;
  });
  const P = k.alloc(attentionProbsSize(s));
  const O = k.alloc(N * d);
  const [dQ, dK, dV] = [0, 1, 2].map(() => k.alloc(N * d));
  rotateRows(k, rope, positions, N, H, false, q!, kk!);
  attentionForwardRows(k, O, P, q!, kk!, v!, s);
  attentionBackwardRows(k, dQ!, dK!, dV!, dO!, P, q!, kk!, v!, k.alloc(64 * s.T), s);
  rotateRows(k, rope, positions, N, H, true, dQ!, dK!);
  return { O, P, dQ, dK, dV };
}

const made: WasmKernels[] = [];

describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("attention on the rows", () => {
  afterAll(async () => {
    await Promise.all(made.map((k) => k.close()));
  });

  it("gives the bits of the head-major path on 1 and 2 threads, its own parts on the pool", async () => {
    const q = filled(referenceKernels, N * d, 1);
    const kk = filled(referenceKernels, N * d, 2);
    const v = filled(referenceKernels, N * d, 3);
    const dO = filled(referenceKernels, N * d, 4);
    for (const threads of [1, 2]) {
      const k = createWasmKernels({ threads });
      made.push(k);
      const until = Date.now() + 20_000;
      while (threads > 1 && !k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(k.parallel).toBe(threads > 1);
      const want = headMajor(k, q, kk, v, dO);
      const stats = emptyStats();
      k.collectStats(stats);
      const got = rows(k, q, kk, v, dO);
      k.collectStats();
      for (const key of ["O", "P", "dQ", "dK", "dV"] as const) {
        const differ = got[key].findIndex((x, i) => !Object.is(x, want[key][i]));
        expect(differ, `${key} on ${threads} threads: first differing float`).toBe(-1);
      }
      if (threads > 1) {
        for (const op of ["RoPE (q, k in their rows)", "attention forward", "attention backward"])
          expect(stats.shared[op] ?? 0, op).toBeGreaterThan(0);
      }
    }
  });

  it("follows spans rewritten in place between calls (the items of the last shape are reused only when equal)", async () => {
    const k = createWasmKernels({ threads: 1 });
    made.push(k);
    const q = filled(referenceKernels, N * d, 5);
    const kk = filled(referenceKernels, N * d, 6);
    const v = filled(referenceKernels, N * d, 7);
    const dO = filled(referenceKernels, N * d, 8);
    const before = rows(k, q, kk, v, dO);
    const spans = s.spans!;
    const saved = spans.slice();
    // the first row's two samples become 90 + 70 tokens (positions then restart at 90)
    spans.set([0, 90, 90, 70]);
    const moved = Int32Array.from(positions);
    try {
      for (let t = 0; t < s.T; t++) positions[t] = t < 90 ? t : t - 90;
      const want = headMajor(k, q, kk, v, dO);
      const got = rows(k, q, kk, v, dO);
      for (const key of ["O", "dQ", "dK", "dV"] as const) {
        expect(
          got[key].findIndex((x, i) => !Object.is(x, want[key][i])),
          key,
        ).toBe(-1);
        expect(
          got[key].findIndex((x, i) => !Object.is(x, before[key][i])),
          key,
        ).not.toBe(-1);
      }
    } finally {
      spans.set(saved);
      positions.set(moved);
    }
  });

  it("gives the same bits on the JS fallback (head-major copies inside)", () => {
    const q = filled(referenceKernels, N * d, 1);
    const kk = filled(referenceKernels, N * d, 2);
    const v = filled(referenceKernels, N * d, 3);
    const dO = filled(referenceKernels, N * d, 4);
    const want = headMajor(referenceKernels, q, kk, v, dO);
    const got = rows(referenceKernels, q, kk, v, dO);
    for (const key of ["O", "P", "dQ", "dK", "dV"] as const) expect(got[key]).toEqual(want[key]);
  });
});
