export declare const CTL: Readonly<{
  SEQ: number;
  NEXT: number;
  COMPLETED: number;
  READY: number;
  FAILED: number;
  STOP: number;
  KIND: number;
  GUIDE: number;
  ARGS: number;
  TASK_ARGS: number;
  HOMES: number;
  BOUNDS: number;
  HOME_NEXT: number;
  SLEEPERS: number;
  TIMING: number;
  BUSY: number;
  SIZE: number;
}>;

export declare const MAX_HOMES: number;

export declare const TASK: Readonly<{
  ATTENTION_FORWARD: number;
  ATTENTION_BACKWARD: number;
  SWIGLU_FORWARD: number;
  SWIGLU_BACKWARD: number;
  ADD: number;
  RMSNORM_FORWARD: number;
  MOVE_HEADS: number;
  RMSNORM_BACKWARD: number;
  CROSS_ENTROPY: number;
  ADAMW: number;
  SUM_SQUARES: number;
  SCALE: number;
  FILL_ZERO: number;
  EMBEDDING_GRAD: number;
  EMBEDDING_ROWS: number;
  AVERAGE: number;
  SUM_PARTIALS: number;
  GEMM_SPLIT_K: number;
  GEMM_BATCH: number;
  ROPE_ROWS: number;
  GATHER_ROWS: number;
  SCATTER_ROWS: number;
}>;

export declare const SPIN: number;
export declare const SPIN_MS: number;

export declare const CLOSED: number;

export declare function publishJob(
  ctl: Int32Array,
  kind: number,
  chunks: number,
  writeArgs: () => void,
  homes?: number,
  bounds?: ArrayLike<number>,
  guide?: number,
): number;

export declare function claimSize(left: number, guide: number): number;

export declare function wake(ctl: Int32Array, index: number): void;

export declare function evenBounds(bounds: number[], homes: number, first: number, chunks: number): number[];

export declare function chunkCount(extent: number, size: number): number;

export declare function waitChange(ctl: Int32Array, index: number, value: number): void;

export type Gemm = (...args: number[]) => void;

/** The WASM exports a pool thread calls: the gemm and the task dispatcher (assembly/tasks.ts). */
export interface PoolExports {
  gemm: Gemm;
  runTask?: (kind: number, item: number, args: number, scratch: number) => void;
}

export declare function runChunks(
  ctl: Int32Array,
  exports: PoolExports,
  scratch: number,
  seq: number,
  self?: number,
): void;
