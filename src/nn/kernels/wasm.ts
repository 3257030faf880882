import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MatmulCall, MatmulKernels, RowWork } from "./api.ts";
import { availableParallelism } from "node:os";
import { ThreadPool } from "./thread-pool.ts";
import { SharedHeap } from "./shared-heap.ts";
import { CTL, evenBounds, TASK } from "./control.mjs";
import { wasmApi } from "./webassembly.ts";
import { f32Arg, normBackwardJob, POOL_FLOATS, trainingOps, type TaskRunner } from "./wasm-train.ts";
import { gemmKernel } from "./wasm-gemm.ts";
import { KernelStatsRecorder, type KernelStats } from "./stats.ts";
import { swigluBackward, swigluForward } from "../layers/swiglu.ts";
import { causalBlocks } from "../layers/attention.ts";
import { ToolgenError } from "../../errors.ts";
import { adviseHugePages, loadNative, withNativeGemm } from "./native.mjs";

/** Floats of one (sequence, head)'s attention probabilities (layers/attention.ts block layout). */
function causalSpan(L: number): number {
  return causalBlocks(L).span;
}

/** Where `npm run build:wasm` writes the module (build/ at the repository root). */
export const DEFAULT_WASM_PATH = fileURLToPath(new URL("../../../build/kernels.wasm", import.meta.url));

export interface WasmKernelOptions {
  /** Path of the compiled module; defaults to build/kernels.wasm. */
  wasmPath?: string;
  /** Threads that compute a large matmul: the caller plus threads − 1 helper workers. Default: the
   * available cores, at most 8. */
  threads?: number;
  /** Problems with M·N·K below this run on the caller thread alone (waking the helper costs ~tens of µs). */
  parallelThreshold?: number;
  /** Fewest rows (or columns) in a chunk of a parallel matmul while each thread still gets one (default 64). */
  minChunk?: number;
  /** Largest size of the shared heap (default and most: 4096 MiB, the wasm32 limit). */
  maxHeapMiB?: number;
  /**
   * Milliseconds each helper thread waits before taking jobs (default 0). For tests: until the helpers are up the
   * caller computes everything alone, and the bits must not depend on when they arrive.
   */
  helperStartDelayMs?: number;
  /**
   * Matrix products on the native addon (native/gemm.cc, `npm run build:native`) instead of the WebAssembly gemm
   * (TOOLGEN_KERNELS=native): opt-in and experimental, other bits than the default (still the same on any number
   * of threads). When the addon is missing or cannot load, one warning line and the WebAssembly gemm.
   */
  native?: boolean;
  /**
   * With `native`: the fewest multiply-adds of a graded piece of a pooled product's last chunks (default 2^20;
   * 0: none; kernels/wasm-gemm.ts gradeNative). Tests set it low, so small products are cut in graded pieces too.
   */
  nativeTailWork?: number;
  /**
   * Query rows per sub-block of the attention's products (default 16; 0: each 64-row query block whole): a
   * sub-block multiplies only the keys its queries attend to, skipping the masked part (the same bits).
   */
  attentionSubRows?: number;
}

export interface WasmKernels extends MatmulKernels {
  /** Starts (or with no argument stops) adding each kernel call's time to `stats` (bench/engine.ts). */
  collectStats(stats?: KernelStats): void;
  readonly heap: SharedHeap;
  /** True once the helper threads are up, so large matmuls are split across the threads. */
  readonly parallel: boolean;
  /** Returns an array from alloc() to the heap; the array must not be used afterwards. */
  free(array: Float32Array): void;
  swigluForward: NonNullable<MatmulKernels["swigluForward"]>;
  swigluBackward: NonNullable<MatmulKernels["swigluBackward"]>;
  adamw: NonNullable<MatmulKernels["adamw"]>;
  rmsnormForward: NonNullable<MatmulKernels["rmsnormForward"]>;
  rmsnormBackward: NonNullable<MatmulKernels["rmsnormBackward"]>;
  /** Stops the helper threads (optional: they never keep the process alive). */
  close(): Promise<void>;
}

interface GemmExports {
  gemm(...args: number[]): void;
  scratchBytes(): number;
  swigluForward(a: number, g: number, u: number, n: number): void;
  swigluBackward(dg: number, du: number, da: number, g: number, u: number, n: number): void;
  adamw(p: number, g: number, m: number, v: number, n: number, ...scalars: number[]): void;
  attentionForward(...args: number[]): void;
  rmsnormForward(...args: number[]): void;
  rmsnormBackward(...args: number[]): void;
  attentionBackward(...args: number[]): void;
  /** Absent from modules built before the pooled tasks (assembly/tasks.ts): then everything stays serial. */
  runTask?(kind: number, item: number, args: number, scratch: number): void;
  addInto?(out: number, x: number, y: number, n: number): void;
  /** Present in modules whose ADAMW task takes the gradient clipping scale (assembly/elementwise.ts). */
  adamwScaled?(...args: number[]): void;
  /** Present in modules whose ADAMW task zeroes the gradients it read, with GATHER_ROWS and SCATTER_ROWS. */
  adamwZeroes?(): number;
  /** Present in modules whose SwiGLU tasks keep and read σ(g) (assembly/elementwise.ts). */
  swigluForwardKeep?(...args: number[]): void;
  /** Present in modules with the ROPE_ROWS task, whose attention takes a row stride (assembly/attention.ts). */
  ropeRows?(...args: number[]): void;
  /** Present in modules whose attention backward takes RoPE's backward (assembly/tasks.ts, heads.ts). */
  ropeHeadRows?(...args: number[]): void;
  /** Present in modules whose GEMM_BATCH entries carry a row epilogue (assembly/train-tasks.ts rowEpilogue). */
  rowEpilogue?(block: number, r0: number, r1: number): void;
  /** 1 when NORM_BACKWARD_DX reads cell 7, the gradient to add to (assembly/train-tasks.ts); absent before. */
  normBackwardFrom?(): number;
}

/** Row epilogue kinds and i32 cells per block (assembly/train-tasks.ts rowEpilogue). */
const EPILOGUE = {
  RESIDUAL: 1,
  ROPE: 2,
  SWIGLU: 3,
  SWIGLU_BACKWARD: 4,
  NORM_BACKWARD_DX: 5,
  CELLS: 16,
} as const;

/** Most products of a matmulThen or matmulChain call with row work (wasm-gemm.ts BATCH). */
const EPILOGUES = 12;
/** Longest sequence the pooled attention backward takes (assembly/tasks.ts ATTENTION_MAX_L). */
const ATTENTION_MAX_L = 2048;
/** Most items in one pool job (the chunk counter has 16 bits). */
const MAX_ITEMS = 0xffff;
/**
 * Query rows of an attention product's sub-blocks (assembly/attention.ts): on the retrieval stage's packed
 * samples (15–55 tokens, one 64-row query block each) the forward took 12–15 % less time per layer and the
 * backward 20–30 % less with 8 or 16 than with whole blocks (issue 40); 16 makes fewer calls on long samples.
 */
const ATTENTION_SUB_ROWS = 16;
/**
 * A task job with at least this many items per home range claims them several at a time: a claim takes
 * 1/CLAIM_GUIDE of what is left of its range (control.mjs claimSize). Attention's 128 (sequence, head) items
 * of 5-10 us each on the retrieval stage paid the shared claim and completion counters, whose cache lines
 * the two cores pass back and forth, once per item (issue 40).
 */
const SMALL_ITEMS = 8;
const CLAIM_GUIDE = 4;
/**
 * The attention backward beside a layer's weight gradients (attentionBackwardWith): about this many claims a
 * home, each of several (sequence, head) items.
 */
const ATTENTION_CLAIMS = 8;
/**
 * What one multiply-add of the attention backward's small products (assembly/attention.ts) costs against one of
 * a weight gradient's, for the kernel statistics' split of the one job that runs both (attentionPart): on the
 * retrieval stage's 4 layers on one thread, 7.5 ms for the attention backward against 19.9 ms for the weight
 * gradients (AMD EPYC VM, native gemm, issue 40).
 */
const ATTENTION_COST = 6;
/** Elementwise work below this many floats stays on the calling thread (waking a helper costs more). */
const ELEMENTWISE_PARALLEL = 1 << 15;

/**
 * The attention backward's estimated share of a job it shares with products `list` (kernel statistics): its
 * multiply-adds (four products over each item's causal triangle) weighted by ATTENTION_COST.
 */
function attentionPart(list: readonly MatmulCall[], items: Int32Array, hd: number): number {
  let attention = 0;
  for (let i = 2; i < items.length; i += 3) attention += 2 * items[i]! * (items[i]! + 1) * hd;
  attention *= ATTENTION_COST;
  let products = 0;
  for (const m of list) products += m.M * m.N * m.K;
  return attention / (attention + products);
}

/** Loads the WebAssembly module and builds the fast kernels. Throws if the module is missing or invalid. */
export function createWasmKernels(options: WasmKernelOptions = {}): WasmKernels {
  const threads = options.threads ?? Math.min(8, availableParallelism());
  if (!Number.isInteger(threads) || threads < 1) {
    throw new ToolgenError("invalid_option", `threads must be a positive integer, got ${threads}`);
  }
  // (fewer than 4 rows would take gemm's few-row path, with other bits: 0 or at least 4)
  const attentionSub = Math.max(0, Math.floor(options.attentionSubRows ?? ATTENTION_SUB_ROWS));
  if (attentionSub > 0 && attentionSub < 4) throw new RangeError("attentionSubRows: 0 or at least 4");
  const path = options.wasmPath ?? DEFAULT_WASM_PATH;
  if (!existsSync(path)) throw new Error(`${path} not found (run "npm run build:wasm")`);
  const module = new wasmApi.Module(readFileSync(path));
  const maxPages = Math.min(65536, Math.ceil(((options.maxHeapMiB ?? 4096) * 2 ** 20) / 65536));
  const heap = new SharedHeap(Math.min(64, maxPages), maxPages);
  const instance = new wasmApi.Instance(module, { env: { memory: heap.memory } });
  let wasm = instance.exports as unknown as GemmExports & { native?: number };
  if (options.native) {
    try {
      const addon = loadNative();
      wasm = withNativeGemm(wasm, heap.memory, addon);
      // before the weights and activations touch the memory (its pages come as 2 MB ones from then on)
      adviseHugePages(heap.memory, addon, maxPages * 65536);
    } catch (err) {
      const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
      process.stderr.write(`toolgen: native GEMM unavailable (${why}); using the WebAssembly gemm\n`);
    }
  }
  const native = wasm.native !== undefined;
  const scratchBytes = wasm.scratchBytes();
  const mainScratch = heap.allocBytes(scratchBytes);
  let pool: ThreadPool | undefined;
  if (threads > 1) {
    const helperScratch = Array.from({ length: threads - 1 }, () => heap.allocBytes(scratchBytes));
    const ctl = heap.allocBytes(CTL.SIZE * 4);
    pool = new ThreadPool(module, heap.memory, ctl, helperScratch, options.helperStartDelayMs ?? 0, native);
  }
  const runTask = wasm.runTask;
  // home ranges of a job with items for the last home (tasks' tail)
  const homeBounds = new Array<number>((pool?.homes ?? 1) + 1).fill(0);
  const recorder = new KernelStatsRecorder();
  recorder.attach(pool);
  // The arguments of a task run on this thread alone (the pool keeps its own in the control block).
  const taskArgs = heap.allocBytes(16 * 4);
  // The (at, pAt, L) table of the attention items, grown on demand.
  let table = { addr: heap.allocBytes(3 * 4 * 1024), items: 1024 };
  const bits = f32Arg;
  let argView = new Int32Array(heap.memory.buffer, taskArgs, 16);

  /**
   * Runs items 0..count−1 of a task on the pool when it is up and the job `eligible` (large enough to share),
   * else on this thread; the items are the same either way.
   */
  function tasks(
    kind: number,
    args: ArrayLike<number>,
    count: number,
    eligible: boolean,
    tail = 0,
    bounds?: (homes: number) => ArrayLike<number>,
  ): void {
    gemms.flush(); // work deferred to the next GEMM job runs first
    const t0 = recorder.start();
    const shared = !!pool && pool.ready && eligible && count > 1;
    // many small items (attention's (sequence, head) pairs, the norm's slices): several a claim (control.mjs)
    const guide = shared && count >= SMALL_ITEMS * pool!.homes ? CLAIM_GUIDE : 0;
    if (shared && bounds) {
      pool!.runTasks(wasm, kind, args, count, mainScratch, bounds(pool!.homes), guide);
    } else if (shared && tail > 0) {
      const homes = pool!.homes;
      evenBounds(homeBounds, homes, 0, count - tail);
      homeBounds[homes] = count;
      pool!.runTasks(wasm, kind, args, count, mainScratch, homeBounds, guide);
    } else if (shared) {
      pool!.runTasks(wasm, kind, args, count, mainScratch, undefined, guide);
    } else {
      if (argView.buffer !== heap.memory.buffer) argView = new Int32Array(heap.memory.buffer, taskArgs, 16);
      for (let i = 0; i < args.length; i++) argView[i] = args[i]!;
      for (let i = 0; i < count; i++) runTask!(kind, i, taskArgs, mainScratch);
    }
    recorder.stop(kind, t0, eligible, shared);
  }

  // RoPE tables copied into the heap once per table; the positions of the current batch.
  const ropeTables = new WeakMap<Float32Array, { cos: number; sin: number; rows: number }>();
  const ropeFreed = new FinalizationRegistry<{ cos: number; sin: number }>((t) => {
    heap.freeBytes(t.cos);
    heap.freeBytes(t.sin);
  });
  let positionsBuf = { addr: heap.allocBytes(4 * 4096), length: 4096 };
  // its view, and how many of its entries hold checked positions for a table of `rows` rows
  let positionsView: Int32Array<ArrayBufferLike> = new Int32Array(0);
  const positionsChecked = { n: 0, rows: 0 };

  function ropeInHeap(rope: { half: number; cos: Float32Array; sin: Float32Array }) {
    let t = ropeTables.get(rope.cos);
    if (!t) {
      const n = rope.cos.length;
      t = { cos: heap.allocBytes(4 * n), sin: heap.allocBytes(4 * n), rows: n / rope.half };
      heap.view(t.cos, n).set(rope.cos);
      heap.view(t.sin, n).set(rope.sin);
      ropeTables.set(rope.cos, t);
      ropeFreed.register(rope.cos, { cos: t.cos, sin: t.sin });
    }
    return t;
  }

  function positionsInHeap(positions: Int32Array, n: number, rows: number): number {
    if (n > positionsBuf.length) {
      heap.freeBytes(positionsBuf.addr);
      const length = Math.max(n, 2 * positionsBuf.length);
      positionsBuf = { addr: heap.allocBytes(4 * length), length };
      positionsChecked.n = 0;
    }
    if (positionsView.buffer !== heap.memory.buffer || positionsView.byteOffset !== positionsBuf.addr)
      positionsView = new Int32Array(heap.memory.buffer, positionsBuf.addr, positionsBuf.length);
    // a step asks for the same positions a few times a layer: already there (and checked) when every entry
    // matches, else checked and copied
    const view = positionsView;
    let same = n <= positionsChecked.n && rows === positionsChecked.rows;
    for (let i = 0; i < n && same; i++) same = view[i] === positions[i];
    if (same) return positionsBuf.addr;
    positionsChecked.n = 0; // (until all are checked and copied)
    for (let i = 0; i < n; i++) {
      const p = positions[i]!;
      if (!(p >= 0 && p < rows))
        throw new RangeError(`position ${p} outside the RoPE table (0..${rows - 1})`);
      view[i] = p;
    }
    positionsChecked.n = n;
    positionsChecked.rows = rows;
    return positionsBuf.addr;
  }

  /**
   * Splits n floats (or rows) into chunks for the pool: a few per thread, multiples of 4. `parallel`: large
   * enough to share (whatever the thread count, so the kernel statistics see the same work on one thread).
   */
  function chunking(n: number, unit: number): { chunk: number; count: number; parallel: boolean } {
    const parallel = n * unit >= ELEMENTWISE_PARALLEL;
    if (!parallel || threads === 1) return { chunk: Math.max(1, n), count: n > 0 ? 1 : 0, parallel };
    const want = Math.min(4 * threads, Math.ceil((n * unit) / (ELEMENTWISE_PARALLEL / 2)));
    const chunk = Math.ceil(n / want / 4) * 4;
    return { chunk, count: Math.ceil(n / chunk), parallel };
  }

  // the attention job's home ranges (attentionHomes)
  let homeItems: Int32Array = new Int32Array(0);
  let homeLd = 0;
  const attentionBounds = (homes: number): ArrayLike<number> => {
    // Home h: the items whose rows start in the h-th share of the rows, the rows the GEMMs' home h wrote
    // (wasm-gemm.ts job(): home h holds the h-th share of a product's row chunks) and reads next. By item count
    // instead, a home's sequences ended anywhere in the rows: the threads read rows the other core had just
    // written (issue 40).
    const n = homeItems.length / 3;
    let rows = 0;
    for (let i = 0; i < n; i++)
      rows = Math.max(rows, Math.floor(homeItems[3 * i]! / homeLd) + homeItems[3 * i + 2]!);
    homeBounds[0] = 0;
    let i = 0;
    for (let h = 1; h < homes; h++) {
      const edge = Math.floor((rows * h) / homes);
      while (i < n && Math.floor(homeItems[3 * i]! / homeLd) < edge) i++;
      homeBounds[h] = i;
    }
    homeBounds[homes] = n;
    return homeBounds;
  };
  // attentionBackwardWith's home edges and byte ranges, reused from call to call
  const withEdges: number[] = [];
  const withRanges: number[] = [];
  /** Home ranges for an attention job on rows (ld = H·hd, items in row order), or undefined (even shares). */
  function attentionHomes(items: Int32Array, hd: number, ld: number) {
    if (ld === hd) return undefined;
    for (let i = 3; i < items.length; i += 3) if (items[i]! < items[i - 3]!) return undefined;
    homeItems = items;
    homeLd = ld;
    return attentionBounds;
  }

  /** Writes the attention items (at, pAt, L per (sequence, head)) into the heap table; its address. */
  function itemTable(items: Int32Array): number {
    const count = items.length / 3;
    if (count > table.items) {
      heap.freeBytes(table.addr);
      const grown = Math.max(count, 2 * table.items);
      table = { addr: heap.allocBytes(3 * 4 * grown), items: grown };
      tableHolds = -1;
    }
    if (tableView.buffer !== heap.memory.buffer || tableView.byteOffset !== table.addr)
      tableView = new Int32Array(heap.memory.buffer, table.addr, 3 * table.items);
    // each layer's forward and backward write the step's same items: copied only when they differ
    const view = tableView;
    let same = tableHolds === items.length;
    for (let i = 0; i < items.length && same; i++) same = view[i] === items[i];
    if (!same) {
      view.set(items);
      tableHolds = items.length;
    }
    return table.addr;
  }
  let tableView: Int32Array<ArrayBufferLike> = new Int32Array(0);
  // how many ints of the table hold the last items written (−1: none)
  let tableHolds = -1;
  const threshold = options.parallelThreshold ?? 1 << 21;
  const minChunk = options.minChunk ?? 64;
  // The exact view alloc() returned for each block: free() accepts only that view, so a subarray or a stale
  // view of a reused block can never free someone else's memory.
  const owners = new Map<number, Float32Array>();
  let warnedFull = false;

  const gemms = gemmKernel({
    heap,
    wasm,
    pool,
    threads,
    mainScratch,
    recorder,
    threshold,
    minChunk,
    nativeTailWork: options.nativeTailWork,
  });
  const run = gemms.run;
  // Row epilogue blocks of one matmulThen call (one per product at most), reused from call to call.
  const epilogues = heap.allocBytes(EPILOGUES * EPILOGUE.CELLS * 4);
  const blockAddrs: number[] = [];
  // epilogueBlocks' cells before they go to the heap, and how many each product has (0: no work)
  const cellScratch = new Int32Array(EPILOGUES * EPILOGUE.CELLS);
  const cellCount = new Int32Array(EPILOGUES);
  let epilogueView: Int32Array<ArrayBufferLike> = new Int32Array(0);
  // (n cells, at most 9: fixed parameters, no array a call)
  function put(
    i: number,
    n: number,
    a: number,
    b: number,
    c: number,
    d: number,
    e: number,
    f = 0,
    g = 0,
    h = 0,
    k = 0,
  ) {
    const o = i * EPILOGUE.CELLS;
    cellScratch[o] = a;
    cellScratch[o + 1] = b;
    cellScratch[o + 2] = c;
    cellScratch[o + 3] = d;
    cellScratch[o + 4] = e;
    cellScratch[o + 5] = f;
    cellScratch[o + 6] = g;
    cellScratch[o + 7] = h;
    cellScratch[o + 8] = k;
    cellCount[i] = n;
  }
  // per product: the earlier product whose rows its work also reads (swiglu: g), −1 none
  const afterIndex: number[] = [];
  // RMSNorm's weight gradients of a matmulThen or matmulChain call (a chain may go through two norms), handed to
  // the next GEMM job once the call is done
  const normDw: { args: number[]; count: number; ranges: number[] }[] = [];
  // The [start, end) byte ranges epilogueBlocks' row work writes (a chain's deferred work must not touch them)
  const epilogueWrites: number[] = [];
  // Whether NORM_BACKWARD_DX reads a gradient to add to (RowWork rmsnormBackward `from`; older modules: not)
  const normFrom = wasm.normBackwardFrom?.() === 1;

  /** Notes [address, address + 4·floats) pairs as written by row work (epilogueWrites). */
  function written(...pairs: number[]): void {
    for (let i = 0; i < pairs.length; i += 2)
      if (pairs[i + 1]! > 0) epilogueWrites.push(pairs[i]!, pairs[i]! + 4 * pairs[i + 1]!);
  }

  /**
   * The row epilogue blocks of matmulThen (0 where a product has no work), or undefined when the module lacks
   * them, an array lies outside the heap or is too short, or a product with work shares its output with another.
   */
  function epilogueBlocks(
    list: readonly MatmulCall[],
    then: readonly (RowWork | undefined)[],
    chain = false,
  ): number[] | undefined {
    if (!wasm.rowEpilogue || !runTask || list.length > EPILOGUES || then.length !== list.length)
      return undefined;
    let positions: Int32Array | undefined;
    // each product's cells in a scratch reused from call to call (no arrays per layer per step), then the heap
    cellCount.fill(0);
    afterIndex.length = 0;
    epilogueWrites.length = 0;
    normDw.length = 0;
    for (let i = 0; i < list.length; i++) {
      const m = list[i]!;
      const w = then[i];
      afterIndex.push(-1);
      if (!w) {
        continue;
      }
      // (the products that add into this one's output come after it: its work runs once they are done; in a
      // row chain each product's work runs right after it, and a later product may write the same rows again)
      for (let j = 0; j < list.length && !chain; j++)
        if (j !== i && list[j]!.out === m.out && (j < i || !list[j]!.accumulate)) return undefined;
      const n = m.M * m.N;
      const y = addresses(n, [m.out]);
      if (!y) return undefined;
      if (w.kind === "residual") {
        const p = addresses(n, [w.sum, w.x]);
        const norm = w.norm
          ? inHeap([w.norm.out, w.norm.inv, w.norm.w], [0, 0, 0], [n, m.M, m.N])
          : [0, 0, 0];
        if (!p || !norm) return undefined;
        written(p[0]!, n);
        if (w.norm) written(norm[0]!, n, norm[1]!, m.M);
        put(
          i,
          9,
          EPILOGUE.RESIDUAL,
          m.N,
          p[0]!,
          p[1]!,
          y[0]!,
          norm[0]!,
          norm[1]!,
          norm[2]!,
          bits(w.norm?.eps ?? 0),
        );
      } else if (w.kind === "rmsnormBackward") {
        // dx on the product's rows (it wrote dy), dw deferred to the next GEMM job (with a pool; else refused)
        const p = addresses(n, [w.dx, w.x]);
        const q = inHeap([w.dw, w.w, w.inv], [0, 0, 0], [m.N, m.N, m.M]);
        // (two in a row chain at most: the next GEMM job takes two deferred tasks)
        if (!p || !q || !pool?.ready || normDw.length >= (chain ? 2 : 1) || n < POOL_FLOATS) return undefined;
        // dx = from + …: from's rows alone are read (no other row of the list may write them)
        const from = w.from ? addresses(n, [w.from]) : [0];
        if (!from || (w.from && (!normFrom || w.from === w.dx))) return undefined;
        put(i, 8, EPILOGUE.NORM_BACKWARD_DX, m.N, p[0]!, y[0]!, p[1]!, q[1]!, q[2]!, from[0]!);
        written(p[0]!, n);
        const job = normBackwardJob([p[0]!, q[0]!, y[0]!, p[1]!, q[1]!, q[2]!], m.M, m.N, threads, true);
        // (it reads dy, x, inv and writes dw)
        const bytes = 4 * n;
        const ranges = [
          y[0]!,
          y[0]! + bytes,
          p[1]!,
          p[1]! + bytes,
          q[2]!,
          q[2]! + 4 * m.M,
          q[0]!,
          q[0]! + 4 * m.N,
        ];
        normDw.push({ args: job.args, count: job.colItems, ranges });
      } else if (w.kind === "swiglu") {
        // (σ(g) kept only by modules that read it back; g: an earlier product's output of the same shape)
        const j = list.findIndex((o) => o.out === w.g);
        const p = addresses(n, [w.a, w.g, w.sg]);
        if (!p || w.u !== m.out || !wasm.swigluForwardKeep || !(j >= 0 && j < i)) return undefined;
        if (list[j]!.M !== m.M || list[j]!.N !== m.N) return undefined;
        afterIndex[i] = j;
        written(p[0]!, n, p[2]!, w.sg ? n : 0);
        put(i, 6, EPILOGUE.SWIGLU, m.N, p[0]!, p[1]!, y[0]!, p[2]!);
      } else if (w.kind === "swigluBackward") {
        const p = addresses(n, [w.dg, w.du, w.g, w.u]);
        const sg = w.sg && wasm.swigluForwardKeep ? addresses(n, [w.sg]) : [0];
        if (!p || !sg) return undefined;
        written(p[0]!, n, p[1]!, n);
        put(i, 8, EPILOGUE.SWIGLU_BACKWARD, m.N, p[0]!, p[1]!, y[0]!, p[2]!, p[3]!, sg[0]!);
      } else {
        const hd = 2 * w.rope.half;
        if (w.H * hd !== m.N || hd % 2 !== 0 || w.positions.length < m.M) return undefined;
        if (positions && positions !== w.positions) return undefined;
        positions = w.positions;
        const t = ropeInHeap(w.rope);
        const pos = positionsInHeap(w.positions, m.M, t.rows);
        put(i, 8, EPILOGUE.ROPE, y[0]!, w.H, hd, t.cos, t.sin, pos, w.inverse ? 1 : 0);
      }
    }
    // (written last: positionsInHeap may have grown the memory)
    if (epilogueView.buffer !== heap.memory.buffer)
      epilogueView = new Int32Array(heap.memory.buffer, epilogues, EPILOGUES * EPILOGUE.CELLS);
    blockAddrs.length = 0;
    for (let i = 0; i < list.length; i++) {
      const at = i * EPILOGUE.CELLS;
      const n = cellCount[i]!;
      for (let j = 0; j < n; j++) epilogueView[at + j] = cellScratch[at + j]!;
      blockAddrs.push(n > 0 ? epilogues + at * 4 : 0);
    }
    return blockAddrs;
  }

  const runner: TaskRunner = {
    heap,
    tasks,
    addresses,
    scaledAdamw: !!wasm.adamwScaled,
    zeroingAdamw: wasm.adamwZeroes?.() === 1,
  };

  /** Heap addresses of arrays holding at least n floats each, or undefined if one lies outside the heap. */
  function addresses(n: number, arrays: Float32Array[]): number[] | undefined {
    const out: number[] = [];
    for (const x of arrays) {
      if (x.length < n)
        throw new RangeError(`elementwise kernel: an operand has ${x.length} elements, needs ${n}`);
      const addr = heap.addressOf(x);
      if (addr < 0) return undefined;
      out.push(addr);
    }
    return out;
  }

  /** Byte addresses of arrays[i] + at[i] floats when each lies in the heap with need[i] floats from there. */
  function inHeap(arrays: Float32Array[], at: number[], need: number[]): number[] | undefined {
    const out: number[] = [];
    for (let i = 0; i < arrays.length; i++) {
      const x = arrays[i]!;
      const addr = heap.addressOf(x);
      if (addr < 0) return undefined;
      if (at[i]! + need[i]! > x.length) throw new RangeError("kernel: an operand is too short");
      out.push(addr + at[i]! * 4);
    }
    return out;
  }

  /**
   * Heap addresses of attention operands when all lie in the heap and every item fits in them: probability
   * arrays (isP 1) need pAt + span(L) floats, the others at + (L − 1)·ld + hd.
   */
  function attentionOperands(
    arrays: Float32Array[],
    isP: number[],
    items: Int32Array,
    hd: number,
    ld: number,
  ): number[] | undefined {
    let rowsEnd = 0;
    let pEnd = 0;
    for (let i = 0; i < items.length; i += 3) {
      const L = items[i + 2]!;
      if (!(L > 0)) throw new RangeError("attention: an item has no rows");
      rowsEnd = Math.max(rowsEnd, items[i]! + (L - 1) * ld + hd);
      pEnd = Math.max(pEnd, items[i + 1]! + causalSpan(L));
    }
    const out: number[] = [];
    for (let j = 0; j < arrays.length; j++) {
      const x = arrays[j]!;
      const addr = heap.addressOf(x);
      if (addr < 0) return undefined;
      if ((isP[j] ? pEnd : rowsEnd) > x.length) throw new RangeError("attention: an operand is too short");
      out.push(addr);
    }
    return out;
  }

  /**
   * The attention backward job's arguments (attentionBackwardAll), or undefined when the module cannot take
   * these arrays, items or `ld`, or RoPE's backward with them.
   */
  function attentionBackwardArgs(
    arrays: Float32Array[],
    items: Int32Array,
    hd: number,
    scale: number,
    ld: number,
    rope?: { rope: { half: number; cos: Float32Array; sin: Float32Array }; positions: Int32Array },
  ): number[] | undefined {
    if (!runTask || items.length / 3 > MAX_ITEMS || !strided(hd, ld)) return undefined;
    for (let i = 2; i < items.length; i += 3) if (items[i]! > ATTENTION_MAX_L) return undefined;
    // RoPE on the items' rows: modules with ropeHeadRows, heads of hd = 2·half floats, positions for every row
    if (rope && (!wasm.ropeHeadRows || rope.rope.half * 2 !== hd || ld % hd !== 0)) return undefined;
    const rows = rope ? arrays[0]!.length / ld : 0;
    if (rope && (rope.positions.length < rows || !Number.isInteger(rows))) return undefined;
    const a = attentionOperands(arrays, [0, 0, 0, 0, 1, 0, 0, 0], items, hd, ld);
    if (!a) return undefined;
    let ropeArgs = [0, 0, 0];
    if (rope) {
      const t = ropeInHeap(rope.rope);
      ropeArgs = [t.cos, t.sin, positionsInHeap(rope.positions, rows, t.rows)];
    }
    return [...a, itemTable(items), hd, bits(scale), ld, attentionSub, ...ropeArgs];
  }

  /** Whether the module's attention takes row stride `ld` (modules before ROPE_ROWS read only hd). */
  function strided(hd: number, ld: number): boolean {
    return Number.isInteger(ld) && ld >= hd && (ld === hd || !!wasm.ropeRows);
  }

  const train = trainingOps(runner, threads);
  const { rmsnormBackward: _pooledInside, ...trainRest } = train;
  const trainOps = runTask ? trainRest : {};

  return {
    ...trainOps,
    // (the native gemm's name says it: benches record which kernels ran)
    name: `${native ? `native-gemm-${wasm.native === 2 ? "avx512" : "avx2"}+` : ""}wasm-simd${pool ? `-${threads}threads` : ""}`,
    heap,
    collectStats: (stats) => recorder.collect(stats),
    statsSection: (name) => recorder.section(name),
    get parallel() {
      return pool?.ready ?? false;
    },
    matmulABt: (out, a, b, M, K, N, accumulate = false) => run("ABt", out, a, b, M, K, N, accumulate),
    matmulAB: (out, a, b, M, K, N, accumulate = false) => run("AB", out, a, b, M, K, N, accumulate),
    matmulAtB: (out, a, b, M, K, N, accumulate = false) => run("AtB", out, a, b, M, K, N, accumulate),
    matmulMany: (list) => gemms.many(list),
    matmulThen(list, then) {
      const blocks = epilogueBlocks(list, then);
      if (!blocks) return false;
      gemms.many(list, blocks, afterIndex);
      for (const dw of normDw) gemms.defer(TASK.RMSNORM_BACKWARD, dw.args, dw.count, dw.ranges);
      return true;
    },
    matmulChain(list, then, beside) {
      const blocks = epilogueBlocks(list, then, true);
      if (!blocks) return false;
      if (!gemms.chainRows(list, blocks, epilogueWrites, beside)) return false;
      for (const dw of normDw) gemms.defer(TASK.RMSNORM_BACKWARD, dw.args, dw.count, dw.ranges);
      return true;
    },
    flush: () => gemms.flush(),
    alongside(job, work) {
      if (pool?.ready) return pool.alongside(job, work);
      job();
      work();
    },
    swigluForward(a, g, u, n, sg) {
      const p = addresses(n, [a, g, u]);
      // σ(g) kept only by modules that read it back (swigluBackwardKept) and when it lies in the heap
      const keep = sg && runTask && wasm.swigluForwardKeep ? addresses(n, [sg]) : undefined;
      if (!p) swigluForward(a, g, u, n);
      else if (!runTask) wasm.swigluForward(p[0]!, p[1]!, p[2]!, n);
      else {
        const { chunk, count, parallel } = chunking(n, 1);
        tasks(TASK.SWIGLU_FORWARD, [...p, n, chunk, p && keep ? keep[0]! : 0], count, parallel);
      }
      return !!p && !!keep;
    },
    swigluBackward(dg, du, da, g, u, n, sg) {
      const p = addresses(n, [dg, du, da, g, u]);
      const kept = sg && runTask && wasm.swigluForwardKeep ? addresses(n, [sg]) : undefined;
      if (!p) swigluBackward(dg, du, da, g, u, n);
      else if (!runTask) wasm.swigluBackward(p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, n);
      else {
        const { chunk, count, parallel } = chunking(n, 1);
        tasks(TASK.SWIGLU_BACKWARD, [...p, n, chunk, kept ? kept[0]! : 0], count, parallel);
      }
    },
    moveHeads(dst, src, s, rope, positions, merge) {
      const { B, H, T, hd } = s;
      const rows = B * T;
      const p = runTask && hd % 2 === 0 ? addresses(rows * H * hd, [dst, src]) : undefined;
      if (!p) return false;
      let cos = 0;
      let sin = 0;
      let pos = 0;
      if (rope && positions) {
        if (rope.half !== hd / 2)
          throw new RangeError(`moveHeads: RoPE table for head size ${2 * rope.half}`);
        const t = ropeInHeap(rope);
        ({ cos, sin } = t);
        pos = positionsInHeap(positions, rows, t.rows);
      }
      const mode = (rope && positions ? 1 : 0) | (merge ? 2 : 0);
      const { chunk, count, parallel } = chunking(rows, H * hd);
      tasks(TASK.MOVE_HEADS, [...p, H, T, hd, cos, sin, pos, mode, rows, chunk], count, parallel);
      return true;
    },
    add(out, x, y, n) {
      const p = runTask ? addresses(n, [out, x, y]) : undefined;
      if (!p) return false;
      const { chunk, count, parallel } = chunking(n, 1);
      tasks(TASK.ADD, [...p, n, chunk], count, parallel);
      return true;
    },
    rmsnormForward(out, inv, x, w, rows, d, eps) {
      const a = inHeap([out, inv, x, w], [0, 0, 0, 0], [rows * d, rows, rows * d, d]);
      if (!a) return false;
      if (!runTask) wasm.rmsnormForward(...a, rows, d, eps);
      else {
        const { chunk, count, parallel } = chunking(rows, d);
        tasks(TASK.RMSNORM_FORWARD, [...a, rows, d, bits(eps), chunk], count, parallel);
      }
      return true;
    },
    rmsnormBackward(dx, dw, dy, x, w, inv, rows, d) {
      if (runTask) return train.rmsnormBackward(dx, dw, dy, x, w, inv, rows, d);
      const n = rows * d;
      const a = inHeap([dx, dw, dy, x, w, inv], [0, 0, 0, 0, 0, 0], [n, d, n, n, d, rows]);
      if (!a) return false;
      wasm.rmsnormBackward(...a, rows, d);
      return true;
    },
    attentionForward(O, P, Q, K, V, at, pAt, L, hd, scale) {
      const n = L * hd;
      const a = inHeap([O, P, Q, K, V], [at, pAt, at, at, at], [n, causalSpan(L), n, n, n]);
      if (!a) return false;
      wasm.attentionForward(a[0]!, a[1]!, a[2]!, a[3]!, a[4]!, L, hd, scale, mainScratch, hd, attentionSub);
      return true;
    },
    attentionBackward(dQ, dK, dV, dO, P, Q, K, V, scratch, at, pAt, L, hd, scale) {
      const arrays = [dQ, dK, dV, dO, P, Q, K, V, scratch];
      const n = L * hd;
      const a = inHeap(
        arrays,
        [at, at, at, at, pAt, at, at, at, 0],
        [n, n, n, n, causalSpan(L), n, n, n, 64 * L],
      );
      if (!a) return false;
      wasm.attentionBackward(...a, L, hd, scale, mainScratch, hd, attentionSub);
      return true;
    },
    attentionForwardAll(O, P, Q, K, V, items, hd, scale, ld = hd) {
      if (!runTask || items.length / 3 > MAX_ITEMS || !strided(hd, ld)) return false;
      const a = attentionOperands([O, P, Q, K, V], [0, 1, 0, 0, 0], items, hd, ld);
      if (!a) return false;
      const args = [...a, itemTable(items), hd, bits(scale), ld, attentionSub];
      tasks(TASK.ATTENTION_FORWARD, args, items.length / 3, true, 0, attentionHomes(items, hd, ld));
      return true;
    },
    attentionBackwardAll(dQ, dK, dV, dO, P, Q, K, V, items, hd, scale, ld = hd, rope) {
      const args = attentionBackwardArgs([dQ, dK, dV, dO, P, Q, K, V], items, hd, scale, ld, rope);
      if (!args) return false;
      tasks(TASK.ATTENTION_BACKWARD, args, items.length / 3, true, 0, attentionHomes(items, hd, ld));
      return true;
    },
    attentionBackwardWith(list, dQ, dK, dV, dO, P, Q, K, V, items, hd, scale, ld, rope) {
      // (rows only: the home ranges follow the rows the products before wrote, attentionHomes)
      const bounds = pool?.ready && ld !== hd ? attentionHomes(items, hd, ld) : undefined;
      if (!pool || !bounds) return false;
      const arrays = [dQ, dK, dV, dO, P, Q, K, V];
      const args = attentionBackwardArgs(arrays, items, hd, scale, ld, rope);
      if (!args) return false;
      const count = items.length / 3;
      const homes = pool.homes;
      // (copied: the job's own home ranges reuse attentionBounds' array; both arrays reused from call to call)
      const from = bounds(homes);
      withEdges.length = homes + 1;
      for (let h = 0; h <= homes; h++) withEdges[h] = from[h]!;
      // the byte ranges it reads and writes (work deferred to the job that meets them runs first)
      withRanges.length = 0;
      for (let j = 0; j < arrays.length; j++) {
        const at = heap.addressOf(arrays[j]!);
        withRanges.push(at, at + 4 * arrays[j]!.length);
      }
      const edges = withEdges;
      const ranges = withRanges;
      // a few claims of several items per home: claims of one item each paid the shared counters per item
      const group = Math.max(1, Math.floor(count / (ATTENTION_CLAIMS * homes)));
      const part = attentionPart(list, items, hd);
      const task = { kind: TASK.ATTENTION_BACKWARD, args, count, bounds: edges, group, ranges, part };
      if (!gemms.many(list, undefined, undefined, task))
        tasks(TASK.ATTENTION_BACKWARD, args, count, true, 0, attentionHomes(items, hd, ld));
      return true;
    },
    ropeRows(x, y, rope, positions, rows, H, inverse) {
      const hd = 2 * rope.half;
      const n = rows * H * hd;
      const p = wasm.ropeRows ? addresses(n, y ? [x, y] : [x]) : undefined;
      if (!p || positions.length < rows) return false;
      const t = ropeInHeap(rope);
      const pos = positionsInHeap(positions, rows, t.rows);
      const { chunk, count, parallel } = chunking(rows, (y ? 2 : 1) * H * hd);
      const args = [p[0]!, p[1] ?? 0, rows, H, hd, t.cos, t.sin, pos, inverse ? 1 : 0, chunk];
      tasks(TASK.ROPE_ROWS, args, count, parallel);
      return true;
    },
    adamw(p, g, m, v, o) {
      const a = addresses(p.length, [p, g, m, v]);
      if (!a) return false;
      wasm.adamw(a[0]!, a[1]!, a[2]!, a[3]!, p.length, o.lr, o.beta1, o.beta2, o.eps, o.wd, o.c1, o.c2);
      return true;
    },
    alloc(length) {
      if (!Number.isInteger(length) || length < 0) {
        throw new RangeError(`alloc: length must be a non-negative integer, got ${length}`);
      }
      let addr: number;
      try {
        addr = heap.allocBytes(length * 4);
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        // The shared memory is at its maximum (4 GiB): keep working with plain arrays, copied per call.
        if (!warnedFull) process.stderr.write(`toolgen: kernel heap full (${err.message}); using copies\n`);
        warnedFull = true;
        return new Float32Array(length);
      }
      const view = heap.view(addr, length);
      owners.set(view.byteOffset, view);
      return view;
    },
    free(array) {
      const addr = heap.addressOf(array);
      if (addr < 0) return; // a plain array: the garbage collector owns it
      if (owners.get(addr) !== array) {
        throw new Error("free: this array was not returned by alloc, or was freed already");
      }
      owners.delete(addr);
      heap.freeBytes(addr);
    },
    close: async () => {
      await pool?.stop();
    },
  };
}
