import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceKernels } from "../../src/nn/kernels/reference.ts";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";

type Shape = "matmulABt" | "matmulAB" | "matmulAtB";
const SHAPES: Shape[] = ["matmulABt", "matmulAB", "matmulAtB"];

function random(n: number, seed: number): Float32Array {
  const x = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    x[i] = ((s >>> 0) / 4294967296) * 2 - 1;
  }
  return x;
}

/** Largest |fast - ref| / max(1, |ref|). */
function worstError(fast: Float32Array, ref: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < ref.length; i++) {
    worst = Math.max(worst, Math.abs(fast[i] - ref[i]) / Math.max(1, Math.abs(ref[i])));
  }
  return worst;
}

function compare(
  k: WasmKernels,
  shape: Shape,
  M: number,
  K: number,
  N: number,
  accumulate: boolean,
  inHeap: boolean,
) {
  const seed = M * 7919 + K * 104729 + N * 31 + (accumulate ? 1 : 0);
  const a = random(M * K, seed);
  const b = random(K * N, seed + 1);
  const start = random(M * N, seed + 2);
  const expected = Float32Array.from(start);
  referenceKernels[shape](expected, a, b, M, K, N, accumulate);
  const place = (x: Float32Array) =>
    inHeap
      ? k
          .alloc(x.length)
          .fill(0)
          .map((_, i) => x[i])
      : x;
  const out = inHeap ? k.alloc(M * N) : new Float32Array(M * N);
  out.set(start);
  const a2 = place(a);
  const b2 = place(b);
  k[shape](out, a2, b2, M, K, N, accumulate);
  return worstError(out, expected);
}

describe("wasm matmul kernels", () => {
  let single: WasmKernels;
  let dual: WasmKernels;
  let triple: WasmKernels;

  beforeAll(async () => {
    expect(existsSync(DEFAULT_WASM_PATH), `${DEFAULT_WASM_PATH} missing: run "npm run build:wasm"`).toBe(
      true,
    );
    single = createWasmKernels({ threads: 1 });
    dual = createWasmKernels({ threads: 2, parallelThreshold: 0 });
    triple = createWasmKernels({ threads: 3, parallelThreshold: 0 });
    const until = Date.now() + 20_000;
    while (!(dual.parallel && triple.parallel) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(dual.parallel && triple.parallel, "helper threads did not start").toBe(true);
  });

  afterAll(async () => {
    await single?.close();
    await dual?.close();
    await triple?.close();
  });

  // Odd sizes cross every edge: partial 4×8 tiles, K past one 256-deep block, N past one 2048-wide block.
  const sizes: [number, number, number][] = [
    [1, 1, 1],
    [3, 1, 17],
    [1, 17, 3],
    [17, 3, 1],
    [17, 130, 33],
    [130, 17, 130],
    [130, 257, 9],
    [5, 300, 2055],
    [64, 64, 64],
    [2, 300, 40], // the few-row paths (decoding), with K tails
    [1, 64, 2055],
  ];
  for (const shape of SHAPES) {
    for (const accumulate of [false, true]) {
      it(`${shape} accumulate=${accumulate} matches the reference at odd sizes`, () => {
        for (const [M, K, N] of sizes) {
          for (const k of [single, dual]) {
            const err = compare(k, shape, M, K, N, accumulate, k === dual);
            expect(err, `${k.name} ${shape} M=${M} K=${K} N=${N}`).toBeLessThanOrEqual(1e-4);
          }
        }
      });
    }
  }

  it("gives bit-identical results on one, two and three threads (split by rows and by columns)", () => {
    for (const [M, K, N] of [
      [130, 70, 40],
      [12, 70, 300],
      [300, 200, 300], // about 9 chunks split by rows
      [12, 300, 2100], // split by columns, across a 2048-wide block
      [2, 300, 2100], // few rows: dot-product and axpy paths, split by columns
      // 16 chunks of 64 rows and one row left over: that row must join the last chunk, since a gemm of fewer
      // than 4 rows takes the dot-product path, with other bits (a cause of runs that drifted apart)
      [961, 128, 352],
      [387, 128, 352],
    ]) {
      for (const shape of SHAPES) {
        const a = random(M * K, 1);
        const b = random(K * N, 2);
        const one = new Float32Array(M * N);
        single[shape](one, a, b, M, K, N);
        for (const k of [dual, triple]) {
          const many = new Float32Array(M * N);
          k[shape](many, a, b, M, K, N);
          expect(
            Buffer.from(many.buffer).equals(Buffer.from(one.buffer)),
            `${k.name} ${shape} ${M}x${K}x${N}`,
          ).toBe(true);
        }
      }
    }
  });

  it("handles K = 0 (zero or keep the output) and empty outputs", () => {
    const out = new Float32Array([1, 2, 3, 4]);
    single.matmulAB(out, new Float32Array(0), new Float32Array(0), 2, 0, 2, true);
    expect(Array.from(out)).toEqual([1, 2, 3, 4]);
    single.matmulAB(out, new Float32Array(0), new Float32Array(0), 2, 0, 2);
    expect(Array.from(out)).toEqual([0, 0, 0, 0]);
    expect(() =>
      single.matmulABt(new Float32Array(0), new Float32Array(0), new Float32Array(6), 0, 3, 2),
    ).not.toThrow();
  });

  it("rejects a thread count that is not a positive integer", () => {
    expect(() => createWasmKernels({ threads: 0 })).toThrow(/threads must be a positive integer/);
  });

  it("rejects operands that are too short or sizes that are not integers", () => {
    const x = new Float32Array(6);
    expect(() => single.matmulABt(x, x, new Float32Array(5), 2, 3, 2)).toThrow(/b has 5 elements, needs 6/);
    expect(() => single.matmulAB(x, x, x, 2.5, 3, 2)).toThrow(/M must be a non-negative integer/);
    expect(() => single.matmulAtB(new Float32Array(3), x, x, 2, 3, 2)).toThrow(/out has 3 elements, needs 4/);
  });

  it("leaves no temporary blocks behind when operands are foreign arrays", () => {
    const before = single.heap.usedBytes;
    single.matmulABt(new Float32Array(12), random(12, 3), random(9, 4), 4, 3, 3);
    expect(single.heap.usedBytes).toBe(before);
  });
});
