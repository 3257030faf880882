// The training step's pool tasks (tasks.ts runTask hands kinds ≥ FIRST_TRAIN_TASK here; kernels/control.mjs
// mirrors the numbers). Arguments are i32 slots (f32 as their bits, f64 as two slots, low word first). Slices
// are fixed by the problem's size, never by the thread count, so every thread count computes the same items.
import {
  adamwUpdate,
  rmsnormForward,
  swigluBackward,
  swigluBackwardKept,
  swigluForward,
  swigluForwardKeep,
} from "./elementwise";
import { ropeRows } from "./heads";
import { gemm, gemmPacked, packBBlock } from "./matmul";
import { arg, argd, argf } from "./args";
import { attentionBackwardItem } from "./attention-items";
import {
  addInto,
  averageInto,
  crossEntropyRow,
  embeddingGrad,
  embeddingRows,
  rmsnormInputGrad,
  rmsnormInputGradFrom,
  rmsnormWeightGrad,
  scaleInPlace,
  scatterRows,
  sumPartials,
  sumSquares,
} from "./train";

const RMSNORM_BACKWARD: i32 = 8;
const CROSS_ENTROPY: i32 = 9;
const ADAMW: i32 = 10;
const SUM_SQUARES: i32 = 11;
const SCALE: i32 = 12;
const FILL_ZERO: i32 = 13;
const EMBEDDING_GRAD: i32 = 14;
const EMBEDDING_ROWS: i32 = 15;
const AVERAGE: i32 = 16;
const SUM_PARTIALS: i32 = 17;
const GEMM_SPLIT_K: i32 = 18;
const GEMM_BATCH: i32 = 19;
// 20: ROPE_ROWS (tasks.ts)
const GATHER_ROWS: i32 = 21;
const SCATTER_ROWS: i32 = 22;
/** Bytes of one GEMM_BATCH table entry (27 i32: kernels/wasm-gemm.ts writes them). */
const ENTRY: usize = 108;

/** Cell 12 of a GEMM_BATCH entry that holds a task's items, not a product's chunks (gemmBatchTaskEntries). */
const TASK_ENTRY: i32 = 2;
/** The task kind such an entry may hold (tasks.ts ATTENTION_BACKWARD). */
const ATTENTION_BACKWARD: i32 = 2;

/** Row epilogues of a GEMM_BATCH entry (rowEpilogue; kernels/wasm-gemm.ts EPILOGUE mirrors them). */
const RESIDUAL: i32 = 1;
const ROPE: i32 = 2;
const SWIGLU: i32 = 3;
const SWIGLU_BACKWARD: i32 = 4;
const NORM_BACKWARD_DX: i32 = 5;

/** The address in block cell `cell` (bytes), plus `o` bytes. */
function at(e: usize, cell: usize, o: usize): usize {
  return <usize>load<i32>(e + cell) + o;
}

/**
 * Rows r0..r1−1 of the work that follows a product on its rows (kernels/wasm-gemm.ts writes the block at `e`,
 * i32 cells): RESIDUAL: d, sum, x, y, then norm out (0: none), inv, w, eps bits: sum = x + y on those rows,
 * then the RMSNorm of sum into out (the residual add and the next norm of a layer); ROPE: x, H, hd, cos, sin,
 * positions, inverse: RoPE in place on those rows of x; SWIGLU: f, a, g, u, σ(g) kept at (0: not kept): a =
 * silu(g)·u on those rows of [rows, f]; SWIGLU_BACKWARD: f, dg, du, da, g, u, σ(g) (0: computed again). Each is
 * the function its own job runs on the same rows (train.ts addInto, elementwise.ts rmsnormForward and the
 * SwiGLU ones, elementwise, every lane alike; heads.ts ropeRows; NORM_BACKWARD_DX: d, dx, dy, x, w, inv, from
 * (0: dx): dx = from + the dx part of RMSNorm's backward, train.ts rmsnormInputGradFrom), row by row: the same
 * bits, computed by the thread that just wrote the rows, without a hand-off of its own.
 */
export function rowEpilogue(e: usize, r0: i32, r1: i32): void {
  const kind = load<i32>(e);
  if (kind == RESIDUAL) {
    const d = load<i32>(e, 4);
    const o = <usize>(r0 * d) * 4;
    const sum = <usize>load<i32>(e, 8) + o;
    addInto(sum, <usize>load<i32>(e, 12) + o, <usize>load<i32>(e, 16) + o, (r1 - r0) * d);
    const out = <usize>load<i32>(e, 20);
    if (out != 0) {
      const inv = <usize>load<i32>(e, 24) + <usize>r0 * 4;
      rmsnormForward(out + o, inv, sum, <usize>load<i32>(e, 28), r1 - r0, d, load<f32>(e, 32));
    }
  } else if (kind == SWIGLU || kind == SWIGLU_BACKWARD) {
    const f = load<i32>(e, 4);
    const o = <usize>(r0 * f) * 4;
    const n = (r1 - r0) * f;
    if (kind == SWIGLU) {
      if (load<i32>(e, 20) != 0) swigluForwardKeep(at(e, 8, o), at(e, 20, o), at(e, 12, o), at(e, 16, o), n);
      else swigluForward(at(e, 8, o), at(e, 12, o), at(e, 16, o), n);
    } else if (load<i32>(e, 28) != 0)
      swigluBackwardKept(
        at(e, 8, o),
        at(e, 12, o),
        at(e, 16, o),
        at(e, 20, o),
        at(e, 24, o),
        at(e, 28, o),
        n,
      );
    else swigluBackward(at(e, 8, o), at(e, 12, o), at(e, 16, o), at(e, 20, o), at(e, 24, o), n);
  } else if (kind == NORM_BACKWARD_DX) {
    const d = load<i32>(e, 4);
    // cell 28: the gradient to add to (0: dx itself, in place; kernels/wasm.ts, the backward's row chain)
    const from = load<i32>(e, 28) != 0 ? at(e, 28, 0) : at(e, 8, 0);
    rmsnormInputGradFrom(
      at(e, 8, 0),
      from,
      at(e, 12, 0),
      at(e, 16, 0),
      at(e, 20, 0),
      at(e, 24, 0),
      r0,
      r1,
      d,
    );
  } else if (kind == ROPE) {
    ropeRows(
      <usize>load<i32>(e, 4),
      r0,
      r1,
      load<i32>(e, 8),
      load<i32>(e, 12),
      <usize>load<i32>(e, 16),
      <usize>load<i32>(e, 20),
      <usize>load<i32>(e, 24),
      load<i32>(e, 28),
    );
  }
}

/** ENTRY, for the caller to check that it writes the table this module reads. */
export function gemmBatchEntryBytes(): i32 {
  return <i32>ENTRY;
}

/**
 * 1: this module runs a GEMM_BATCH entry's row epilogue right after its own rows, a chained entry's included
 * (modules before it ran the chain's head's epilogue once the chain was done, and a chained entry's never).
 */
export function gemmBatchChainEpilogues(): i32 {
  return 1;
}

/**
 * 1: this module's GEMM_BATCH takes entries of task items (cell 12 = TASK_ENTRY: the attention backward beside a
 * layer's weight gradients, kernels/wasm-gemm.ts job()) and a second deferred task (args 7-9); modules before it
 * read every entry as a product and one deferred task.
 */
export function gemmBatchTaskEntries(): i32 {
  return 1;
}

/** 1: this module's NORM_BACKWARD_DX epilogue reads its cell 28 (dx = from + …; modules before it added into dx). */
export function normBackwardFrom(): i32 {
  return 1;
}

function ptr(args: usize, i: i32): usize {
  return <usize>arg(args, i);
}

/** Item i of a fixed-size slicing of n: its start (the end is min(n, start + chunk)). */
function slice(i: i32, chunk: i32): i32 {
  return i * chunk;
}

export function runTrainTask(kind: i32, i: i32, args: usize, scratch: usize): void {
  if (kind == RMSNORM_BACKWARD) {
    // args: dx, dw, dy, x, w, inv, rows, d, row chunk, column chunk, column items, first item. The dx part's row
    // chunks come first, so a job's home ranges (kernels/control.mjs) give each thread the rows it wrote before;
    // the dw part's column items (each over all rows) after them. Item i is item i + first item (a job of the
    // column items alone: the dx part done on the rows of the product that wrote dy, rowEpilogue).
    i += arg(args, 11);
    const rows = arg(args, 6);
    const d = arg(args, 7);
    const rowItems = (rows + arg(args, 8) - 1) / arg(args, 8);
    if (i >= rowItems) {
      const c0 = slice(i - rowItems, arg(args, 9));
      rmsnormWeightGrad(
        ptr(args, 1),
        ptr(args, 2),
        ptr(args, 3),
        ptr(args, 5),
        rows,
        d,
        c0,
        min(d, c0 + arg(args, 9)),
      );
    } else {
      const r0 = slice(i, arg(args, 8));
      const r1 = min(rows, r0 + arg(args, 8));
      rmsnormInputGrad(ptr(args, 0), ptr(args, 2), ptr(args, 3), ptr(args, 4), ptr(args, 5), r0, r1, d);
    }
  } else if (kind == CROSS_ENTROPY) {
    // args: logits, targets (i32), losses (f64 per row), V, scale (f64), rows, rows per item
    const V = arg(args, 3);
    const r0 = slice(i, arg(args, 7));
    const r1 = min(arg(args, 6), r0 + arg(args, 7));
    for (let r = r0; r < r1; r++) {
      const row = ptr(args, 0) + <usize>r * <usize>V * 4;
      const target = load<i32>(ptr(args, 1) + <usize>r * 4);
      store<f64>(ptr(args, 2) + <usize>r * 8, crossEntropyRow(row, V, target, argd(args, 4)));
    }
  } else if (kind == ADAMW) {
    // args: p, g, m, v, table of (offset, length, decayed) in floats, lr, beta1, beta2, eps, wd, c1, c2,
    // gradient scale (f64: clipping folded in, adamwScaled), zero the gradients read (1) or not
    const t = ptr(args, 4) + <usize>(i * 12);
    const o = <usize>load<i32>(t) * 4;
    const n = load<i32>(t, 4);
    const wd: f32 = load<i32>(t, 8) != 0 ? argf(args, 9) : 0;
    const lr = argf(args, 5);
    const p = ptr(args, 0) + o;
    const g = ptr(args, 1) + o;
    const m = ptr(args, 2) + o;
    const v = ptr(args, 3) + o;
    const k = argd(args, 12);
    // (argument 14: 1 zeroes each gradient once read, adamwUpdate)
    adamwUpdate(
      p,
      g,
      m,
      v,
      n,
      lr,
      argf(args, 6),
      argf(args, 7),
      argf(args, 8),
      wd,
      argf(args, 10),
      argf(args, 11),
      k,
      arg(args, 14) == 1,
    );
  } else if (kind == SUM_SQUARES) {
    // args: x, n, chunk, partial sums (f64 per item)
    const s = slice(i, arg(args, 2));
    const n = min(arg(args, 2), arg(args, 1) - s);
    store<f64>(ptr(args, 3) + <usize>i * 8, sumSquares(ptr(args, 0) + <usize>s * 4, n));
  } else if (kind == SCALE) {
    // args: x, n, chunk, k (f64)
    const s = slice(i, arg(args, 2));
    scaleInPlace(ptr(args, 0) + <usize>s * 4, min(arg(args, 2), arg(args, 1) - s), argd(args, 3));
  } else if (kind == FILL_ZERO) {
    // args: x, n, chunk
    const s = slice(i, arg(args, 2));
    memory.fill(ptr(args, 0) + <usize>s * 4, 0, <usize>min(arg(args, 2), arg(args, 1) - s) * 4);
  } else if (kind == EMBEDDING_GRAD) {
    // args: dEmb, dx, tokens, N, d, V, ids per item
    const id0 = slice(i, arg(args, 6));
    const id1 = min(arg(args, 5), id0 + arg(args, 6));
    embeddingGrad(ptr(args, 0), ptr(args, 1), ptr(args, 2), arg(args, 3), arg(args, 4), id0, id1);
  } else if (kind == EMBEDDING_ROWS) {
    // args: x, emb, tokens, N, d, rows per item
    const t0 = slice(i, arg(args, 5));
    embeddingRows(
      ptr(args, 0),
      ptr(args, 1),
      ptr(args, 2),
      t0,
      min(arg(args, 3), t0 + arg(args, 5)),
      arg(args, 4),
    );
  } else if (kind == GATHER_ROWS) {
    // args: out, src, rows (i32), n, d, rows per item: out[j] = src[rows[j]] (the LM head's rows with a target)
    const j0 = slice(i, arg(args, 5));
    embeddingRows(
      ptr(args, 0),
      ptr(args, 1),
      ptr(args, 2),
      j0,
      min(arg(args, 3), j0 + arg(args, 5)),
      arg(args, 4),
    );
  } else if (kind == SCATTER_ROWS) {
    // args: out, src, rows (i32, ascending), n, d, out rows, out rows per item: out[rows[j]] = src[j], every
    // other row of the item's range of out 0
    const r0 = slice(i, arg(args, 6));
    scatterRows(
      ptr(args, 0),
      ptr(args, 1),
      ptr(args, 2),
      arg(args, 3),
      arg(args, 4),
      r0,
      min(arg(args, 5), r0 + arg(args, 6)),
    );
  } else if (kind == AVERAGE) {
    // args: a, p, n, chunk, count
    const s = slice(i, arg(args, 3));
    const o = <usize>s * 4;
    averageInto(ptr(args, 0) + o, ptr(args, 1) + o, min(arg(args, 3), arg(args, 2) - s), <f64>arg(args, 4));
  } else if (kind == SUM_PARTIALS) {
    // args: c, partials, parts, size (floats of one partial), chunk
    const e0 = slice(i, arg(args, 4));
    sumPartials(
      ptr(args, 0),
      ptr(args, 1),
      arg(args, 2),
      arg(args, 3),
      e0,
      min(arg(args, 3), e0 + arg(args, 4)),
    );
  } else if (kind == GEMM_BATCH) {
    // args: table, entries, pack items, then a task whose items come first (kind, 0: none; its arguments' address;
    // its items: RMSNorm's deferred weight gradient, kernels/wasm-gemm.ts defer()). Each entry ENTRY bytes: the gemm's c, ldc, a, rsa, csa, b, rsb, csb, M,
    // N, K, accumulate, then split by rows (1) or columns (0), chunk size, first item, chunks, then B packed
    // whole at (0: each chunk packs its own), first pack item, pack items, pack items done, then the gemm's
    // chunk number of the entry's first chunk, the gemm's chunks, the address of its pack items done (in its
    // entry that packs), its pack items, then the entry of the product chained to it (0: none; kernels/wasm-gemm.ts chain(): it adds
    // into this one's output, or reads its rows, computed on the same chunks right after them), then its row
    // epilogue (0: none; rowEpilogue, on the chunk's rows right after the entry's own), then the address of its chunks'
    // row starts (0: chunks of the size in cell 13, the last one the rest). A gemm has one entry per home range of the job (kernels/control.mjs)
    // with chunks in it. Items below the pack items pack one block of a B each; the rest are chunks, item i
    // chunk i − pack items of the entry whose chunks hold it (entries write distinct outputs, so any order is
    // the same). Pack items are claimed before any chunk, so a chunk waits at most for packing in progress.
    const extra = arg(args, 5);
    if (i < extra) {
      runTrainTask(arg(args, 3), i, ptr(args, 4), scratch);
      return;
    }
    i -= extra;
    // (args 7-9: a second such task, its items after the first's: the two norms a row chain goes through)
    const extra2 = arg(args, 9);
    if (i < extra2) {
      runTrainTask(arg(args, 7), i, ptr(args, 8), scratch);
      return;
    }
    i -= extra2;
    const table = ptr(args, 0);
    const lastEntry = table + <usize>(arg(args, 1) - 1) * ENTRY;
    const packItems = arg(args, 2);
    let t = table;
    if (i < packItems) {
      while (t < lastEntry && i >= load<i32>(t, 68) + load<i32>(t, 72)) t += ENTRY;
      const K = load<i32>(t, 40);
      const N = load<i32>(t, 36);
      const b = <usize>load<i32>(t, 20);
      packBBlock(b, load<i32>(t, 24), load<i32>(t, 28), K, N, i - load<i32>(t, 68), <usize>load<i32>(t, 64));
      atomic.add<i32>(t + 76, 1);
      return;
    }
    const item = i - packItems;
    while (t < lastEntry && item >= load<i32>(t, 56) + load<i32>(t, 60)) t += ENTRY;
    const chunk = load<i32>(t, 80) + item - load<i32>(t, 56);
    if (load<i32>(t, 48) == TASK_ENTRY) {
      // a task's items (cell 0 its kind, cell 2 its arguments' address): the entry holds items cell 20 ..
      // cell 21 − 1, its j-th chunk g of them (g in cell 13), each computed as its own job computes it
      if (load<i32>(t) != ATTENTION_BACKWARD) unreachable();
      const g = load<i32>(t, 52);
      const first = load<i32>(t, 80) + (item - load<i32>(t, 56)) * g;
      const end = min(load<i32>(t, 84), first + g);
      for (let j = first; j < end; j++) attentionBackwardItem(j, <usize>load<i32>(t, 8), scratch);
      return;
    }
    let start: i32;
    let end: i32;
    const starts = <usize>load<i32>(t, 104);
    if (starts != 0) {
      // chunks of the sizes the table at cell 26 gives (row chunks: a multiple of 4 rows each, the product's
      // last one the rest, never fewer than 4: kernels/wasm-gemm.ts grade())
      start = load<i32>(starts + <usize>chunk * 4);
      end = load<i32>(starts + <usize>chunk * 4, 4);
    } else {
      start = chunk * load<i32>(t, 52);
      // the gemm's last chunk takes all that is left (control.mjs chunkCount: never fewer than 4 rows)
      const last = chunk == load<i32>(t, 84) - 1;
      end = last ? load<i32>(t + (load<i32>(t, 48) == 1 ? 32 : 36)) : start + load<i32>(t, 52);
    }
    // the entry's rows, then its row epilogue (cell 25; row chunks only); then each product chained to it (entry
    // cell 24), the same rows, in order, each followed by its own epilogue: a chained product may read the rows
    // an earlier one and its epilogue wrote (a layer's o, gate, up, down: kernels/wasm-gemm.ts chainRows())
    batchChunk(t, start, end - start, scratch);
    const e = <usize>load<i32>(t, 100);
    if (e != 0) rowEpilogue(e, start, end);
    for (let u = <usize>load<i32>(t, 96); u != 0; u = <usize>load<i32>(u, 96)) {
      batchChunk(u, start, end - start, scratch);
      const eu = <usize>load<i32>(u, 100);
      if (eu != 0) rowEpilogue(eu, start, end);
    }
  } else if (kind == GEMM_SPLIT_K) {
    // args: c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, accumulate, partials, K per block, rows per block,
    // row blocks. Block (kb, rb): rows of block rb over depths kb·kc..; kb 0 into C (accumulating as asked),
    // kb > 0 into partial kb − 1, summed into C in order afterwards (SUM_PARTIALS).
    const rowBlocks = arg(args, 15);
    const kb = i / rowBlocks;
    const rb = i % rowBlocks;
    const M = arg(args, 8);
    const N = arg(args, 9);
    const K = arg(args, 10);
    const rsa = arg(args, 3);
    const csa = arg(args, 4);
    const r0 = rb * arg(args, 14);
    const rows = rb == rowBlocks - 1 ? M - r0 : arg(args, 14);
    const k0 = kb * arg(args, 13);
    const depth = min(arg(args, 13), K - k0);
    const ldc = arg(args, 1);
    const dst = kb == 0 ? ptr(args, 0) : ptr(args, 12) + <usize>(kb - 1) * <usize>(M * N) * 4;
    const cr = dst + <usize>(r0 * ldc) * 4;
    const ar = ptr(args, 2) + <usize>(r0 * rsa + k0 * csa) * 4;
    const br = ptr(args, 5) + <usize>(k0 * arg(args, 6)) * 4;
    gemm(
      cr,
      ldc,
      ar,
      rsa,
      csa,
      br,
      arg(args, 6),
      arg(args, 7),
      rows,
      N,
      depth,
      kb == 0 ? arg(args, 11) : 0,
      scratch,
    );
  }
}

/** The chunk of GEMM_BATCH entry t (see runTrainTask) of `size` rows (columns) from row (column) `start`. */
function batchChunk(t: usize, start: i32, size: i32, scratch: usize): void {
  const byRows = load<i32>(t, 48) == 1;
  let c = <usize>load<i32>(t);
  const ldc = load<i32>(t, 4);
  let a = <usize>load<i32>(t, 8);
  let b = <usize>load<i32>(t, 20);
  let M = load<i32>(t, 32);
  let N = load<i32>(t, 36);
  const K = load<i32>(t, 40);
  if (byRows) {
    M = size;
    c += <usize>(start * ldc) * 4;
    a += <usize>(start * load<i32>(t, 12)) * 4;
  } else {
    N = size;
    c += <usize>start * 4;
    b += <usize>(start * load<i32>(t, 28)) * 4;
  }
  const rsa = load<i32>(t, 12);
  const csa = load<i32>(t, 16);
  const packed = <usize>load<i32>(t, 64);
  if (packed != 0 && byRows) {
    const packs = load<i32>(t, 92);
    const done = <usize>load<i32>(t, 88);
    // spin: the packing threads are running (their items were claimed before this one)
    while (atomic.load<i32>(done) < packs) continue;
    gemmPacked(c, ldc, a, rsa, csa, packed, M, N, K, load<i32>(t, 44), scratch);
    return;
  }
  gemm(c, ldc, a, rsa, csa, b, load<i32>(t, 24), load<i32>(t, 28), M, N, K, load<i32>(t, 44), scratch);
}
