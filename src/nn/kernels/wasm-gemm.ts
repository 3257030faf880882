import type { SharedHeap } from "./shared-heap.ts";
import type { ThreadPool } from "./thread-pool.ts";
import { chunkCount, TASK, type Gemm } from "./control.mjs";
import type { KernelStatsRecorder } from "./stats.ts";
import { slicing } from "./wasm-train.ts";
import type { MatmulCall } from "./api.ts";

type Shape = MatmulCall["shape"];

/**
 * A task whose items join a GEMM job beside its products (many()): home h takes items bounds[h]..bounds[h + 1]
 * − 1 first, g a claim, then its share of the products' chunks. Its items must read nothing the products write
 * and write nothing they read or write (the attention backward beside a layer's weight gradients). `ranges`: the
 * [start, end) byte ranges it reads or writes (work deferred to the job that meets them runs first); `part`: its
 * share of the job's time in the kernel statistics (an estimate: the job is timed as a whole).
 */
export interface SideTask {
  kind: number;
  args: readonly number[];
  count: number;
  bounds: ArrayLike<number>;
  group: number;
  ranges: readonly number[];
  part: number;
}
/** Cell 12 of a table entry of task items (assembly/train-tasks.ts TASK_ENTRY). */
const TASK_ENTRY = 2;
/** Most GEMMs in one pooled batch (a backward row chain of 7 with 3 weight gradients beside it: chainRows()). */
const BATCH = 12;
/** i32 cells of a GEMM_BATCH table entry (assembly/train-tasks.ts ENTRY). */
const ENTRY = 27;
/** Row starts the graded chunks of one job may take (grade()): BATCH products of at most this many / BATCH. */
const STARTS = BATCH * 160;
/** Fewest rows in a home's last row chunk that grade() cuts into three. */
const GRADE_ROWS = 32;

/** Fewest rows of a row chunk over a B packed once per job (cut()), while each thread still gets one. */
const PACKED_ROWS = 32;
/** With the native gemm: at most this many chunks a thread, each of NATIVE_PIECE rows (columns) or more (cut()). */
const NATIVE_PIECES = Math.max(1, Math.floor(Number(process.env.TOOLGEN_NATIVE_PIECES) || 3));
const NATIVE_PIECE = 256;
/** The native gemm's register tile (native/gemm.cc AVX-512): chunk edges on its 8 rows, 32 columns. */
const NATIVE_ROWS = 8;
const NATIVE_COLUMNS = 32;
/**
 * With the native gemm: the multiply-adds of the smallest graded piece (gradeNative(); ~20 µs at the stage's
 * 50 G a second), several times an item's hand-off and call. TOOLGEN_NATIVE_GRADE=0: no graded pieces (to measure).
 */
const NATIVE_TAIL_WORK = process.env.TOOLGEN_NATIVE_GRADE === "0" ? 0 : 1 << 20;
/**
 * Each pool job's number for the native gemm (GEMM_BATCH's 7th argument): a thread packs the operand a
 * product's chunks share once per job (native/gemm.cc packedWhole), so no two jobs this thread hands out may
 * share a number, across every kernel set of the process (module-wide; from a random start, so that another
 * copy of this module in the same thread, bench/engine-pair.ts, is unlikely to meet the same numbers).
 */
let nativeJobs = (Math.random() * 0x3fffffff) | 0;
/**
 * With the native gemm: the depth of one piece of a product whose depth dwarfs its output (nativeDepthPieces()).
 * TOOLGEN_NATIVE_DEPTH_PIECES=0: no such pieces (to measure; other bits).
 */
const NATIVE_DEPTH_PIECE = process.env.TOOLGEN_NATIVE_DEPTH_PIECES === "0" ? 0 : 1024;
/** Target multiply-adds per chunk of a parallel matmul. */
const CHUNK_WORK = 1 << 21;
/** assembly/matmul.ts KC: a gemm split over its depth at these block edges sums exactly as the unsplit one. */
const KC = 256;

export interface GemmContext {
  heap: SharedHeap;
  wasm: {
    gemm: Gemm;
    runTask?: (kind: number, item: number, args: number, scratch: number) => void;
    /** Blocks and bytes of B packed whole (assembly/matmul.ts); absent from older modules: no shared packing. */
    packBlocks?: (K: number, N: number) => number;
    packedBBytes?: (K: number, N: number) => number;
    /** Bytes of a GEMM_BATCH table entry the module reads; absent from modules built before home ranges. */
    gemmBatchEntryBytes?: () => number;
    /**
     * 1 when the module runs each GEMM_BATCH entry's row epilogue right after its own rows, a chained entry's too
     * (assembly/train-tasks.ts); absent from older modules, which run the chain head's after the chain.
     */
    gemmBatchChainEpilogues?: () => number;
    /** 1 when GEMM_BATCH takes entries of task items (assembly/train-tasks.ts); absent from older modules. */
    gemmBatchTaskEntries?: () => number;
    /** Set when gemm is the native addon's (native.mjs): its bits differ from the WebAssembly gemm's. */
    native?: number;
    /** out[i] = x[i] + y[i], n floats (assembly/train.ts); absent from older modules. */
    addInto?: (out: number, x: number, y: number, n: number) => void;
    /** Rows r0..r1−1 of a row epilogue block (assembly/train-tasks.ts rowEpilogue); absent from older modules. */
    rowEpilogue?: (block: number, r0: number, r1: number) => void;
  };
  pool: ThreadPool | undefined;
  threads: number;
  mainScratch: number;
  recorder: KernelStatsRecorder;
  /** Problems with M·N·K below this run on the calling thread alone. */
  threshold: number;
  /** Fewest rows (or columns) in a chunk of a parallel matmul while each thread still gets one. */
  minChunk: number;
  /** With the native gemm: the fewest multiply-adds of a graded piece (gradeNative(); default NATIVE_TAIL_WORK). */
  nativeTailWork?: number;
}

/**
 * The three matmul shapes of api.ts on the WebAssembly gemm: split across the pool's threads by rows or columns
 * of the output, or (weight gradients with few output rows) over the depth, always with the unsplit gemm's bits.
 */
export function gemmKernel(ctx: GemmContext) {
  const { heap, wasm, pool, threads, mainScratch, recorder, threshold, minChunk } = ctx;
  const tailWork = NATIVE_TAIL_WORK === 0 ? 0 : (ctx.nativeTailWork ?? NATIVE_TAIL_WORK);
  // The K-split gemm's partial products, and the B operands packed whole, grown on demand and kept; the table
  // of a pooled job's GEMMs.
  let partials = { addr: 0, bytes: 0 };
  let packedB = { addr: 0, bytes: 0 };
  // One table entry per (GEMM, home range) with chunks: each thread's share of each product.
  const homes = pool?.homes ?? 1;
  // (a chained product has one entry of its own, after the home ranges' entries; a side task one a home)
  const cells = (BATCH + 1) * (homes + 1) * ENTRY;
  const table = heap.allocBytes(cells * 4);
  let tableView = new Int32Array(heap.memory.buffer, table, cells);
  // the row starts of graded products' chunks (grade())
  const startsAddr = heap.allocBytes(STARTS * 4);
  let startsView = new Int32Array(heap.memory.buffer, startsAddr, STARTS);
  let startsUsed = 0;
  const bounds = new Array<number>(homes + 1).fill(0);
  // GEMM_BATCH jobs only with a module that reads this table layout (a stale build/kernels.wasm splits each
  // product in its own job of plain row or column chunks instead)
  // (with the native gemm, GEMM_BATCH items run in JS on the addon's gemm (native.mjs), with no shared packing
  // of B, and GEMM_SPLIT_K not at all: inside the module they use the WebAssembly gemm, whose bits differ)
  const native = wasm.native !== undefined;
  const batches = !!wasm.runTask && (native || wasm.gemmBatchEntryBytes?.() === ENTRY * 4);
  const canPack = !native && !!wasm.packBlocks && !!wasm.packedBBytes && batches;
  // Whether a job's entries run their epilogues right after their own rows (chainRows(); native.mjs always does)
  const chainEpilogues = batches && (native || wasm.gemmBatchChainEpilogues?.() === 1);
  // Whether a job may hold a task's items beside its products (SideTask)
  const sideTasks = batches && wasm.gemmBatchTaskEntries?.() === 1;
  // the side task of the job being built (many()), its arguments in the heap
  const side = { task: undefined as SideTask | undefined, addr: heap.allocBytes(16 * 4) };
  // The products of the job being built (reused: no allocation per job).
  const parts: Part[] = Array.from({ length: BATCH }, () => ({
    cells: new Array<number>(14).fill(0),
    count: 0,
    packs: 0,
    packBytes: 0,
    chunkWork: 0,
    then: undefined,
    chained: false,
    epilogue: 0,
    startsAt: 0,
    graded: 0,
    homeChunks: new Array<number>(homes + 1).fill(0),
  }));
  const order: Part[] = [];
  // GEMM_BATCH's arguments: table, entries, pack items, then the deferred task's kind, arguments, items, then the
  // job's number (the native gemm's packings, nativeJobs; 0 with the WebAssembly gemm, which reads 6), then a
  // second deferred task's kind, arguments, items
  const jobArgs = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  // Work handed to the next GEMM job (defer()), up to two tasks (a row chain through two norms' backward): each
  // a task's items, its arguments in the heap (and as numbers, for a job of its own), the byte ranges it reads and
  // writes; `used` of them are waiting.
  const slot = () => ({
    kind: 0,
    addr: heap.allocBytes(16 * 4),
    args: [] as number[],
    count: 0,
    ranges: [] as number[],
  });
  const deferred = { slots: [slot(), slot()], used: 0 };
  // (modules before task entries read one deferred task; the native gemm's batches run in native.mjs)
  const deferSlots = native || wasm.gemmBatchTaskEntries?.() === 1 ? 2 : 1;
  // per product of the many() call in progress: whether the job runs its row epilogue
  const fusedNow: boolean[] = [];

  interface Part {
    /** The table entry's first 14 cells: c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, accumulate, byRows, size. */
    cells: number[];
    count: number;
    /** Blocks of B packed by the job's first items (0: each chunk packs its own) and their bytes. */
    packs: number;
    packBytes: number;
    /** Multiply-adds of one chunk: larger chunks are claimed first, so the last claims are the small ones. */
    chunkWork: number;
    /** Set by job(): where its packed B lies, its first table entry. */
    packAt?: number;
    entry?: number;
    /**
     * Set by job(): the earlier product of the job that packs the same B (same operand, strides and shape), whose
     * packing this one reads instead of packing it again (the three weight gradients of q, k, v all read h1).
     */
    packedBy?: Part;
    /** The product that adds into this one's output next, on the same row chunks (chain()). */
    then: Part | undefined;
    /** Whether this product runs on another's chunks (it has no chunks of its own). */
    chained: boolean;
    /** Its row epilogue block (0: none), run by each row chunk after the chunk and its chain (run()). */
    epilogue: number;
    /** Set by job(): the address of its chunks' row starts (0: `count` chunks of cells[13] rows; grade()). */
    startsAt: number;
    /** With startsAt: its chunks, and home h's first chunk (homeChunks[homes]: graded). */
    graded: number;
    homeChunks: number[];
  }

  /** Fills parts[n] for a pooled product (cut over the pool's threads); returns n + 1. */
  function addPart(
    n: number,
    shape: Shape,
    c: number,
    pa: number,
    pb: number,
    M: number,
    K: number,
    N: number,
    acc: number,
  ): number {
    const { rsa, csa, rsb, csb } = strides(shape, M, K, N);
    const { byRows, size, count, packed } = cut(M, N, K);
    const p = parts[n]!;
    const cells = p.cells;
    cells[0] = c;
    cells[1] = N;
    cells[2] = pa;
    cells[3] = rsa;
    cells[4] = csa;
    cells[5] = pb;
    cells[6] = rsb;
    cells[7] = csb;
    cells[8] = M;
    cells[9] = N;
    cells[10] = K;
    cells[11] = acc;
    cells[12] = byRows ? 1 : 0;
    cells[13] = size;
    p.count = count;
    p.packs = packed ? wasm.packBlocks!(K, N) : 0;
    p.packBytes = packed ? Math.ceil(wasm.packedBBytes!(K, N) / 16) * 16 : 0;
    p.chunkWork = size * (byRows ? N : M) * K;
    p.then = undefined;
    p.chained = false;
    p.epilogue = 0;
    return n + 1;
  }

  /**
   * Makes parts[n − 1] run on the row chunks of parts[first] (or of the last product chained to it), after it:
   * each chunk computes its rows of the first product, then adds the same rows of this one. Row by row that is
   * what the two products one after the other compute, so the same bits, in one hand-off instead of two.
   */
  function chain(first: number, n: number): void {
    const head = parts[first]!;
    let p = head;
    const q = parts[n - 1]!;
    let depth = head.cells[10]!;
    while (p.then) {
      p = p.then;
      depth += p.cells[10]!;
    }
    p.then = q;
    q.chained = true;
    depth += q.cells[10]!;
    // the chain's chunks cut as one product of the chain's total depth (as many chunks as its work asks for)
    const M = head.cells[8]!;
    const N = head.cells[9]!;
    const { size, count } = cut(M, N, depth);
    head.cells[13] = size;
    head.count = count;
    head.chunkWork = size * N * depth;
    for (let r = head.then; r; r = r.then) {
      r.cells[12] = 1;
      r.cells[13] = size;
      r.count = count;
    }
  }

  /**
   * Runs parts[0..n) as one pool job (assembly/train-tasks.ts GEMM_BATCH): first the blocks of each shared B
   * to pack (any thread), then the chunks, in one home range per thread (control.mjs): home h holds the h-th
   * share of every product's chunks (its rows), larger chunks first, so a thread computes the same rows of the
   * activations from one job to the next. Each chunk computes what the unsplit product computes for its rows
   * (columns), so the bits do not depend on the cut nor on the thread that ran it.
   */
  function job(n: number): void {
    order.length = 0;
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      if (!parts[i]!.chained) order.push(parts[i]!);
      bytes += parts[i]!.packBytes;
    }
    order.sort(largerFirst);
    // a product whose B an earlier one of the job packs already reads that packing (the same floats)
    for (let i = 0; i < n; i++) {
      const p = parts[i]!;
      p.packedBy = undefined;
      for (let j = 0; j < i && p.packs > 0; j++) {
        const q = parts[j]!;
        if (q.packs > 0 && !q.packedBy && samePackedB(p.cells, q.cells)) {
          p.packedBy = q;
          bytes -= p.packBytes;
          recorder.count("B packings shared in GEMM jobs", 1);
          break;
        }
      }
    }
    if (bytes > packedB.bytes) {
      if (packedB.bytes > 0) heap.freeBytes(packedB.addr);
      packedB = { addr: heap.allocBytes(bytes), bytes };
    }
    if (tableView.buffer !== heap.memory.buffer) {
      tableView = new Int32Array(heap.memory.buffer, table, cells);
      startsView = new Int32Array(heap.memory.buffer, startsAddr, STARTS);
    }
    startsUsed = 0;
    for (let i = 0; i < order.length; i++) {
      if (native) gradeNative(order[i]!, i === order.length - 1);
      else grade(order[i]!);
    }
    // where each product's packed B lies (0: none)
    let at = packedB.addr;
    let packBase = 0;
    for (let i = 0; i < n; i++) {
      const p = parts[i]!;
      p.entry = -1;
      if (p.packedBy) {
        p.packAt = p.packedBy.packAt;
        continue;
      }
      p.packAt = p.packs > 0 ? at : 0;
      at += p.packBytes;
      packBase += p.packs;
    }
    // Chained products first, one entry each with no chunks of its own (their pack items only), so that every
    // entry of the product before them can name theirs; then home h: the h-th share of each product's chunks.
    // A product's first entry in the table packs its B (its pack items numbered in table order, as the kernel
    // looks them up), the others wait for that entry's count.
    items = 0;
    entries = 0;
    packItems = 0;
    // (last in a chain first: each names the entry of the one after it)
    for (let i = n - 1; i >= 0; i--) if (parts[i]!.chained) write(parts[i]!, 0, 0);
    const task = side.task;
    for (let h = 0; h < homes; h++) {
      bounds[h] = packBase + items;
      // the side task's items of this home first (they read the rows this thread wrote last)
      if (task && task.bounds[h + 1]! > task.bounds[h]!)
        writeTask(task, task.bounds[h]!, task.bounds[h + 1]!);
      for (const p of order) {
        const c0 = p.startsAt !== 0 ? p.homeChunks[h]! : Math.floor((p.count * h) / homes);
        const c1 = p.startsAt !== 0 ? p.homeChunks[h + 1]! : Math.floor((p.count * (h + 1)) / homes);
        if (c1 > c0) write(p, c0, c1);
      }
    }
    bounds[homes] = packBase + items;
    // the entries of products reading another's packing wait for that product's pack items (its first entry's)
    for (let e = 0; e < entries; e++) {
      const owner = sharers[e];
      if (owner) tableView[e * ENTRY + 22] = table + (owner.entry! * ENTRY + 19) * 4;
    }
    // the deferred tasks' items first, any thread (they write nothing the products touch: overlaps())
    const [first, second] = deferred.slots as [Slot, Slot];
    const clash =
      !!task && deferred.slots.some((d, i) => i < deferred.used && rangesMeet(task.ranges, d.ranges));
    const joins = deferred.used > 0 && !clash && !overlaps(n);
    if (deferred.used > 0 && !joins) flush();
    const extra = joins ? first.count : 0;
    const extra2 = joins && deferred.used > 1 ? second.count : 0;
    for (let h = 0; h <= homes; h++) bounds[h]! += extra + extra2;
    jobArgs[0] = table;
    jobArgs[1] = entries;
    jobArgs[2] = packBase;
    jobArgs[3] = extra > 0 ? first.kind : 0;
    jobArgs[4] = extra > 0 ? first.addr : 0;
    jobArgs[5] = extra;
    jobArgs[6] = native ? (nativeJobs = (nativeJobs + 1) & 0x3fffffff || 1) : 0;
    jobArgs[7] = extra2 > 0 ? second.kind : 0;
    jobArgs[8] = extra2 > 0 ? second.addr : 0;
    jobArgs[9] = extra2;
    deferred.used = 0;
    const count = extra + extra2 + packBase + items;
    pool!.runTasks(wasm, TASK.GEMM_BATCH, jobArgs, count, mainScratch, bounds);
  }

  /** Whether a [start, end) byte range of a meets one of b. */
  function rangesMeet(a: readonly number[], b: readonly number[]): boolean {
    for (let i = 0; i < a.length; i += 2)
      for (let j = 0; j < b.length; j += 2) if (a[i]! < b[j + 1]! && b[j]! < a[i + 1]!) return true;
    return false;
  }

  /** Whether an output of parts[0..n) overlaps a byte range a deferred task reads or writes. */
  function overlaps(n: number): boolean {
    for (let k = 0; k < deferred.used; k++) {
      const r = deferred.slots[k]!.ranges;
      for (let i = 0; i < n; i++) {
        const p = parts[i]!;
        const c0 = p.cells[0]!;
        const c1 = c0 + 4 * ((p.cells[8]! - 1) * p.cells[1]! + p.cells[9]!);
        for (let j = 0; j < r.length; j += 2) if (c0 < r[j + 1]! && r[j]! < c1) return true;
      }
    }
    return false;
  }

  /** Whether a [start, end) byte range of `ranges` meets one a deferred task reads or writes. */
  function meetsDeferred(ranges: readonly number[]): boolean {
    for (let k = 0; k < deferred.used; k++) if (rangesMeet(ranges, deferred.slots[k]!.ranges)) return true;
    return false;
  }

  /**
   * Hands `count` items of task `kind` (arguments `args`) to the next GEMM job, which runs them before its
   * products, any thread (or to a job of their own: flush()); `ranges`: the [start, end) byte ranges the task
   * reads or writes, which no product of that job may write. RMSNorm's weight gradient goes this way, the dx
   * part done on the row chunks of the product that wrote dy (wasm.ts matmulThen): one hand-off less.
   */
  function defer(kind: number, args: readonly number[], count: number, ranges: readonly number[]): void {
    // (a task that reads or writes what a waiting one touches runs after it: that one first, in a job of its own)
    if (deferred.used === deferSlots || meetsDeferred(ranges)) flush();
    const d = deferred.slots[deferred.used++]!;
    new Int32Array(heap.memory.buffer, d.addr, 16).set(args);
    d.kind = kind;
    d.args = args.slice();
    d.count = count;
    d.ranges = ranges.slice();
  }

  /** Runs deferred work now, each task in a job of its own, in order (before any other kernel work). */
  function flush(): void {
    const used = deferred.used;
    deferred.used = 0;
    for (let k = 0; k < used; k++) {
      const d = deferred.slots[k]!;
      const t0 = recorder.start();
      if (pool && pool.ready) pool.runTasks(wasm, d.kind, d.args, d.count, mainScratch);
      else for (let i = 0; i < d.count; i++) wasm.runTask!(d.kind, i, d.addr, mainScratch);
      recorder.stop(d.kind, t0, true, !!pool && pool.ready);
    }
  }

  // The table being written by job(): its items, entries and pack items so far (no closure made per job), and
  // per entry the product whose packing of B it reads (undefined: its own).
  const sharers: (Part | undefined)[] = new Array<Part | undefined>((BATCH + 1) * (homes + 1)).fill(
    undefined,
  );
  let items = 0;
  let entries = 0;
  let packItems = 0;

  /**
   * Cuts the last row chunk of each home range of product p (and of the products chained to it), when it has
   * GRADE_ROWS rows or more, into halves of what is left (½, ¼, ⅛, … down to 8 rows), writing the chunks' row
   * starts for the kernel (p.startsAt): a thread that finishes its home early helps with the other's last, small
   * chunks, so the two end the job closer together. (Three pieces, ½ ¼ ¼, left the caller waiting 77 µs at the
   * end of each GEMM job on the Intel machine, whose 16 GFLOPS a thread make a 32-row piece of a 352-wide product
   * ~90 µs: the finer cut measured 0.7 % faster on 2 threads, issue 40.) Only row chunks over a B packed once for the job (a chunk costs its rows alone),
   * and never a chunk of fewer than 4 rows nor an edge off the 4-row tiles: the unsplit product's bits.
   */
  function grade(p: Part): void {
    p.startsAt = 0;
    if (native || homes < 2 || p.cells[12] !== 1 || (p.packs === 0 && !p.packedBy)) return;
    const need = p.count + 5 * homes + 1;
    if (startsUsed + need > STARTS) return;
    // at most 5 cuts a home (`need`): 136 rows -> 68, 32, 16, 8, 12; 32 -> 16, 8, 8
    layStarts(p, p.cells[8]!, (r0, r1, put) => {
      if (r1 - r0 < GRADE_ROWS) return;
      for (let s = r0, cuts = 0; cuts < 5 && r1 - s >= GRADE_ROWS / 2; cuts++) {
        s += Math.floor((r1 - s) / 8) * 4;
        put(s);
      }
    });
  }

  /**
   * Writes product p's chunk starts into the starts table, each home range's chunks in turn, where `cutLast` adds
   * the starts of pieces inside the last chunk [r0, r1) of each home range (grade(), gradeNative()).
   */
  function layStarts(
    p: Part,
    extent: number,
    cutLast: (r0: number, r1: number, put: (start: number) => void) => void,
  ): void {
    const size = p.cells[13]!;
    const at = startsUsed;
    let k = 0;
    const put = (start: number) => {
      startsView[at + k++] = start;
    };
    for (let h = 0; h < homes; h++) {
      const c0 = Math.floor((p.count * h) / homes);
      const c1 = Math.floor((p.count * (h + 1)) / homes);
      p.homeChunks[h] = k;
      for (let c = c0; c < c1; c++) {
        const r0 = c * size;
        put(r0);
        if (c === c1 - 1) cutLast(r0, c === p.count - 1 ? extent : r0 + size, put);
      }
    }
    p.homeChunks[homes] = k;
    startsView[at + k] = extent;
    p.graded = k;
    p.startsAt = startsAddr + at * 4;
    startsUsed += k + 1;
    if (k > p.count) recorder.count("GEMMs with graded row chunks", 1);
  }

  /**
   * With the native gemm: cuts the last chunk of each home range of the job's last product (the smallest chunks,
   * `order`; with the products chained to it) into halves of what is left, each of `tailWork` multiply-adds
   * or more and on the tile's edges, so the thread that finishes its home first helps with small pieces: with
   * whole chunks of 90-500 µs the caller waited for the helper 2.5 ms a step in the 16 forward GEMM jobs and the
   * threads idled 7.3 ms (issue 40). Rows or columns: a piece packs none of the operand all chunks share (the
   * job's packing of it, native/gemm.cc packedWhole), and the native gemm's bits do not depend on the cut.
   */
  function gradeNative(p: Part, last: boolean): void {
    p.startsAt = 0;
    if (!last || homes < 2 || tailWork <= 0) return;
    const byRows = p.cells[12] === 1;
    const extent = byRows ? p.cells[8]! : p.cells[9]!;
    const size = p.cells[13]!;
    const unit = byRows ? NATIVE_ROWS : NATIVE_COLUMNS;
    const least = Math.max(unit, Math.ceil(tailWork / (p.chunkWork / size) / unit) * unit);
    const need = p.count + 6 * homes + 1;
    if (startsUsed + need > STARTS) return;
    // at most 6 cuts a home (`need`): 268 rows of the gate/up chain -> 128, 64, 32, 16, 28
    layStarts(p, extent, (r0, r1, put) => {
      for (let s = r0, cuts = 0; cuts < 6 && r1 - s >= 2 * least; cuts++) {
        s += Math.max(least, Math.floor((r1 - s) / 2 / unit) * unit);
        put(s);
      }
    });
  }

  /** Writes table entry `entries` for items i0..i1−1 of side task `task`, `task.group` a chunk (job()). */
  function writeTask(task: SideTask, i0: number, i1: number): void {
    const o = entries * ENTRY;
    const chunks = Math.ceil((i1 - i0) / task.group);
    sharers[entries] = undefined;
    tableView.fill(0, o, o + ENTRY);
    tableView[o] = task.kind;
    tableView[o + 2] = side.addr;
    tableView[o + 12] = TASK_ENTRY;
    tableView[o + 13] = task.group;
    tableView[o + 14] = items;
    tableView[o + 15] = chunks;
    tableView[o + 17] = packItems;
    tableView[o + 20] = i0;
    tableView[o + 21] = i1;
    items += chunks;
    entries++;
  }

  /** Writes table entry `entries` for chunks c0..c1−1 of product p (job()). */
  function write(p: Part, c0: number, c1: number): void {
    const o = entries * ENTRY;
    // (a product reading another's packing packs nothing: it counts as an entry that is not its first)
    const first = p.entry! < 0 && !p.packedBy;
    if (p.entry! < 0) p.entry = entries;
    sharers[entries] = p.packedBy;
    for (let j = 0; j < 14; j++) tableView[o + j] = p.cells[j]!;
    tableView[o + 14] = items;
    tableView[o + 15] = c1 - c0;
    tableView[o + 16] = p.packAt!;
    tableView[o + 17] = packItems;
    tableView[o + 18] = first ? p.packs : 0;
    tableView[o + 19] = 0;
    tableView[o + 20] = c0;
    tableView[o + 21] = p.startsAt !== 0 ? p.graded : p.count;
    tableView[o + 22] = table + (p.entry! * ENTRY + 19) * 4; // (job() points a sharer's at its owner's)
    tableView[o + 23] = p.packs;
    tableView[o + 24] = p.then ? table + p.then.entry! * ENTRY * 4 : 0;
    tableView[o + 25] = p.epilogue;
    tableView[o + 26] = p.chained ? 0 : p.startsAt;
    if (first) packItems += p.packs;
    items += c1 - c0;
    entries++;
  }

  /**
   * How a pooled gemm is cut: by rows or columns of the output, chunks of `size`, `count` of them; `packed`:
   * its row chunks share one packing of B (packed once by the job's first items) instead of each packing it.
   */
  function cut(M: number, N: number, K: number) {
    // Chunks of about CHUNK_WORK each (1 to 8 per thread): enough for the threads to balance on a busy machine.
    const want = Math.max(2, threads, Math.min(8 * threads, Math.round((M * N * K) / CHUNK_WORK)));
    // By rows when the output is taller than wide, and also when the rows can share one packing of B and still
    // come 8 or more to a chunk: a column chunk packs all of A (four copies of each value, assembly/matmul.ts
    // packA), which for the down projection's weight gradient (128 × 352 over 1,059 tokens) cost more than each
    // row chunk reading the shared B: 2 threads 79-80 -> 83-85 GFLOPS (issue 40)
    const byRows = M >= N || N < 16 || (canPack && M >= 8 * want);
    const extent = byRows ? M : N;
    // the micro-tile, so chunk edges fall on tile edges
    const unit = native ? (byRows ? NATIVE_ROWS : NATIVE_COLUMNS) : byRows ? 4 : 8;
    if (native) {
      // A few chunks per thread (its home range), each of NATIVE_PIECE rows (columns) or more: the native gemm
      // computes a stage product in 0.1-0.6 ms, and 8 chunks of 25 us each, every one re-packing B, scaled
      // 1.2-1.5x on 2 threads, 2 chunks 1.5-1.8x; but with one chunk a thread, the caller waited for the helper
      // 5.4 ms a step in the 16 forward GEMM jobs and 3.6 ms in the LM head's forward (issue 40): with two or
      // three, the thread that finishes its home first takes the other's last chunk
      const pieces = Math.max(1, Math.min(NATIVE_PIECES, Math.floor(extent / threads / NATIVE_PIECE)));
      const size = Math.ceil(extent / (threads * pieces) / unit) * unit;
      return { byRows, extent, size, count: chunkCount(extent, size), packed: false };
    }
    const even = Math.ceil(extent / want / unit) * unit;
    if (byRows && canPack && Math.ceil(extent / even) > 1) {
      // B is packed once for all chunks, so a chunk does not pack it again; but it reads all of it (K × N) for
      // its rows, so a chunk gets PACKED_ROWS rows or more (while each thread still gets one): the weight
      // gradients' 8-16-row chunks (dyᵀ·x over 1,059 tokens) read B once per 8 rows, and scaled 1.71x on 2
      // threads against 1.85-1.96x for the products cut into 68-136-row chunks (issue 40)
      const size = Math.max(even, Math.min(PACKED_ROWS, Math.ceil(extent / threads / unit) * unit));
      const count = chunkCount(extent, size);
      return { byRows, extent, size, count, packed: count > 1 };
    }
    // Every chunk packs the whole shared operand (K × the other extent): a chunk of fewer than `minChunk`
    // rows (columns) would spend a large share of its time re-packing it. At least one chunk per thread.
    const floor = Math.min(minChunk, Math.ceil(extent / threads / unit) * unit);
    const size = Math.max(floor, even);
    return { byRows, extent, size, count: chunkCount(extent, size), packed: false };
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
   * run one by one. With `task` (SideTask), its items join the job too when they can; returns whether they ran
   * (else the caller runs them: the products are computed either way).
   */
  function many(
    list: readonly MatmulCall[],
    blocks?: readonly number[],
    after?: readonly number[],
    task?: SideTask,
  ): boolean {
    const least = task && sideTasks ? 1 : 2;
    if (!pool || !pool.ready || !batches || list.length < least || list.length > BATCH) {
      each(list, blocks);
      return false;
    }
    for (const m of list) {
      checkOperands(m.shape, m.out, m.a, m.b, m.M, m.K, m.N);
      const { M, K, N } = m;
      const eligible = M * N * K >= threshold && (M >= 8 || N >= 16);
      const inHeap = heap.addressOf(m.out) >= 0 && heap.addressOf(m.a) >= 0 && heap.addressOf(m.b) >= 0;
      if (!inHeap || !eligible || M === 0 || N === 0) {
        each(list, blocks);
        return false;
      }
    }
    // which products' row epilogues the job runs (on row chunks); the others' run on this thread at the end
    fusedNow.length = 0;
    // Each product: split over its depth (a job of its own, before the others), in the job (its own chunks, or
    // chained to the earlier product whose output it adds into, or whose rows its epilogue also reads: after[i]),
    // or after the job (it adds into an earlier product's output and cannot share its row chunks), in list order
    const batched: MatmulCall[] = [];
    const later: MatmulCall[] = [];
    let n = 0;
    for (let i = 0; i < list.length; i++) {
      const m = list[i]!;
      fusedNow.push(false);
      const c = heap.addressOf(m.out);
      const { extent, packed } = cut(m.M, m.N, m.K);
      const same = batched.findIndex((x) => heap.addressOf(x.out) === c);
      const sibling = (after?.[i] ?? -1) >= 0 ? batched.indexOf(list[after![i]!]!) : -1;
      const first =
        same >= 0 ? same : sibling >= 0 && siblingFits(sibling, batched[sibling]!, m) ? sibling : -1;
      const deep = nativeDepthPieces(m.M, m.K, m.N) > 1;
      // (a product in depth pieces never joins the job: nativeDepthPieces())
      if (later.some((x) => heap.addressOf(x.out) === c) || (deep && same >= 0)) later.push(m);
      else if (deep || (first < 0 && m.shape === "AtB" && !packed && splitK(m.M, m.K, extent))) one(m, 0);
      else if (same >= 0 && !chainable(batched[same]!, parts[same]!, m)) {
        later.push(m);
        // (the epilogue of the product it adds into then runs after it, at the end)
        const head = list.indexOf(batched[same]!);
        if (fusedNow[head]) {
          fusedNow[head] = false;
          parts[same]!.epilogue = 0;
        }
      } else {
        n = addPart(
          n,
          m.shape,
          c,
          heap.addressOf(m.a),
          heap.addressOf(m.b),
          m.M,
          m.K,
          m.N,
          m.accumulate ? 1 : 0,
        );
        batched.push(m);
        if (first >= 0) chain(first, n);
        // the epilogue on the chain's head (it runs once the chunk's chain is done), when cut by rows
        const head = parts[first >= 0 ? first : n - 1]!;
        const block = blocks?.[i] ?? 0;
        const own = (after?.[i] ?? -1) < 0 ? first < 0 : first === sibling && sibling >= 0;
        if (block !== 0 && own && head.epilogue === 0 && head.cells[12] === 1) {
          head.epilogue = block;
          fusedNow[i] = true;
        }
      }
    }
    const t0 = recorder.start();
    const joined = !!task && sideTasks && n >= 1;
    if (n >= 2 || joined) {
      if (chainEpilogues) epiloguesToTails(n);
      if (joined) {
        new Int32Array(heap.memory.buffer, side.addr, 16).set(task.args);
        side.task = task;
      }
      try {
        job(n);
      } finally {
        side.task = undefined;
      }
      let total = 0;
      for (const m of batched) total += m.M * m.N * m.K;
      // (the job is timed whole: the side task's share an estimate, SideTask part)
      const gemmPart = joined ? 1 - task.part : 1;
      for (const m of batched)
        recorder.stopGemm(m.shape, t0, true, true, (gemmPart * (m.M * m.N * m.K)) / total);
      if (joined) {
        recorder.stop(task.kind, t0, true, true, task.part);
        recorder.count("tasks in GEMM jobs", 1);
      }
      recorder.count("GEMMs in batches", batched.length);
      let fused = 0;
      for (const f of fusedNow) if (f) fused++;
      if (fused > 0) recorder.count("row epilogues in GEMM jobs", fused);
    } else {
      for (const m of batched) one(m, 0);
      fusedNow.fill(false);
    }
    for (const m of later) one(m, 0);
    // the other epilogues, over all rows, once every product is done (in list order)
    const t1 = recorder.start();
    let ran = false;
    for (let i = 0; i < list.length; i++) {
      const block = blocks?.[i] ?? 0;
      if (block !== 0 && !fusedNow[i]) {
        wasm.rowEpilogue!(block, 0, list[i]!.M);
        ran = true;
      }
    }
    if (ran) recorder.stopGemm(list[0]!.shape, t1, true, false);
    return joined;
  }

  /**
   * With a module that runs each entry's epilogue right after its rows (chainEpilogues): moves the epilogue
   * many() put on a chain's head to the chain's last product, so it still runs once the whole chain has written
   * the rows (dh = dg·Wg, dh += du·Wu, then RMSNorm's backward on dh).
   */
  function epiloguesToTails(n: number): void {
    for (let i = 0; i < n; i++) {
      const p = parts[i]!;
      if (p.chained || !p.then || p.epilogue === 0) continue;
      let tail = p.then;
      while (tail.then) tail = tail.then;
      tail.epilogue = p.epilogue;
      p.epilogue = 0;
    }
  }

  /**
   * Products over the same M rows, each reading only the rows earlier ones (and their row epilogues) wrote, as one
   * pool job: each row chunk computes product 0 on its rows, then epilogue blocks[0] (0: none), then product 1,
   * and so on (a layer's o, gate, up, down with the residual adds, norms and SwiGLU between them: wasm.ts
   * matmulChain). Row by row that is what the products and epilogues one after the other over all rows compute,
   * so the same bits, in one hand-off instead of one per product. Returns false, having computed nothing, when
   * it cannot (no pool, an older module, a weight gradient, rows that differ, an array outside the heap, a product
   * the native gemm cuts over its depth, or a cut by columns). `beside`: products that join the job with chunks of
   * their own (matmulMany's), which read nothing the chain writes and write nothing it reads (the q, k, v weight
   * gradients beside the backward's chain from them to the layer below's o).
   */
  function chainRows(
    list: readonly MatmulCall[],
    blocks: readonly number[],
    writes: readonly number[] = [],
    beside: readonly MatmulCall[] = [],
  ): boolean {
    if (!pool || !pool.ready || !chainEpilogues || list.length < 2) return false;
    if (list.length + beside.length > BATCH) return false;
    // products beside the chain, each cut on its own (weight gradients that read whole columns): each must go
    // to the pool in the job, not over its depth in jobs of their own
    for (const m of beside) {
      checkOperands(m.shape, m.out, m.a, m.b, m.M, m.K, m.N);
      if (heap.addressOf(m.out) < 0 || heap.addressOf(m.a) < 0 || heap.addressOf(m.b) < 0) return false;
      const eligible = m.M * m.N * m.K >= threshold && (m.M >= 8 || m.N >= 16);
      const { extent, packed } = cut(m.M, m.N, m.K);
      if (!eligible || nativeDepthPieces(m.M, m.K, m.N) > 1) return false;
      if (m.shape === "AtB" && !packed && splitK(m.M, m.K, extent)) return false;
    }
    const M = list[0]!.M;
    let work = 0;
    for (const m of list) {
      checkOperands(m.shape, m.out, m.a, m.b, m.M, m.K, m.N);
      if (m.shape === "AtB" || m.M !== M || m.N === 0 || m.K === 0) return false;
      if (heap.addressOf(m.out) < 0 || heap.addressOf(m.a) < 0 || heap.addressOf(m.b) < 0) return false;
      if (nativeDepthPieces(m.M, m.K, m.N) > 1) return false;
      work += m.N * m.K;
    }
    const N0 = list[0]!.N;
    // one cut for the chain, as one product of the chain's work a row
    const { byRows, size, count } = cut(M, N0, Math.max(1, Math.round(work / N0)));
    if (!byRows || M < 8 || M * work < threshold) return false;
    // deferred work joins the job unless the epilogues write what it touches (job(): or the products): then first
    if (meetsDeferred(writes)) flush();
    let n = 0;
    for (let i = 0; i < list.length; i++) {
      const m = list[i]!;
      n = addPart(
        n,
        m.shape,
        heap.addressOf(m.out),
        heap.addressOf(m.a),
        heap.addressOf(m.b),
        m.M,
        m.K,
        m.N,
        m.accumulate ? 1 : 0,
      );
      const p = parts[i]!;
      p.cells[12] = 1;
      p.cells[13] = size;
      p.count = count;
      p.epilogue = blocks[i] ?? 0;
      // every row chunk reads the whole B: packed once for the job (its first items) when the module can
      const packed = canPack && count > 1;
      p.packs = packed ? wasm.packBlocks!(m.K, m.N) : 0;
      p.packBytes = packed ? Math.ceil(wasm.packedBBytes!(m.K, m.N) / 16) * 16 : 0;
      if (i > 0) {
        parts[i - 1]!.then = p;
        p.chained = true;
      }
    }
    parts[0]!.chunkWork = size * work;
    let total = M * work;
    for (const m of beside) {
      const at = [heap.addressOf(m.out), heap.addressOf(m.a), heap.addressOf(m.b)] as const;
      n = addPart(n, m.shape, at[0], at[1], at[2], m.M, m.K, m.N, m.accumulate ? 1 : 0);
      total += m.M * m.N * m.K;
    }
    const t0 = recorder.start();
    job(n);
    for (const m of list) recorder.stopGemm(m.shape, t0, true, true, (m.M * m.N * m.K) / total);
    for (const m of beside) recorder.stopGemm(m.shape, t0, true, true, (m.M * m.N * m.K) / total);
    recorder.count("GEMMs in row chains", list.length);
    if (beside.length > 0) recorder.count("GEMMs beside row chains", beside.length);
    const fused = blocks.filter((b) => b !== 0).length;
    if (fused > 0) recorder.count("row epilogues in GEMM jobs", fused);
    return true;
  }

  /**
   * Whether product m can run on the row chunks of product f (parts[k]) after them, writing its own output
   * (row by row, what the two compute one after the other: the same bits).
   */
  function siblingFits(k: number, f: MatmulCall, m: MatmulCall): boolean {
    const p = parts[k]!;
    return p.cells[12] === 1 && !p.chained && f.M === m.M && f.N === m.N;
  }

  /**
   * The products one by one, in list order, each with its row epilogue (blocks[i], 0: none): right after it, or
   * after them all when a later product adds into its output.
   */
  function each(list: readonly MatmulCall[], blocks?: readonly number[]): void {
    let last = false;
    for (let i = 0; i < list.length; i++) {
      const shared = !!blocks?.[i] && list.some((o, j) => j > i && o.out === list[i]!.out);
      last ||= shared;
      one(list[i]!, shared ? 0 : (blocks?.[i] ?? 0));
    }
    for (let i = 0; last && i < list.length; i++) {
      if (blocks?.[i] && list.some((o, j) => j > i && o.out === list[i]!.out))
        wasm.rowEpilogue!(blocks[i]!, 0, list[i]!.M);
    }
  }

  function one(m: MatmulCall, block: number): void {
    run(m.shape, m.out, m.a, m.b, m.M, m.K, m.N, m.accumulate ?? false, block);
  }

  /** Whether product m, adding into the output of product f (part p), can run on f's row chunks (chain()). */
  function chainable(f: MatmulCall, p: Part, m: MatmulCall): boolean {
    return !!m.accumulate && p.cells[12] === 1 && f.M === m.M && f.N === m.N;
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

  /**
   * One product; then its row epilogue `block` (0: none; assembly/train-tasks.ts rowEpilogue): in the pooled job
   * on each row chunk right after it, else on this thread over all rows afterwards (the same bits).
   */
  function run(
    shape: Shape,
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    M: number,
    K: number,
    N: number,
    accumulate: boolean,
    block = 0,
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
      const { byRows, extent, size, count, packed } = cut(M, N, K);
      const pieces = nativeDepthPieces(M, K, N);
      // (deferred work joins a GEMM_BATCH job, else runs first)
      if (!(shared && batches) || pieces > 1 || (shape === "AtB" && !packed && splitK(M, K, extent))) flush();
      if (pieces > 1) {
        depthPieces(shared, { c, pa, rsa, csa, pb, rsb, csb }, M, K, N, acc, pieces);
      } else if (shared && shape === "AtB" && !packed && splitK(M, K, extent)) {
        splitDepth(c, pa, pb, M, K, N, acc);
      } else if (shared && batches) {
        const n = addPart(0, shape, c, pa, pb, M, K, N, acc);
        if (byRows) parts[0]!.epilogue = block;
        job(n);
        if (byRows && block !== 0) {
          recorder.count("row epilogues in GEMM jobs", 1);
          block = 0;
        }
      } else if (shared) {
        pool!.run(wasm, [c, N, pa, rsa, csa, pb, rsb, csb, M, N, K, acc], byRows, size, count, mainScratch);
      } else {
        wasm.gemm(c, N, pa, rsa, csa, pb, rsb, csb, M, N, K, acc, mainScratch);
      }
      if (heap.addressOf(out) < 0) out.set(heap.view(c, M * N));
      if (block !== 0) wasm.rowEpilogue!(block, 0, M);
    } finally {
      for (const tmp of temps) heap.freeBytes(tmp);
    }
    recorder.stopGemm(shape, t0, eligible, shared);
  }

  /** Makes the partial-results buffer (depthPieces(), splitDepth()) at least `bytes` long. */
  function growPartials(bytes: number): void {
    if (bytes <= partials.bytes) return;
    if (partials.bytes > 0) heap.freeBytes(partials.addr);
    partials = { addr: heap.allocBytes(bytes), bytes };
  }

  /** C += partial 1, partial 2, … (`count` of `cells` floats each) in order, element ranges on the pool. */
  function sumPartialsPooled(c: number, count: number, cells: number): void {
    const { chunk, count: jobs } = slicing(cells, threads);
    pool!.runTasks(wasm, TASK.SUM_PARTIALS, [c, partials.addr, count, cells, chunk], jobs, mainScratch);
  }

  /**
   * With the native gemm, the pieces of depth NATIVE_DEPTH_PIECE (the last: what is left) a product is computed
   * in when its depth is at least 4 pieces and 8 times its output's height and width (the LM head's dy·W: 611 ×
   * 128 over 8,392); 0: not split. Split by rows, each thread streamed all of W and packed it again for each of
   * its graded pieces: the product took 1.71× its one-thread time in busy work on 2 threads (issue 40). The
   * pieces depend on the shape alone, never on the thread count, and are summed in order (depthPieces()), so
   * 1, 2 and 3 threads give the same bits (not the unsplit product's: each piece is its own fma chain).
   */
  function nativeDepthPieces(M: number, K: number, N: number): number {
    const piece = NATIVE_DEPTH_PIECE;
    if (!native || !wasm.addInto || piece === 0 || K < 4 * piece || K < 8 * Math.max(M, N)) return 0;
    return Math.ceil(K / piece);
  }

  /**
   * C (+)= A·B in `pieces` depth pieces (nativeDepthPieces()): piece 0 into C (accumulating as asked), piece q > 0
   * into partial q − 1, then C += partial 1, partial 2, … in order, element by element. On the pool (`pooled`)
   * the pieces are a GEMM_SPLIT_K job (native.mjs depthPiece) and the sum a SUM_PARTIALS job, else both run
   * here: the same operations whichever thread runs them. `gemm`: C (row stride N), A, B and their strides.
   */
  function depthPieces(
    pooled: boolean,
    gemm: { c: number; pa: number; rsa: number; csa: number; pb: number; rsb: number; csb: number },
    M: number,
    K: number,
    N: number,
    acc: number,
    pieces: number,
  ): void {
    const { c, pa, rsa, csa, pb, rsb, csb } = gemm;
    const piece = NATIVE_DEPTH_PIECE;
    growPartials(4 * (pieces - 1) * M * N);
    if (pooled) {
      const args = [c, N, pa, rsa, csa, pb, rsb, csb, M, N, K, acc, partials.addr, piece, M, 1];
      pool!.runTasks(wasm, TASK.GEMM_SPLIT_K, args, pieces, mainScratch);
      sumPartialsPooled(c, pieces - 1, M * N);
      recorder.count("GEMMs in depth pieces", 1);
      return;
    }
    for (let q = 0; q < pieces; q++) {
      const k0 = q * piece;
      const dst = q === 0 ? c : partials.addr + 4 * (q - 1) * M * N;
      wasm.gemm(
        dst,
        N,
        pa + 4 * k0 * csa,
        rsa,
        csa,
        pb + 4 * k0 * rsb,
        rsb,
        csb,
        M,
        N,
        Math.min(piece, K - k0),
        q === 0 ? acc : 0,
        mainScratch,
      );
    }
    for (let q = 1; q < pieces; q++) wasm.addInto!(c, c, partials.addr + 4 * (q - 1) * M * N, M * N);
  }

  /**
   * Whether a weight gradient dyᵀ·x (AtB, depth K = tokens) is better split over its depth: when splitting its
   * `extent` output columns would leave a thread fewer than `minChunk` of them, each re-packing all K tokens of
   * the other operand (row chunks share one packing instead, cut()).
   */
  function splitK(M: number, K: number, extent: number): boolean {
    return !native && K >= 2 * KC && M >= 8 && extent < minChunk * threads;
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
    growPartials(4 * (kBlocks - 1) * M * N);
    const args = [c, N, pa, 1, M, pb, N, 1, M, N, K, acc, partials.addr, KC, rowChunk, rowBlocks];
    pool!.runTasks(wasm, TASK.GEMM_SPLIT_K, args, kBlocks * rowBlocks, mainScratch);
    if (kBlocks === 1) return;
    sumPartialsPooled(c, kBlocks - 1, M * N);
  }

  return { run, many, chainRows, defer, flush };
}

/** Whether two table entries' B operands pack to the same floats: the same address, strides, depth and width. */
function samePackedB(p: readonly number[], q: readonly number[]): boolean {
  return p[5] === q[5] && p[6] === q[6] && p[7] === q[7] && p[9] === q[9] && p[10] === q[10];
}

type Slot = { kind: number; addr: number; args: number[]; count: number; ranges: number[] };

function largerFirst(x: { chunkWork: number }, y: { chunkWork: number }): number {
  return y.chunkWork - x.chunkWork;
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
  // (no closures here: a step makes ~100 calls, and under tsx each closure made costs a named definition)
  if (badSize(M) || badSize(K) || badSize(N)) {
    const [name, v] = badSize(M) ? ["M", M] : badSize(K) ? ["K", K] : ["N", N];
    throw new RangeError(`matmul${shape}: ${name} must be a non-negative integer, got ${v}`);
  }
  if (out.length < M * N) throw short(shape, "out", out, M * N);
  if (a.length < M * K) throw short(shape, "a", a, M * K);
  if (b.length < K * N) throw short(shape, "b", b, K * N);
}

function badSize(v: number): boolean {
  return !Number.isInteger(v) || v < 0;
}

function short(shape: Shape, name: string, array: Float32Array, length: number): RangeError {
  return new RangeError(`matmul${shape}: ${name} has ${array.length} elements, needs ${length}`);
}
