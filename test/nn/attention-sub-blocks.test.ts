import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import {
  attentionBackwardRows,
  attentionForwardRows,
  attentionProbsSize,
  QUERY_BLOCK,
  type AttentionShape,
} from "../../src/nn/layers/attention.ts";

const bytes = (x: Float32Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);

// The attention's products by sub-blocks of query rows (assembly/attention.ts, WasmKernelOptions.attentionSubRows):
// each sub-block multiplies only the keys its queries attend to. The skipped part is masked (S, dP: overwritten)
// or zero at the end or the start of a sum (P·V, dS·K; Pᵀ·dO, dSᵀ·Q), so the bits must be those of whole
// 64-row query blocks, on one thread and on three.
describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("attention by sub-blocks of query rows", () => {
  const made: WasmKernels[] = [];
  const kernels = (threads: number, attentionSubRows: number) => {
    const k = createWasmKernels({ threads, attentionSubRows });
    made.push(k);
    return k;
  };
  let whole: WasmKernels;
  let sub16: WasmKernels;
  let sub4: WasmKernels;
  let sub16x3: WasmKernels;

  beforeAll(async () => {
    whole = kernels(1, 0);
    sub16 = kernels(1, 16);
    sub4 = kernels(1, 4);
    sub16x3 = kernels(3, 16);
    const until = Date.now() + 20_000;
    while (!sub16x3.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(sub16x3.parallel, "helper threads did not start").toBe(true);
  });

  afterAll(async () => {
    for (const k of made) await k.close();
  });

  /** Forward and backward of a packed row of samples in the rows [T, H·hd]; returns O, P, dQ, dK, dV. */
  function attention(k: WasmKernels): Float32Array[] {
    // 1 and 3 rows: fewer than a tile; 19 and 33: sub-blocks with a remainder; 70 and 130: two and three query
    // blocks; 64: one whole block
    const lengths = [1, 3, 70, 19, 130, 2, 33, 64, 17];
    const T = lengths.reduce((a, b) => a + b, 0);
    const spans = Int32Array.from(
      lengths.flatMap((L, i) => [lengths.slice(0, i).reduce((a, b) => a + b, 0), L]),
    );
    const s: AttentionShape = { B: 1, H: 2, T, hd: 16, spans };
    const n = T * s.H * s.hd;
    const wave = (seed: number) => {
      const x = k.alloc(n);
      for (let i = 0; i < n; i++) x[i] = Math.sin(i * 0.37 + seed) * (1 + (i % 7) / 3);
      return x;
    };
    const [Q, K, V, dO] = [1, 2, 3, 4].map(wave);
    const P = k.alloc(attentionProbsSize(s));
    const [O, dQ, dK, dV] = [k.alloc(n), k.alloc(n), k.alloc(n), k.alloc(n)];
    attentionForwardRows(k, O, P, Q!, K!, V!, s);
    attentionBackwardRows(k, dQ, dK, dV, dO!, P, Q!, K!, V!, k.alloc(QUERY_BLOCK * T), s);
    return [O, P, dQ, dK, dV].map((x) => Float32Array.from(x));
  }

  it("gives the bits of whole query blocks", () => {
    const want = attention(whole);
    for (const k of [sub16, sub4, sub16x3]) {
      const got = attention(k);
      got.forEach((x, i) => expect(Buffer.compare(bytes(x), bytes(want[i]!)), `output ${i}`).toBe(0));
    }
  });

  it("takes 0 or at least 4 rows", () => {
    expect(() => createWasmKernels({ threads: 1, attentionSubRows: 2 })).toThrow(RangeError);
  });
});
