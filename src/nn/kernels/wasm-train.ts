import type { MatmulKernels } from "./api.ts";
import { TASK } from "./control.mjs";
import type { SharedHeap } from "./shared-heap.ts";

/**
 * The training step's pool jobs besides the layers (assembly/train.ts): RMSNorm backward, cross-entropy, AdamW,
 * the gradient norm and clipping, the embedding and its gradient, zeroing, weight averaging. Every job is cut
 * into slices fixed by the problem alone, and every sum over slices runs in slice order, so one thread and many
 * give the same bits.
 */
export interface TaskRunner {
  readonly heap: SharedHeap;
  /**
   * Runs items 0..count−1 of task `kind`; on the pool when `eligible` (large enough) and the pool is up. The
   * threads' home ranges share the first count − `tail` items evenly; the last `tail` go to the last home.
   */
  tasks(kind: number, args: ArrayLike<number>, count: number, eligible: boolean, tail?: number): void;
  /** Heap addresses of arrays holding at least n floats each, or undefined if one lies outside the heap. */
  addresses(n: number, arrays: Float32Array[]): number[] | undefined;
  /** The module's ADAMW task reads a gradient scale (modules built before it ignore it: then scale first). */
  readonly scaledAdamw: boolean;
  /** The module's ADAMW task can zero the gradients it read, and has the row gather and scatter tasks. */
  readonly zeroingAdamw: boolean;
}

type TrainOps = Required<
  Pick<
    MatmulKernels,
    | "rmsnormBackward"
    | "crossEntropy"
    | "adamwSlices"
    | "sumSquares"
    | "scale"
    | "fillZero"
    | "embeddingForward"
    | "embeddingBackward"
    | "gatherRows"
    | "scatterRows"
    | "averageInto"
  >
>;

/** Work below this many floats stays on the calling thread (waking a helper costs more). */
export const POOL_FLOATS = 1 << 15;
/** Floats per slice of the gradient norm: its partial sums are added in slice order. */
const NORM_SLICE = 1 << 14;
/** Columns per item of the RMSNorm weight gradient (each sums all rows of its columns in row order). */
const NORM_COLUMNS = 16;

/**
 * The RMSNORM_BACKWARD task's arguments for addresses [dx, dw, dy, x, w, inv] (assembly/train-tasks.ts): its
 * row items (dx) then column items (dw); `first`: the job's item 0 is item `first` (the row item count: a job
 * of the column items alone).
 */
export function normBackwardJob(
  p: readonly number[],
  rows: number,
  d: number,
  threads: number,
  columnsOnly = false,
) {
  const rowChunk = Math.max(8, Math.ceil(rows / (4 * threads)));
  const colItems = Math.ceil(d / NORM_COLUMNS);
  const rowItems = Math.ceil(rows / rowChunk);
  const args = [...p, rows, d, rowChunk, NORM_COLUMNS, colItems, columnsOnly ? rowItems : 0];
  return { args, colItems, count: columnsOnly ? colItems : colItems + rowItems };
}

/** Blocks of shared memory reused from call to call (grown, never shrunk): no allocation per step. */
class Reusable {
  private blocks = new Map<string, { addr: number; bytes: number }>();
  constructor(private readonly heap: SharedHeap) {}

  /** The address of block `name`, at least `bytes` long. */
  get(name: string, bytes: number): number {
    const b = this.blocks.get(name);
    if (b && b.bytes >= bytes) return b.addr;
    if (b) this.heap.freeBytes(b.addr);
    const grown = Math.max(bytes, 2 * (b?.bytes ?? 0), 256);
    const addr = this.heap.allocBytes(grown);
    this.blocks.set(name, { addr, bytes: grown });
    return addr;
  }

  /** Copies `values` into block `name`; its address. */
  ints(name: string, values: Int32Array, n = values.length): number {
    const addr = this.get(name, 4 * n);
    new Int32Array(this.heap.memory.buffer, addr, n).set(values.subarray(0, n));
    return addr;
  }

  f64(name: string, n: number): Float64Array {
    const addr = this.get(name, 8 * n); // first: it may grow the memory, which replaces the buffer
    return new Float64Array(this.heap.memory.buffer, addr, n);
  }
}

/** Slices of n (a multiple of 4 floats each) for `threads`, at least `least` per slice. */
export function slicing(n: number, threads: number, least = 1024): { chunk: number; count: number } {
  const chunk = Math.max(least, Math.ceil(n / (4 * threads) / 4) * 4);
  return { chunk, count: Math.ceil(n / chunk) };
}

/** An f64 as two i32 slots (low word first), the way assembly/args.ts argd reads it. */
const f64Bits = new Float64Array(1);
const f64Words = new Int32Array(f64Bits.buffer);
function f64Args(x: number): [number, number] {
  f64Bits[0] = x;
  return [f64Words[0]!, f64Words[1]!];
}
const f32Bits = new Float32Array(1);
const f32Word = new Int32Array(f32Bits.buffer);
export function f32Arg(x: number): number {
  f32Bits[0] = x;
  return f32Word[0]!;
}

export function trainingOps(run: TaskRunner, threads: number): TrainOps {
  const keep = new Reusable(run.heap);
  return {
    rmsnormBackward(dx, dw, dy, x, w, inv, rows, d) {
      const n = rows * d;
      const a = run.addresses(n, [dx, dy, x]);
      const b = run.addresses(d, [dw, w]);
      const c = run.addresses(rows, [inv]);
      if (!a || !b || !c) return false;
      const { args, colItems, count } = normBackwardJob(
        [a[0]!, b[0]!, a[1]!, a[2]!, b[1]!, c[0]!],
        rows,
        d,
        threads,
      );
      // row chunks first, shared by the threads' home ranges like the rows of every job; the dw items after
      run.tasks(TASK.RMSNORM_BACKWARD, args, count, n >= POOL_FLOATS, colItems);
      return true;
    },
    crossEntropy(logits, targets, rows, V, scale) {
      const p = run.addresses(rows * V, [logits]);
      if (!p || rows === 0) return p ? 0 : undefined;
      for (let r = 0; r < rows; r++) {
        const t = targets[r]!;
        if (!(t >= 0 && t < V)) throw new Error(`target id ${t} outside the vocabulary (size ${V})`);
      }
      const losses = keep.f64("losses", rows);
      const per = Math.max(1, Math.ceil(rows / 1024));
      const args = [
        p[0]!,
        keep.ints("targets", targets, rows),
        losses.byteOffset,
        V,
        ...f64Args(scale),
        rows,
        per,
      ];
      run.tasks(TASK.CROSS_ENTROPY, args, Math.ceil(rows / per), rows * V >= POOL_FLOATS);
      let total = 0;
      for (let r = 0; r < rows; r++) total += losses[r]!;
      return total;
    },
    adamwSlices(p, g, m, v, slices, o) {
      const a = run.addresses(p.length, [p, g, m, v]);
      if (!a || ((o.gradScale ?? 1) !== 1 && !run.scaledAdamw) || (o.zeroGrads && !run.zeroingAdamw))
        return false;
      const table = keep.ints("adamw", slices);
      const hyper = [o.lr, o.beta1, o.beta2, o.eps, o.wd, o.c1, o.c2].map(f32Arg);
      const args = [...a, table, ...hyper, ...f64Args(o.gradScale ?? 1), o.zeroGrads ? 1 : 0];
      run.tasks(TASK.ADAMW, args, slices.length / 3, p.length >= POOL_FLOATS);
      return true;
    },
    sumSquares(x) {
      const n = x.length;
      const a = run.addresses(n, [x]);
      if (!a) return undefined;
      const count = Math.ceil(n / NORM_SLICE);
      const partial = keep.f64("norm", count);
      run.tasks(TASK.SUM_SQUARES, [a[0]!, n, NORM_SLICE, partial.byteOffset], count, n >= POOL_FLOATS);
      let s = 0;
      for (let i = 0; i < count; i++) s += partial[i]!;
      return s;
    },
    scale(x, k) {
      const a = run.addresses(x.length, [x]);
      if (!a) return false;
      const { chunk, count } = slicing(x.length, threads);
      run.tasks(TASK.SCALE, [a[0]!, x.length, chunk, ...f64Args(k)], count, x.length >= POOL_FLOATS);
      return true;
    },
    fillZero(x) {
      const a = run.addresses(x.length, [x]);
      if (!a) return false;
      const { chunk, count } = slicing(x.length, threads, 4096);
      run.tasks(TASK.FILL_ZERO, [a[0]!, x.length, chunk], count, x.length >= 4 * POOL_FLOATS);
      return true;
    },
    embeddingForward(x, emb, tokens, N, d) {
      const a = run.addresses(N * d, [x]);
      const e = run.addresses(0, [emb]);
      if (!a || !e) return false;
      const per = Math.max(16, Math.ceil(N / (4 * threads)));
      const args = [a[0]!, e[0]!, keep.ints("tokens", tokens, N), N, d, per];
      run.tasks(TASK.EMBEDDING_ROWS, args, Math.ceil(N / per), N * d >= POOL_FLOATS);
      return true;
    },
    embeddingBackward(dEmb, dx, tokens, N, d, V) {
      const a = run.addresses(N * d, [dx]);
      const e = run.addresses(V * d, [dEmb]);
      if (!a || !e) return false;
      const per = Math.max(64, Math.ceil(V / (4 * threads)));
      const args = [e[0]!, a[0]!, keep.ints("tokenGrads", tokens, N), N, d, V, per];
      run.tasks(TASK.EMBEDDING_GRAD, args, Math.ceil(V / per), N * d >= POOL_FLOATS);
      return true;
    },
    gatherRows(out, src, rows, n, d) {
      const a = run.addresses(n * d, [out]);
      const b = run.addresses(0, [src]);
      if (!a || !b || !run.zeroingAdamw) return false;
      const per = Math.max(16, Math.ceil(n / (4 * threads)));
      const args = [a[0]!, b[0]!, keep.ints("gatherRows", rows, n), n, d, per];
      run.tasks(TASK.GATHER_ROWS, args, Math.ceil(n / per), n * d >= POOL_FLOATS);
      return true;
    },
    scatterRows(out, src, rows, n, d, outRows) {
      const a = run.addresses(outRows * d, [out]);
      const b = run.addresses(n * d, [src]);
      if (!a || !b || !run.zeroingAdamw) return false;
      for (let j = 1; j < n; j++)
        if (!(rows[j]! > rows[j - 1]!)) throw new Error("scatterRows: the rows must ascend");
      if (n > 0 && !(rows[0]! >= 0 && rows[n - 1]! < outRows))
        throw new Error(`scatterRows: a row outside 0..${outRows - 1}`);
      const per = Math.max(16, Math.ceil(outRows / (4 * threads)));
      const args = [a[0]!, b[0]!, keep.ints("scatterRows", rows, Math.max(n, 1)), n, d, outRows, per];
      run.tasks(TASK.SCATTER_ROWS, args, Math.ceil(outRows / per), outRows * d >= POOL_FLOATS);
      return true;
    },
    averageInto(avg, p, count) {
      const a = run.addresses(p.length, [avg, p]);
      if (!a) return false;
      const { chunk, count: items } = slicing(p.length, threads);
      run.tasks(TASK.AVERAGE, [...a, p.length, chunk, count], items, p.length >= POOL_FLOATS);
      return true;
    },
  };
}
