import type { SharedHeap } from "./shared-heap.ts";
import type { ThreadPool } from "./thread-pool.ts";
import { chunkCount, TASK, type Gemm } from "./control.mjs";
import type { KernelStatsRecorder } from "./stats.ts";
import { slicing } from "./wasm-train.ts";
import type { MatmulCall } from "./api.ts";

type Shape = MatmulCall["shape"];
/** Most GEMMs in one pooled batch. */
const BATCH = 8;

/** Target multiply-adds per chunk of a parallel matmul. */
const CHUNK_WORK = 1 << 21;
/** assembly/matmul.ts KC: a gemm split over its depth at these block edges sums exactly as the unsplit one. */
const KC = 256;

export interface GemmContext {
  heap: SharedHeap;
  wasm: { gemm: Gemm; runTask?: (kind: number, item: number, args: number, scratch: number) => void };
  pool: ThreadPool | undefined;
  threads: number;
  mainScratch: number;
  recorder: KernelStatsRecorder;
  /** Problems with M·N·K below this run on the calling thread alone. */
  threshold: number;
  /** Fewest rows (or columns) in a chunk of a parallel matmul while each thread still gets one. */
  minChunk: number;
}

/**
 * The three matmul shapes of api.ts on the WebAssembly gemm: split across the pool's threads by rows or columns
 * of the output, or (weight gradients with few output rows) over the depth, always with the unsplit gemm's bits.
 */
export function gemmKernel(ctx: GemmContext) {
  const { heap, wasm, pool, threads, mainScratch, recorder, threshold, minChunk } = ctx;
  // The K-split gemm's partial products, grown on demand and kept; the table of a batch of GEMMs.
  let partials = { addr: 0, bytes: 0 };
  const table = heap.allocBytes(BATCH * 64);

  /** How a pooled gemm is cut: by rows or columns of the output, chunks of `size`, `count` of them. */
  function cut(M: number, N: number, K: number) {
    const byRows = M >= N || N < 16;
    const extent = byRows ? M : N;
    // Chunks of about CHUNK_WORK each (2 to 8 per thread): enough for the threads to balance on a busy
    // machine, few enough that re-packing the shared operand per chunk stays cheap.
    const want = Math.max(2, Math.min(8 * threads, Math.round((M * N * K) / CHUNK_WORK)));
    const unit = byRows ? 4 : 8; // the micro-tile, so chunk edges fall on tile edges
    // Every chunk packs the whole shared operand (K × the other extent): a chunk of fewer than `minChunk`
    // rows (columns) would spend a large share of its time re-packing it (the weight gradients' shapes,
    // 128 × tokens × 128, would be cut into 12-row chunks). At least one chunk per thread all the same.
    const floor = Math.min(minChunk, Math.ceil(extent / threads / unit) * unit);
    const size = Math.max(floor, Math.ceil(extent / want / unit) * unit);
    return { byRows, extent, size, count: chunkCount(extent, size) };
  }

  /** A(i,p) = a[i*rsa + p*csa], B(p,j) = b[p*rsb + j*csb] for each shape. */
  function strides(shape: Shape, M: number, K: number, N: number) {
    return {
      rsa: shape === "AtB" ? 1 : K,
      csa: shape === "AtB" ? M : 1,
      rsb: shape === "ABt" ? 1 : N,
      csb: shape === "ABt" ? K : 1,
    };
  }

  /**
   * Independent GEMMs (none reads or writes another's output) as one pool job: their chunks are claimed from
   * one counter, so the threads meet once instead of once per product. Each chunk is the one the single call
   * would compute, so are its bits. Products that are small, not all in the heap, or split over their depth
   * run one by one.
   */
  function many(list: readonly MatmulCall[]): void {
    const each = () =>
      list.forEach((m) => run(m.shape, m.out, m.a, m.b, m.M, m.K, m.N, m.accumulate ?? false));
    if (!pool || !pool.ready || !wasm.runTask || list.length < 2 || list.length > BATCH) return each();
    const rows: number[][] = [];
    const batched: MatmulCall[] = [];
    const alone: MatmulCall[] = []; // split over their depth: a job of their own
    let items = 0;
    for (const m of list) {
      checkOperands(m.shape, m.out, m.a, m.b, m.M, m.K, m.N);
      const { M, K, N } = m;
      const [c, pa, pb] = [heap.addressOf(m.out), heap.addressOf(m.a), heap.addressOf(m.b)];
      const eligible = M * N * K >= threshold && (M >= 8 || N >= 16);
      const { byRows, extent, size, count } = cut(M, N, K);
      const depth = m.shape === "AtB" && splitK(M, K, extent);
      if (c < 0 || pa < 0 || pb < 0 || !eligible || M === 0 || N === 0) return each();
      if (depth) {
        alone.push(m);
        continue;
      }
      batched.push(m);
      const { rsa, csa, rsb, csb } = strides(m.shape, M, K, N);
      const acc = m.accumulate ? 1 : 0;
      rows.push([c, N, pa, rsa, csa, pb, rsb, csb, M, N, K, acc, byRows ? 1 : 0, size, items, count]);
      items += count;
    }
    const one = (m: MatmulCall) => run(m.shape, m.out, m.a, m.b, m.M, m.K, m.N, m.accumulate ?? false);
    alone.forEach(one);
    if (batched.length < 2) return batched.forEach(one);
    const t0 = recorder.start();
    new Int32Array(heap.memory.buffer, table, rows.length * 16).set(rows.flat());
    pool.runTasks(wasm, TASK.GEMM_BATCH, [table, rows.length], items, mainScratch);
    const works = batched.map((m) => m.M * m.N * m.K);
    const total = works.reduce((a, b) => a + b, 0);
    batched.forEach((m, i) => recorder.stopGemm(m.shape, t0, true, true, works[i]! / total));
    recorder.count("GEMMs in batches", batched.length);
  }

  // Operands outside the heap are copied into temporary heap blocks (and the output copied back).
  function place(array: Float32Array, length: number, copyIn: boolean, temps: number[]): number {
    const addr = heap.addressOf(array);
    if (addr >= 0) return addr;
    const tmp = heap.allocBytes(length * 4);
    temps.push(tmp);
    if (copyIn) heap.view(tmp, length).set(array.subarray(0, length));
    return tmp;
  }

  function run(
    shape: Shape,
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    M: number,
    K: number,
    N: number,
    accumulate: boolean,
  ): void {
    checkOperands(shape, out, a, b, M, K, N);
    if (M === 0 || N === 0) return;
    const t0 = recorder.start();
    const work = M * N * K;
    const eligible = work >= threshold && (M >= 8 || N >= 16);
    const shared = !!pool && pool.ready && eligible;
    // The common case (every operand in the heap) allocates nothing: decoding makes many tiny calls.
    let c = heap.addressOf(out);
    let pa = heap.addressOf(a);
    let pb = heap.addressOf(b);
    const foreign = c < 0 || pa < 0 || pb < 0;
    const temps: number[] = [];
    try {
      if (foreign) {
        c = place(out, M * N, accumulate, temps);
        pa = place(a, M * K, true, temps);
        pb = place(b, K * N, true, temps);
      }
      const { rsa, csa, rsb, csb } = strides(shape, M, K, N);
      const acc = accumulate ? 1 : 0;
      const { byRows, extent, size, count } = cut(M, N, K);
      if (shared && shape === "AtB" && splitK(M, K, extent)) {
        splitDepth(c, pa, pb, M, K, N, acc);
      } else if (shared) {
        pool!.run(wasm, [c, N, pa, rsa, csa, pb, rsb, csb, M, N, K, acc], byRows, size, count, mainScratch);
      } else {
        wasm.gemm(c, N, pa, rsa, csa, pb, rsb, csb, M, N, K, acc, mainScratch);
      }
      if (heap.addressOf(out) < 0) out.set(heap.view(c, M * N));
    } finally {
      for (const tmp of temps) heap.freeBytes(tmp);
    }
    recorder.stopGemm(shape, t0, eligible, shared);
  }

  /**
   * Whether a weight gradient dyᵀ·x (AtB, depth K = tokens) is better split over its depth: when splitting its
   * `extent` output rows (columns) would leave a thread fewer than `minChunk` of them, each re-packing all K
   * tokens of the other operand.
   */
  function splitK(M: number, K: number, extent: number): boolean {
    return K >= 2 * KC && M >= 8 && extent < minChunk * threads;
  }

  /**
   * C (+)= A·B split over depth blocks of exactly KC (and over row blocks of at least 4 rows, so every block
   * takes the packed path): block 0 goes into C, block b > 0 into partial b − 1, then C += partial 1, partial
   * 2, … in order. The unsplit gemm adds its KC-deep register sums into C in the same order, so the two give
   * the same bits.
   */
  function splitDepth(c: number, pa: number, pb: number, M: number, K: number, N: number, acc: number) {
    const kBlocks = Math.ceil(K / KC);
    let rowBlocks = Math.max(1, Math.min(Math.floor(M / 8), Math.ceil((2 * threads) / kBlocks)));
    const rowChunk = Math.ceil(M / rowBlocks / 4) * 4;
    rowBlocks = Math.ceil(M / rowChunk);
    if (M - (rowBlocks - 1) * rowChunk < 4) rowBlocks--; // the last block takes the remaining rows
    const bytes = 4 * (kBlocks - 1) * M * N;
    if (bytes > partials.bytes) {
      if (partials.bytes > 0) heap.freeBytes(partials.addr);
      partials = { addr: heap.allocBytes(bytes), bytes };
    }
    const args = [c, N, pa, 1, M, pb, N, 1, M, N, K, acc, partials.addr, KC, rowChunk, rowBlocks];
    pool!.runTasks(wasm, TASK.GEMM_SPLIT_K, args, kBlocks * rowBlocks, mainScratch);
    if (kBlocks === 1) return;
    const { chunk, count } = slicing(M * N, threads);
    pool!.runTasks(
      wasm,
      TASK.SUM_PARTIALS,
      [c, partials.addr, kBlocks - 1, M * N, chunk],
      count,
      mainScratch,
    );
  }

  return { run, many };
}

function checkOperands(
  shape: Shape,
  out: Float32Array,
  a: Float32Array,
  b: Float32Array,
  M: number,
  K: number,
  N: number,
): void {
  const bad = (v: number) => !Number.isInteger(v) || v < 0;
  if (bad(M) || bad(K) || bad(N)) {
    const [name, v] = bad(M) ? ["M", M] : bad(K) ? ["K", K] : ["N", N];
    throw new RangeError(`matmul${shape}: ${name} must be a non-negative integer, got ${v}`);
  }
  const short = (name: string, array: Float32Array, length: number) =>
    new RangeError(`matmul${shape}: ${name} has ${array.length} elements, needs ${length}`);
  if (out.length < M * N) throw short("out", out, M * N);
  if (a.length < M * K) throw short("a", a, M * K);
  if (b.length < K * N) throw short("b", b, K * N);
}
