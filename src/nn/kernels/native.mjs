// The opt-in native GEMM (TOOLGEN_KERNELS=native): a C++ addon (native/gemm.cc, `npm run build:native`) that
// takes the WebAssembly gemm's arguments and computes on the same shared heap with AVX2/AVX-512 FMA tiles,
// about twice the WebAssembly gemm's speed per thread (issue 40). Plain JS: the pool's workers import it too.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { TASK } from "./control.mjs";

/** Where `npm run build:native` puts the addon. */
export const NATIVE_PATH = fileURLToPath(
  new URL("../../../native/build/Release/toolgen_gemm.node", import.meta.url),
);

/** Loads the addon; throws when it is missing, cannot load, or the CPU lacks AVX2+FMA. */
export function loadNative(path = NATIVE_PATH) {
  const addon = createRequire(import.meta.url)(path);
  if (!(addon.level > 0)) throw new Error("this CPU has no AVX2+FMA");
  return addon;
}

/**
 * The WebAssembly module's exports with gemm replaced by the addon's, on `memory`'s heap. The heap view is
 * made again when the memory has grown (a new buffer object), so the addon always sees the whole heap.
 */
export function withNativeGemm(exports, memory, addon) {
  let heap = new Float32Array(memory.buffer);
  let cells = new Int32Array(memory.buffer);
  // TOOLGEN_NATIVE_TILES=avx2: the AVX2 tiles on an AVX-512 CPU (the same bits; to measure which scales better)
  const level = process.env.TOOLGEN_NATIVE_TILES === "avx2" ? 1 : 0;
  const gemm = (c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, acc) => {
    if (heap.buffer !== memory.buffer) heap = new Float32Array(memory.buffer);
    addon.gemm(heap, c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, acc, level);
  };
  // Cross-entropy rows on the addon (AVX-512; the module's bits, native/gemm.cc crossEntropyRow): the
  // module's took 15 % of a one-thread native step (issue 40). TOOLGEN_NATIVE_CROSS_ENTROPY=0: the module's.
  const nativeCrossEntropy =
    addon.level >= 2 &&
    typeof addon.crossEntropy === "function" &&
    process.env.TOOLGEN_NATIVE_CROSS_ENTROPY !== "0";
  // GEMM_BATCH items computed here with the addon's gemm, not inside the module (whose gemm has other bits):
  // a layer's products (q/k/v, gate/up, weight gradients) share one pool job instead of one hand-off each
  // (the heap view and tile level the batch items pass to the addon)
  const view = { f32: heap, level };
  const runTask = (kind, i, args, scratch) => {
    if (kind === TASK.CROSS_ENTROPY && nativeCrossEntropy) {
      if (heap.buffer !== memory.buffer) heap = new Float32Array(memory.buffer);
      return addon.crossEntropy(heap, args, i);
    }
    if (kind !== TASK.GEMM_BATCH && kind !== TASK.GEMM_SPLIT_K)
      return exports.runTask(kind, i, args, scratch);
    if (cells.buffer !== memory.buffer) cells = new Int32Array(memory.buffer);
    if (heap.buffer !== memory.buffer) heap = new Float32Array(memory.buffer);
    view.f32 = heap;
    if (kind === TASK.GEMM_SPLIT_K) depthPiece(cells, addon, view, args >> 2, i);
    else batchItem(cells, addon, view, args >> 2, i, scratch, exports);
  };
  return { ...exports, gemm, runTask, native: level > 0 ? Math.min(level, addon.level) : addon.level };
}

/**
 * Asks for 2 MB pages over the memory up to `bytes` (its maximum: a shared memory's whole range is reserved up
 * front, so the pages of later growth are covered too), before the engine touches it; no bits change. The LM
 * head's products read and write the [rows, vocabulary] logits (20 MB on the retrieval stage) a block of
 * columns at a time, a 4 kB page per row, and on a virtual machine each TLB miss walks two page tables (issue
 * 40). TOOLGEN_NATIVE_HUGE_PAGES=0 leaves the pages alone (to measure); an addon built before this has no
 * such call. Returns the madvise errno (0: done), or -1 when not asked.
 */
export function adviseHugePages(memory, addon, bytes) {
  if (process.env.TOOLGEN_NATIVE_HUGE_PAGES === "0" || typeof addon.adviseHugePages !== "function") return -1;
  return addon.adviseHugePages(new Float32Array(memory.buffer), bytes);
}

/**
 * Item i of a GEMM_SPLIT_K job with the native gemm (args at cell `a`, assembly/train-tasks.ts's layout: c, ldc,
 * a, rsa, csa, b, rsb, csb, M, N, K, accumulate, partials, depth per piece, then rows per block and row blocks,
 * which must be M and 1): the product over depths i·kc..(i+1)·kc (the last piece: what is left), piece 0 into C
 * (accumulating as asked), piece i > 0 into partial i − 1, summed into C in order afterwards (SUM_PARTIALS:
 * kernels/wasm-gemm.ts nativeDepthPieces).
 */
function depthPiece(cells, addon, heap, a, i) {
  const [c, ldc, pa, rsa, csa, pb, rsb, csb, M, N, K, acc, partials, kc] = cells.subarray(a, a + 14);
  if (cells[a + 14] !== M || cells[a + 15] !== 1) throw new Error("native GEMM_SPLIT_K: row blocks");
  const k0 = i * kc;
  const depth = Math.min(kc, K - k0);
  const dst = i === 0 ? c : partials + (i - 1) * M * N * 4;
  const level = heap.level;
  addon.gemm(
    heap.f32,
    dst,
    ldc,
    pa + k0 * csa * 4,
    rsa,
    csa,
    pb + k0 * rsb * 4,
    rsb,
    csb,
    M,
    N,
    depth,
    i === 0 ? acc : 0,
    level,
  );
}

/** i32 cells of a GEMM_BATCH table entry (assembly/train-tasks.ts ENTRY, kernels/wasm-gemm.ts writes them). */
const ENTRY = 27;

/** Cell 12 of a GEMM_BATCH entry of task items (assembly/train-tasks.ts TASK_ENTRY, kernels/wasm-gemm.ts). */
const TASK_ENTRY = 2;

/** TOOLGEN_NATIVE_SHARE=0: every chunk packs its own operands, as before the job's shared packing (to measure). */
const shareOperands = process.env.TOOLGEN_NATIVE_SHARE !== "0";

/**
 * Item i of a GEMM_BATCH job (args at cell `a`: table, entries, pack items — none with the native gemm, whose
 * products pack their own B —, then a deferred task's kind, arguments and items, which come first, then the
 * job's token: kernels/wasm-gemm.ts job()): the chunk of the entry whose items hold it and its row epilogue, then
 * the same rows of each product chained to it and its epilogue, as assembly/train-tasks.ts runTrainTask computes them. With a
 * token, each chunk reads the operand the product's chunks share (B of a row chunk, A of a column chunk) from
 * this thread's one packing of it for the job (native/gemm.cc packedWhole): chunks cost their rows alone.
 */
function batchItem(cells, addon, heap, a, i, scratch, exports) {
  // the items of a task handed to this job (kernels/wasm-gemm.ts defer()) come first, in the module
  if (i < cells[a + 5]) return exports.runTask(cells[a + 3], i, cells[a + 4], scratch);
  i -= cells[a + 5];
  // (a second such task after it, args 7-9: the two norms a row chain goes through)
  if (i < cells[a + 9]) return exports.runTask(cells[a + 7], i, cells[a + 8], scratch);
  i -= cells[a + 9];
  const token = shareOperands ? cells[a + 6] : 0;
  const table = cells[a] >> 2;
  const last = table + (cells[a + 1] - 1) * ENTRY;
  if (cells[a + 2] !== 0) throw new Error("native GEMM_BATCH: a job with pack items");
  let t = table;
  while (t < last && i >= cells[t + 14] + cells[t + 15]) t += ENTRY;
  if (cells[t + 12] === TASK_ENTRY) {
    // a task's items in the module (the attention backward beside the weight gradients): the entry holds items
    // cell 20 .. cell 21 − 1, its j-th chunk g of them (g: cell 13); kind in cell 0, arguments at cell 2
    const g = cells[t + 13];
    const first = cells[t + 20] + (i - cells[t + 14]) * g;
    const end = Math.min(cells[t + 21], first + g);
    for (let j = first; j < end; j++) exports.runTask(cells[t], j, cells[t + 2], scratch);
    return;
  }
  const chunk = cells[t + 20] + i - cells[t + 14];
  let start;
  let stop;
  const starts = cells[t + 26] >> 2;
  if (starts !== 0) {
    // chunks of the sizes kernels/wasm-gemm.ts grade() wrote (the product's last one ends at its extent)
    start = cells[starts + chunk];
    stop = cells[starts + chunk + 1];
  } else {
    start = chunk * cells[t + 13];
    // the product's last chunk takes all that is left (control.mjs chunkCount: never fewer than 4 rows)
    stop = chunk === cells[t + 21] - 1 ? cells[t + (cells[t + 12] === 1 ? 8 : 9)] : start + cells[t + 13];
  }
  // each entry's row epilogue (row chunks only), in the module, right after the entry's own rows: a product
  // chained to it may read them (kernels/wasm-gemm.ts chainRows())
  batchChunk(cells, addon, heap, t, start, stop, token);
  if (cells[t + 25] !== 0) exports.rowEpilogue(cells[t + 25], start, stop);
  for (let u = cells[t + 24] >> 2; u !== 0; u = cells[u + 24] >> 2) {
    batchChunk(cells, addon, heap, u, start, stop, token);
    if (cells[u + 25] !== 0) exports.rowEpilogue(cells[u + 25], start, stop);
  }
}

/** Rows (columns) start..stop−1 of entry t (i32 cell index), sharing B (A) through the job's token. */
function batchChunk(cells, addon, heap, t, start, stop, token) {
  let c = cells[t];
  const ldc = cells[t + 1];
  let pa = cells[t + 2];
  const rsa = cells[t + 3];
  const csa = cells[t + 4];
  let pb = cells[t + 5];
  const rsb = cells[t + 6];
  const csb = cells[t + 7];
  let M = cells[t + 8];
  let N = cells[t + 9];
  const byRows = cells[t + 12] === 1;
  if (byRows) {
    M = stop - start;
    c += start * ldc * 4;
    pa += start * rsa * 4;
  } else {
    N = stop - start;
    c += start * 4;
    pb += start * csb * 4;
  }
  const level = heap.level;
  addon.gemm(
    heap.f32,
    c,
    ldc,
    pa,
    rsa,
    csa,
    pb,
    rsb,
    csb,
    M,
    N,
    cells[t + 10],
    cells[t + 11],
    level,
    token,
    byRows ? 1 : 2,
  );
}
