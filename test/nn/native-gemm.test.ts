import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { emptyStats, referenceKernels, useKernels, type MatmulKernels } from "../../src/nn/kernels/index.ts";
import { loadNative, NATIVE_PATH } from "../../src/nn/kernels/native.mjs";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { wasmApi } from "../../src/nn/kernels/webassembly.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";
import { train } from "../../src/nn/train/trainer.ts";

// The opt-in native gemm (TOOLGEN_KERNELS=native, native/gemm.cc): the reference's products within 1e-4 on
// shapes with edge tiles in every direction, and a training run with the same bits on 1, 2 and 3 threads.
// Skipped when the addon is not built (`npm run build:native`) or the CPU lacks AVX2+FMA.

function usable(): boolean {
  if (!existsSync(DEFAULT_WASM_PATH) || !existsSync(NATIVE_PATH)) return false;
  try {
    loadNative();
    return true;
  } catch {
    return false;
  }
}

const made: WasmKernels[] = [];
let previous: MatmulKernels | undefined;

async function nativeKernels(
  threads: number,
  parallelThreshold?: number,
  nativeTailWork?: number,
): Promise<WasmKernels> {
  const k = createWasmKernels({ threads, native: true, parallelThreshold, minChunk: 8, nativeTailWork });
  made.push(k);
  const until = Date.now() + 20_000;
  while (threads > 1 && !k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(k.parallel, "helper threads did not start").toBe(threads > 1);
  return k;
}

const random = (rng: Rng, n: number) => Float32Array.from({ length: n }, () => rng.next() * 2 - 1);

describe.skipIf(!usable())("the native gemm (TOOLGEN_KERNELS=native)", () => {
  afterAll(async () => {
    if (previous) useKernels(previous);
    await Promise.all(made.map((k) => k.close()));
  });

  it("names itself and computes the reference's products within 1e-4", async () => {
    const rng = new Rng(7);
    for (const threads of [1, 2]) {
      const k = await nativeKernels(threads, 0);
      expect(k.name).toMatch(/^native-gemm-avx(2|512)\+wasm-simd/);
      // M, K, N: one element, edge tiles (not multiples of 6 rows, 16/32 columns), more than one depth block
      for (const [M, K, N] of [
        [1, 1, 1],
        [5, 3, 7],
        [37, 300, 45],
        [64, 257, 33],
        [13, 600, 100],
        [100, 0, 9],
      ] as const) {
        for (const shape of ["AB", "ABt", "AtB"] as const) {
          for (const accumulate of [false, true]) {
            const a = k.alloc(M * K);
            const b = k.alloc(K * N);
            const out = k.alloc(M * N);
            a.set(random(rng, M * K));
            b.set(random(rng, K * N));
            out.set(random(rng, M * N));
            const want = out.slice();
            referenceKernels[`matmul${shape}`](want, a, b, M, K, N, accumulate);
            k[`matmul${shape}`](out, a, b, M, K, N, accumulate);
            const scale = Math.max(1, ...want.map(Math.abs));
            const worst = Math.max(0, ...out.map((x, i) => Math.abs(x - want[i]!)));
            expect(worst / scale, `${shape} ${M}x${K}x${N} acc ${accumulate} ${threads}t`).toBeLessThan(1e-4);
            k.free(a);
            k.free(b);
            k.free(out);
          }
        }
      }
    }
  });

  it("computes a batch of products (matmulMany, chained ones too) as one by one, on 1 and 3 threads", async () => {
    // q/k/v-like products of one input, a weight gradient with a second one adding into it (chained: same rows),
    // and one adding into a column-split output (run after the job)
    const [T, D, F] = [203, 40, 88];
    const results: Buffer[] = [];
    // (tail work 1: every job's last product cut into graded pieces down to the tile, over one packing of its
    // shared operand per thread: kernels/wasm-gemm.ts gradeNative, native/gemm.cc packedWhole)
    for (const [threads, tail] of [
      [1, undefined],
      [3, undefined],
      [2, 1],
      [3, 1],
    ] as const) {
      const k = await nativeKernels(threads, 0, tail);
      const x = k.alloc(T * D);
      const dy = k.alloc(T * F);
      const w = k.alloc(F * D);
      x.set(random(new Rng(1), T * D));
      dy.set(random(new Rng(2), T * F));
      w.set(random(new Rng(3), F * D));
      const outs = [T * F, T * F, F * D, D * 9].map((n) => k.alloc(n));
      const rng = new Rng(5);
      for (const o of outs) o.set(random(rng, o.length));
      const start = outs.map((o) => o.slice());
      const list = [
        { shape: "ABt", out: outs[0]!, a: x, b: w, M: T, K: D, N: F },
        { shape: "ABt", out: outs[1]!, a: x, b: w, M: T, K: D, N: F, accumulate: true },
        { shape: "AtB", out: outs[2]!, a: dy, b: x, M: F, K: T, N: D },
        { shape: "AtB", out: outs[2]!, a: dy, b: x, M: F, K: T, N: D, accumulate: true },
        { shape: "AtB", out: outs[3]!, a: x, b: dy, M: D, K: T, N: 9 },
        { shape: "AtB", out: outs[3]!, a: x, b: dy, M: D, K: T, N: 9, accumulate: true },
      ] as const;
      const stats = emptyStats();
      k.collectStats(stats);
      k.matmulMany!(list);
      k.collectStats();
      expect((stats.shared["GEMMs in batches"] ?? 0) > 0).toBe(threads > 1);
      expect((stats.shared["GEMMs with graded row chunks"] ?? 0) > 0).toBe(tail === 1);
      const batched = Buffer.concat(outs.map((o) => Buffer.from(o.slice().buffer)));
      outs.forEach((o, i) => o.set(start[i]!));
      for (const m of list) k[`matmul${m.shape}`](m.out, m.a, m.b, m.M, m.K, m.N, "accumulate" in m);
      expect(batched.equals(Buffer.concat(outs.map((o) => Buffer.from(o.slice().buffer))))).toBe(true);
      results.push(batched);
    }
    for (const r of results.slice(1)) expect(r.equals(results[0]!)).toBe(true);
  });

  it("cuts row and column products into graded pieces over one packing per job: the single call's bits", async () => {
    // a tall product (row chunks sharing B) and a wide one (column chunks sharing A), with deep and shallow
    // depths, twice, their shared operands changed in between: a new job packs them again
    const results: Buffer[] = [];
    for (const [threads, tail] of [
      [1, undefined],
      [2, 1],
      [3, 1],
      [2, 1 << 14],
    ] as const) {
      const k = await nativeKernels(threads, 0, tail);
      const rng = new Rng(9);
      const shapes = [
        ["ABt", 301, 70, 45],
        ["AB", 33, 530, 200],
        ["AtB", 150, 290, 37],
      ] as const;
      const outs: Buffer[] = [];
      let graded = 0;
      for (const [shape, M, K, N] of shapes) {
        const a = k.alloc(M * K);
        const b = k.alloc(K * N);
        const out = k.alloc(M * N);
        out.set(random(rng, M * N));
        for (let round = 0; round < 2; round++) {
          a.set(random(rng, M * K));
          b.set(random(rng, K * N));
          const stats = emptyStats();
          k.collectStats(stats);
          k[`matmul${shape}`](out, a, b, M, K, N, round === 1);
          k.collectStats();
          graded += stats.shared["GEMMs with graded row chunks"] ?? 0;
          outs.push(Buffer.from(out.slice().buffer));
        }
        k.free(a);
        k.free(b);
        k.free(out);
      }
      expect(graded > 0, `graded pieces on ${threads} threads`).toBe(tail !== undefined);
      results.push(Buffer.concat(outs));
    }
    for (const r of results.slice(1)) expect(r.equals(results[0]!)).toBe(true);
  });

  it("computes a product whose depth dwarfs its output in fixed depth pieces: the same bits on 1, 2 and 3 threads", async () => {
    // (the LM head's dy·W: kernels/wasm-gemm.ts nativeDepthPieces) pieces of 1,024 depths whatever the threads,
    // piece 0 accumulating into C, the others summed into it in order: computed here with the addon itself
    const [M, K, N] = [40, 4500, 24];
    const rng = new Rng(11);
    const A = random(rng, M * K);
    const B = random(rng, K * N);
    const C0 = random(rng, M * N);
    const addon = loadNative();
    const heap = new Float32Array(new SharedArrayBuffer(4 * (M * K + K * N + 6 * M * N)));
    heap.set(A);
    heap.set(B, M * K);
    heap.set(C0, M * K + K * N);
    const pieces = Math.ceil(K / 1024);
    for (let q = 0; q < pieces; q++) {
      const k0 = q * 1024;
      const dst = 4 * (M * K + K * N + q * M * N);
      addon.gemm(
        heap,
        dst,
        N,
        4 * k0,
        K,
        1,
        4 * (M * K + k0 * N),
        N,
        1,
        M,
        N,
        Math.min(1024, K - k0),
        q === 0 ? 1 : 0,
      );
    }
    const want = heap.slice(M * K + K * N, M * K + K * N + M * N);
    for (let q = 1; q < pieces; q++)
      for (let e = 0; e < M * N; e++) want[e] = Math.fround(want[e]! + heap[M * K + K * N + q * M * N + e]!);
    for (const threads of [1, 2, 3]) {
      const k = await nativeKernels(threads, 0);
      const [a, b, out] = [k.alloc(M * K), k.alloc(K * N), k.alloc(M * N)];
      a.set(A);
      b.set(B);
      out.set(C0);
      const stats = emptyStats();
      k.collectStats(stats);
      k.matmulAB(out, a, b, M, K, N, true);
      k.collectStats();
      expect(stats.shared["GEMMs in depth pieces"] ?? 0, `pooled pieces on ${threads} threads`).toBe(
        threads > 1 ? 1 : 0,
      );
      expect(Buffer.from(out.slice().buffer).equals(Buffer.from(want.buffer)), `${threads} threads`).toBe(
        true,
      );
      // in a batch of products too (matmulMany): the same pieces
      out.set(C0);
      const other = k.alloc(M * N);
      k.matmulMany!([
        { shape: "AB", out, a, b, M, K, N, accumulate: true },
        { shape: "ABt", out: other, a, b, M, K, N },
      ]);
      expect(
        Buffer.from(out.slice().buffer).equals(Buffer.from(want.buffer)),
        `${threads} threads, batched`,
      ).toBe(true);
      for (const x of [a, b, out, other]) k.free(x);
    }
  });

  it("gives the same bits on 1, 2 and 3 threads in a training run", async () => {
    const VOCAB = 256;
    const config = presetConfig("tiny", VOCAB, {
      hiddenSize: 64,
      intermediateSize: 176,
      numLayers: 2,
      numHeads: 2,
      maxPositions: 128,
    });
    const rng = new Rng(11);
    const data = Array.from({ length: 48 }, () => ({
      ids: Array.from({ length: 40 + rng.int(60) }, () => rng.int(VOCAB)),
    }));
    const hashes: string[] = [];
    // (and on 3 threads with every job's last product in graded pieces: kernels/wasm-gemm.ts gradeNative)
    for (const [threads, tail] of [
      [1, undefined],
      [2, undefined],
      [3, undefined],
      [3, 1],
    ] as const) {
      const k = await nativeKernels(threads, 0, tail);
      const before = useKernels(k);
      previous ??= before;
      const stats = emptyStats();
      k.collectStats(stats);
      const model = new Llama(config, initParams(config, 3));
      const { losses } = await train(
        model,
        { kind: "samples", samples: data, padId: 0 },
        { steps: 3, batchSize: 16, lr: 3e-3, seed: 5 },
      );
      k.collectStats();
      expect(losses.every(Number.isFinite)).toBe(true);
      // on several threads the products were cut into chunks for the pool (on one, nothing was shared)
      for (const op of [
        "matmul x·Wᵀ (forward)",
        "matmul dy·W (input gradients)",
        "matmul dyᵀ·x (weight gradients)",
      ])
        expect((stats.shared[op] ?? 0) > 0, `${op} on ${threads} threads`).toBe(threads > 1);
      // a layer's products shared pool jobs (GEMM_BATCH items on the native gemm, native.mjs)
      expect((stats.shared["GEMMs in batches"] ?? 0) > 0, `batches on ${threads} threads`).toBe(threads > 1);
      // a layer's o, gate, up and down each row chunk through all four (matmulChain, native.mjs batchItem)
      expect((stats.shared["GEMMs in row chains"] ?? 0) > 0, `row chains on ${threads}`).toBe(threads > 1);
      // the pool's jobs were timed per operation (busy item time of all threads, the caller's wait)
      const busy = stats.busyMs["matmul x·Wᵀ (forward)"] ?? 0;
      expect(busy > 0 && (stats.jobs["matmul x·Wᵀ (forward)"] ?? 0) > 0, `job timing on ${threads}`).toBe(
        threads > 1,
      );
      expect((stats.waitMs["matmul x·Wᵀ (forward)"] ?? 0) >= 0).toBe(true);
      const flat = model.params.flat;
      hashes.push(
        createHash("sha256")
          .update(Buffer.from(flat.buffer, flat.byteOffset, flat.byteLength))
          .digest("hex") + losses.join(","),
      );
    }
    expect(hashes[1]).toBe(hashes[0]);
    expect(hashes[2]).toBe(hashes[0]);
    expect(hashes[3]).toBe(hashes[0]);
  });
});

describe.skipIf(!usable() || loadNative().level < 2)("the native cross-entropy (AVX-512)", () => {
  const kernels: WasmKernels[] = [];
  afterAll(async () => {
    await Promise.all(kernels.map((k) => k.close()));
  });

  it("gives the WebAssembly task's bits: gradients and losses, on 1 and 2 threads", async () => {
    const wasm = createWasmKernels({ threads: 1 });
    kernels.push(wasm);
    const natives = [1, 2].map((threads) => createWasmKernels({ threads, native: true }));
    kernels.push(...natives);
    const until = Date.now() + 20_000;
    while (!natives[1]!.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(natives[1]!.parallel).toBe(true);
    const rng = new Rng(17);
    // vocabularies off the 16-float lanes (the 4-float and 1-float tails), and the stage's 8,392
    for (const [rows, V, spread] of [
      [3, 1, 1],
      [5, 7, 3],
      [9, 37, 30],
      [700, 8392, 8],
      // exponentials spread over more than f64's 53 bits, so the order of the sum shows in its bits
      [64, 8392, 40],
      [4, 8392, 200], // past the exponential's clamp
    ] as const) {
      const logits = random(rng, rows * V).map((x) => x * spread);
      const targets = Int32Array.from({ length: rows }, () => rng.int(V));
      const results = [wasm, ...natives].map((k) => {
        const buffer = k.alloc(rows * V);
        buffer.set(logits);
        const loss = k.crossEntropy!(buffer, targets, rows, V, 0.37);
        const out = Buffer.from(buffer.slice().buffer);
        k.free(buffer);
        return { loss, out };
      });
      for (const r of results.slice(1)) {
        expect(r.loss, `loss ${rows}x${V}`).toBe(results[0]!.loss);
        expect(r.out.equals(results[0]!.out), `gradients ${rows}x${V}`).toBe(true);
      }
    }
  });
});

describe.skipIf(!usable())("the native addon's huge-page advice", () => {
  it("asks for 2 MB pages over a shared memory, contents untouched, and rejects bad arguments", () => {
    const addon = loadNative();
    const memory = new wasmApi.Memory({ initial: 64, maximum: 256, shared: true });
    const heap = new Float32Array(memory.buffer);
    heap[12345] = 1.5;
    // 0, or the errno of a kernel without transparent huge pages: never a throw for a valid range
    expect(addon.adviseHugePages!(heap, 256 * 65536)).toBeGreaterThanOrEqual(0);
    expect(heap[12345]).toBe(1.5);
    expect(() => addon.adviseHugePages!(heap, -1)).toThrow(/byte count/);
    expect(() => addon.adviseHugePages!(new Float32Array(memory.buffer, 4), 0)).toThrow(/from byte 0/);
  });
});

describe.skipIf(!usable())("the native gemm's packing of a shared operand once per job", () => {
  it("gives each chunk the whole product's bits, and packs again for a new token", () => {
    const addon = loadNative();
    const rng = new Rng(4);
    const heap = new Float32Array(new SharedArrayBuffer(4 * 400_000));
    const [M, K, N] = [90, 300, 70];
    // A row-major M×K at 0, B row-major K×N after it, C after that
    const [a, b, c] = [0, 4 * M * K, 4 * (M * K + K * N)];
    const C = M * K + K * N;
    const whole = () => {
      heap.fill(0, C, C + M * N);
      addon.gemm(heap, c, N, a, K, 1, b, N, 1, M, N, K, 0);
      return heap.slice(C, C + M * N);
    };
    // row chunks of 8, 16 and the rest, sharing B (share 1); column chunks of 32 and the rest, sharing A (2)
    const chunked = (token: number) => {
      heap.fill(0, C, C + M * N);
      for (const [r0, r1] of [
        [0, 8],
        [8, 24],
        [24, M],
      ])
        addon.gemm(heap, c + 4 * r0 * N, N, a + 4 * r0 * K, K, 1, b, N, 1, r1 - r0, N, K, 0, 0, token, 1);
      const rows = heap.slice(C, C + M * N);
      heap.fill(0, C, C + M * N);
      for (const [j0, j1] of [
        [0, 32],
        [32, N],
      ])
        addon.gemm(heap, c + 4 * j0, N, a, K, 1, b + 4 * j0, N, 1, M, j1 - j0, K, 0, 0, token, 2);
      return [rows, heap.slice(C, C + M * N)];
    };
    const same = (x: Float32Array, y: Float32Array) => Buffer.from(x.buffer).equals(Buffer.from(y.buffer));
    for (const token of [7, 8]) {
      heap.set(random(rng, M * K + K * N));
      const want = whole();
      for (const got of chunked(token)) expect(same(got, want), `token ${token}`).toBe(true);
    }
    expect(() => addon.gemm(heap, c, N, a, K, 1, b, N, 1, M, N, K, 0, 0, 1, 3)).toThrow(/share/);
  });
});

describe.skipIf(!usable() || loadNative().level < 2)("the native gemm's AVX2 and AVX-512 tiles", () => {
  it("give the same bits (one fma chain per element whatever the tile)", () => {
    const addon = loadNative();
    const rng = new Rng(3);
    const heap = new Float32Array(new SharedArrayBuffer(4 * 400_000));
    for (const [M, K, N] of [
      [7, 5, 3],
      [50, 300, 70],
      [13, 600, 129],
    ] as const) {
      heap.set(random(rng, M * K + K * N + M * N));
      // A row-major M×K at 0, B transposed (N×K) after it, C after that, accumulating
      const [a, b, c] = [0, 4 * M * K, 4 * (M * K + K * N)];
      const start = heap.slice(M * K + K * N, M * K + K * N + M * N);
      const results = [2, 1].map((level) => {
        heap.set(start, M * K + K * N);
        addon.gemm(heap, c, N, a, K, 1, b, 1, K, M, N, K, 1, level);
        return heap.slice(M * K + K * N, M * K + K * N + M * N);
      });
      expect(results[0]!.some((x, i) => x !== start[i])).toBe(true);
      expect(Buffer.from(results[1]!.buffer).equals(Buffer.from(results[0]!.buffer))).toBe(true);
    }
  });
});
