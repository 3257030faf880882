import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MatmulKernels } from "../../src/nn/kernels/api.ts";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { emptyStats } from "../../src/nn/kernels/stats.ts";
import {
  attentionBackward,
  attentionBackwardRows,
  attentionForward,
  attentionForwardRows,
  attentionProbsSize,
  QUERY_BLOCK,
  mergeHeads,
  splitHeads,
  type AttentionShape,
} from "../../src/nn/layers/attention.ts";
import { ropeTable, rotateRows } from "../../src/nn/layers/rope.ts";
import { rmsnormGrad } from "../../src/nn/layers/rmsnorm.ts";

function wave(x: Float32Array, f: (i: number) => number): Float32Array {
  for (let i = 0; i < x.length; i++) x[i] = f(i);
  return x;
}

const same = (a: Float32Array, b: Float32Array) => expect(Buffer.compare(bytes(a), bytes(b))).toBe(0);
const bytes = (x: Float32Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);

// The work the thread pool splits besides the gemm (assembly/tasks.ts): every item writes its own outputs, so
// one thread and three must agree bit for bit, and with the per-item calls. (These also caught arrays that
// looked foreign to a heap with helper threads after it grew: shared-heap.ts view().)
describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("pooled kernel tasks", () => {
  let single: WasmKernels;
  let triple: WasmKernels;

  beforeAll(async () => {
    single = createWasmKernels({ threads: 1 });
    triple = createWasmKernels({ threads: 3 });
    const until = Date.now() + 20_000;
    while (!triple.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(triple.parallel, "helper threads did not start").toBe(true);
  });

  afterAll(async () => {
    await single?.close();
    await triple?.close();
  });

  /** Runs attention forward and backward of a packed row on `k`; returns O, P, dQ, dK, dV. */
  function attention(k: MatmulKernels, heap: WasmKernels): Float32Array[] {
    // lengths 1 and 3 take the few-row paths, 70 and 130 span two and three query blocks
    const lengths = [1, 3, 70, 5, 130, 2, 40, 17];
    const T = lengths.reduce((a, b) => a + b, 0);
    const spans = Int32Array.from(
      lengths.flatMap((L, i) => [lengths.slice(0, i).reduce((a, b) => a + b, 0), L]),
    );
    const s: AttentionShape = { B: 1, H: 3, T, hd: 16, spans };
    const n = s.H * T * s.hd;
    const [Q, K, V, dO] = [1, 2, 3, 4].map((seed) => wave(heap.alloc(n), (i) => Math.sin(i * 0.7 + seed)));
    const P = heap.alloc(attentionProbsSize(s));
    const O = heap.alloc(n);
    attentionForward(k, O, P, Q!, K!, V!, s);
    const [dQ, dK, dV] = [heap.alloc(n), heap.alloc(n), heap.alloc(n)];
    attentionBackward(k, dQ!, dK!, dV!, dO!, P, Q!, K!, V!, heap.alloc(QUERY_BLOCK * T), s);
    return [O, P, dQ!, dK!, dV!].map((x) => Float32Array.from(x));
  }

  it("RMSNorm's backward on a product's rows, its dw in the next GEMM job: the bits of rmsnormGrad after it", () => {
    const rows = 1031;
    const d = 128;
    const run = (k: WasmKernels, fused: boolean) => {
      const x = wave(k.alloc(rows * d), (i) => Math.sin(i * 0.13));
      const W = wave(k.alloc(d * d), (i) => Math.cos(i * 0.07) / 8);
      const xs = wave(k.alloc(rows * d), (i) => Math.cos(i * 0.31));
      const inv = wave(k.alloc(rows), (i) => 0.5 + (i % 7) / 10);
      const w = wave(k.alloc(d), (i) => 1 + i / d);
      const [dh, dx, y] = [
        k.alloc(rows * d),
        wave(k.alloc(rows * d), (i) => Math.sin(i * 0.01)),
        k.alloc(rows * d),
      ];
      const dw = wave(k.alloc(d), (i) => i / 100);
      const product = { shape: "ABt", out: dh, a: x, b: W, M: rows, K: d, N: d } as const;
      // two products into dh (the second chained to the first), then the norm's backward
      const again = { ...product, b: x.subarray(0, d * d), accumulate: true } as const;
      if (fused) {
        const work = { kind: "rmsnormBackward", dx, dw, x: xs, w, inv } as const;
        expect(k.matmulThen!([product, again], [work, undefined])).toBe(true);
      } else {
        k.matmulMany!([product, again]);
        rmsnormGrad(k, dx, dw, dh, xs, w, inv, rows, d);
      }
      // the next product: takes the deferred dw items in its job
      k.matmulABt(y, dx, W, rows, d, d);
      k.flush?.();
      return [dh, dx, dw, y].map((a) => Float32Array.from(a));
    };
    const one = run(single, false);
    expect(
      single.matmulThen!(
        [{ shape: "ABt", out: single.alloc(4), a: single.alloc(4), b: single.alloc(4), M: 1, K: 4, N: 1 }],
        [
          {
            kind: "rmsnormBackward",
            dx: single.alloc(4),
            dw: single.alloc(4),
            x: single.alloc(4),
            w: single.alloc(4),
            inv: single.alloc(1),
          },
        ],
      ),
    ).toBe(false);
    for (const fused of [true, false]) {
      const got = run(triple, fused);
      for (let i = 0; i < one.length; i++) same(got[i]!, one[i]!);
    }
  });

  it("the attention backward with RoPE's backward on its items: the bits of rotateRows after it", () => {
    // rows [B·T, H·hd] of a packed batch (lengths as above), on 1 and 3 threads
    const lengths = [1, 3, 70, 5, 130, 2, 40, 17];
    const T = lengths.reduce((a, b) => a + b, 0);
    const spans = Int32Array.from(
      lengths.flatMap((L, i) => [lengths.slice(0, i).reduce((a, b) => a + b, 0), L]),
    );
    const s: AttentionShape = { B: 1, H: 3, T, hd: 16, spans };
    const rope = ropeTable(256, s.hd, 10000);
    const positions = Int32Array.from({ length: T }, (_, i) => (i * 3) % 256);
    const run = (k: WasmKernels, fused: boolean) => {
      const n = s.H * T * s.hd;
      const [Q, K, V, dO] = [1, 2, 3, 4].map((seed) => wave(k.alloc(n), (i) => Math.sin(i * 0.7 + seed)));
      const P = k.alloc(attentionProbsSize(s));
      const O = k.alloc(n);
      attentionForwardRows(k, O, P, Q!, K!, V!, s);
      const [dQ, dK, dV] = [k.alloc(n), k.alloc(n), k.alloc(n)];
      const scratch = k.alloc(QUERY_BLOCK * T);
      if (fused) {
        const r = { rope, positions };
        expect(attentionBackwardRows(k, dQ, dK, dV, dO!, P, Q!, K!, V!, scratch, s, r)).toBe(true);
      } else {
        expect(attentionBackwardRows(k, dQ, dK, dV, dO!, P, Q!, K!, V!, scratch, s)).toBe(false);
        rotateRows(k, rope, positions, T, s.H, true, dQ, dK);
      }
      return [dQ, dK, dV].map((x) => Float32Array.from(x));
    };
    const one = run(single, false);
    for (const [k, fused] of [
      [single, true],
      [triple, true],
    ] as const) {
      const got = run(k, fused);
      for (let i = 0; i < one.length; i++) same(got[i]!, one[i]!);
    }
  });

  it("attention over all (sequence, head) items: the same bits on 1 and 3 threads and per item", () => {
    const one = attention(single, single);
    const three = attention(triple, triple);
    const { attentionForwardAll: _f, attentionBackwardAll: _b, ...perItem } = single;
    const itemwise = attention(perItem as MatmulKernels, single);
    for (let i = 0; i < one.length; i++) {
      same(three[i]!, one[i]!);
      same(itemwise[i]!, one[i]!);
    }
  });

  it("SwiGLU, the residual add and RMSNorm forward: the same bits on 1 and 3 threads", () => {
    // large enough to be split, and an odd length (the one-lane tail lands inside the last chunk)
    const rows = 1031;
    const d = 96;
    const n = rows * d + 3;
    const run = (k: WasmKernels) => {
      const g = wave(k.alloc(n), (i) => Math.sin(i * 0.37) * 6);
      const u = wave(k.alloc(n), (i) => Math.cos(i * 0.11));
      const da = wave(k.alloc(n), (i) => Math.sin(i * 0.05));
      const [a, dg, du, sum] = [k.alloc(n), k.alloc(n), k.alloc(n), k.alloc(n)];
      k.swigluForward(a, g, u, n);
      k.swigluBackward(dg, du, da, g, u, n);
      const inHeap = [sum, g, u].map((x) => k.heap.addressOf(x) >= 0);
      expect([k.name, inHeap, k.add?.(sum, g, u, n)]).toEqual([k.name, [true, true, true], true]);
      const [out, inv, w] = [k.alloc(rows * d), k.alloc(rows), wave(k.alloc(d), (i) => 1 + i / d)];
      expect(k.rmsnormForward(out, inv, g, w, rows, d, 1e-5)).toBe(true);
      return [a, dg, du, sum, out, inv].map((x) => Float32Array.from(x));
    };
    const one = run(single);
    const three = run(triple);
    for (let i = 0; i < one.length; i++) same(three[i]!, one[i]!);
    const sum = one[3]!;
    expect(sum[n - 1]).toBeCloseTo(Math.fround(Math.sin((n - 1) * 0.37) * 6) + Math.cos((n - 1) * 0.11), 5);
  });

  it("products with row work (matmulThen): the bits of the products, then the separate calls", () => {
    // q/k/v with RoPE on q and k, then o_proj + residual + RMSNorm; a product cut by columns (few rows) and
    // one too small for the pool take their work on the calling thread afterwards
    const rope = ropeTable(256, 16, 10000);
    const cases = [
      { rows: 1031, d: 128 },
      { rows: 12, d: 128 },
      { rows: 40, d: 32 },
    ];
    for (const { rows, d } of cases) {
      const positions = Int32Array.from({ length: rows }, (_, i) => (i * 5) % 256);
      const run = (k: WasmKernels, fused: boolean) => {
        const x = wave(k.alloc(rows * d), (i) => Math.sin(i * 0.13));
        const W = [1, 2, 3, 4].map((s) => wave(k.alloc(d * d), (i) => Math.cos(i * 0.07 + s) / 8));
        const w = wave(k.alloc(d), (i) => 1 + i / d);
        const [q, kk, v, y, sum, h, inv] = [1, 1, 1, 1, 1, 1, 0].map((r) => k.alloc(r ? rows * d : rows));
        const lin = (out: Float32Array, b: Float32Array) =>
          ({ shape: "ABt", out, a: x, b, M: rows, K: d, N: d }) as const;
        const r = { kind: "rope", rope, positions, H: d / 16, inverse: false } as const;
        const norm = { out: h!, inv: inv!, w, eps: 1e-5 };
        if (fused) {
          expect(k.matmulThen!([lin(q!, W[0]!), lin(kk!, W[1]!), lin(v!, W[2]!)], [r, r, undefined])).toBe(
            true,
          );
          const res = { kind: "residual", sum: sum!, x, norm } as const;
          expect(k.matmulThen!([lin(y!, W[3]!)], [res])).toBe(true);
        } else {
          k.matmulMany!([lin(q!, W[0]!), lin(kk!, W[1]!), lin(v!, W[2]!)]);
          expect(k.ropeRows!(q!, kk!, rope, positions, rows, d / 16, false)).toBe(true);
          k.matmulABt(y!, x, W[3]!, rows, d, d);
          expect(k.add!(sum!, x, y!, rows * d)).toBe(true);
          expect(k.rmsnormForward(h!, inv!, sum!, w, rows, d, 1e-5)).toBe(true);
        }
        // gate, up, SwiGLU (σ(g) kept) on their rows; then its backward on the rows of da = x·W4ᵀ
        const [g, u, a, sg, da, dg, du] = [0, 0, 0, 0, 0, 0, 0].map(() => k.alloc(rows * d));
        const dW = k.alloc(d * d);
        const back = [
          lin(da!, W[3]!),
          { shape: "AtB", out: dW, a: x, b: y!, M: d, K: rows, N: d, accumulate: true } as const,
        ];
        if (fused) {
          const sw = { kind: "swiglu", a: a!, g: g!, u: u!, sg: sg! } as const;
          expect(k.matmulThen!([lin(g!, W[0]!), lin(u!, W[1]!)], [undefined, sw])).toBe(true);
          const bw = { kind: "swigluBackward", dg: dg!, du: du!, g: g!, u: u!, sg: sg! } as const;
          expect(k.matmulThen!(back, [bw, undefined])).toBe(true);
        } else {
          k.matmulMany!([lin(g!, W[0]!), lin(u!, W[1]!)]);
          k.swigluForward(a!, g!, u!, rows * d, sg!);
          k.matmulMany!(back);
          k.swigluBackward(dg!, du!, da!, g!, u!, rows * d, sg!);
        }
        return [q, kk, v, y, sum, h, inv, g, u, a, sg, da, dg, du, dW].map((a) => Float32Array.from(a!));
      };
      const one = run(single, false);
      for (const [k, fused] of [
        [single, true],
        [triple, true],
        [triple, false],
      ] as const) {
        const got = run(k, fused);
        for (let i = 0; i < one.length; i++) same(got[i]!, one[i]!);
      }
    }
    const stats = emptyStats();
    triple.collectStats(stats);
    const rows = 1031;
    const x = triple.alloc(rows * 64);
    const [y, sum] = [triple.alloc(rows * 64), triple.alloc(rows * 64)];
    const call = { shape: "ABt", out: y, a: x, b: triple.alloc(64 * 64), M: rows, K: 64, N: 64 } as const;
    expect(triple.matmulThen!([call], [{ kind: "residual", sum, x }])).toBe(true);
    // an output another product overwrites, or an earlier one wrote: refused, nothing computed
    expect(triple.matmulThen!([call, { ...call }], [{ kind: "residual", sum, x }, undefined])).toBe(false);
    const after = { ...call, accumulate: true };
    expect(triple.matmulThen!([call, after], [undefined, { kind: "residual", sum, x }])).toBe(false);
    triple.collectStats();
    expect(stats.shared["row epilogues in GEMM jobs"]).toBe(1);
  });

  it("splitting rows into heads and merging them back, with RoPE: the JS bits on 1 and 3 threads", () => {
    const s: AttentionShape = { B: 3, H: 4, T: 97, hd: 16 };
    const n = s.B * s.T * s.H * s.hd;
    const rope = ropeTable(128, s.hd, 10000);
    const positions = Int32Array.from({ length: s.B * s.T }, (_, i) => (i * 7) % 128);
    for (const k of [single, triple]) {
      const src = wave(k.alloc(n), (i) => Math.sin(i * 0.3));
      const dst = k.alloc(n);
      for (const [merge, withRope] of [
        [false, true],
        [true, true],
        [false, false],
        [true, false],
      ] as const) {
        const ref = new Float32Array(n);
        const r = withRope ? rope : undefined;
        const p = withRope ? positions : undefined;
        expect(k.moveHeads?.(dst, src, s, r, p, merge)).toBe(true);
        if (merge) mergeHeads(ref, src, s, r, p);
        else splitHeads(ref, src, s, r, p);
        same(dst, ref);
      }
      expect(() =>
        k.moveHeads?.(dst, src, s, rope, Int32Array.from(positions).fill(128, 5, 6), false),
      ).toThrow(/outside the RoPE table/);
    }
  });

  it("keeps its partial sums right when making room for them grows the memory", () => {
    // a block past a quarter of the heap grows it to just what it needs, so the next block (the 72 KiB of
    // per-row losses) grows it again while the kernel is called: its view must see the grown memory
    const k = createWasmKernels({ threads: 1 });
    const rows = 9000;
    const logits = k.alloc(rows * 2).fill(1);
    const x = k.alloc(8 << 20).fill(0.5);
    const size = k.heap.memory.buffer.byteLength;
    const targets = new Int32Array(rows);
    expect(k.crossEntropy!(logits, targets, rows, 2, 1)).toBeCloseTo(rows * Math.log(2), 3);
    expect(k.heap.memory.buffer.byteLength).toBeGreaterThan(size);
    expect(k.sumSquares!(x)).toBe(0.25 * (8 << 20));
  });
});
