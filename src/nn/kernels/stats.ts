import { TASK } from "./control.mjs";

/**
 * Milliseconds spent in each kernel operation, and the part of them in jobs large enough to share with the
 * pool's threads (`pooledMs`): what a step's serial fraction is measured from (bench/engine.ts).
 */
export interface KernelStats {
  ms: Record<string, number>;
  pooledMs: Record<string, number>;
  calls: number;
  /** Calls per operation that the pool's threads shared (the rest ran on the calling thread alone). */
  shared: Record<string, number>;
  /**
   * Per operation, in the pool's jobs: every thread's time computing items (`busyMs`), the caller's time waiting
   * for the helpers' last items (`waitMs`), the jobs (`jobs`); on one thread (no pool) none are recorded.
   */
  busyMs: Record<string, number>;
  waitMs: Record<string, number>;
  jobs: Record<string, number>;
}

export function emptyStats(): KernelStats {
  return { ms: {}, pooledMs: {}, calls: 0, shared: {}, busyMs: {}, waitMs: {}, jobs: {} };
}

/** The pool's cumulative job timing (thread-pool.ts times). */
export interface PoolTimes {
  busyMs: number;
  waitMs: number;
  jobs: number;
}

const TASK_NAMES: Record<number, string> = {
  [TASK.ATTENTION_FORWARD]: "attention forward",
  [TASK.ATTENTION_BACKWARD]: "attention backward",
  [TASK.SWIGLU_FORWARD]: "SwiGLU",
  [TASK.SWIGLU_BACKWARD]: "SwiGLU",
  [TASK.ADD]: "residual add",
  [TASK.RMSNORM_FORWARD]: "RMSNorm forward",
  [TASK.MOVE_HEADS]: "split/merge heads + RoPE",
  [TASK.ROPE_ROWS]: "RoPE (q, k in their rows)",
  [TASK.RMSNORM_BACKWARD]: "RMSNorm backward",
  [TASK.CROSS_ENTROPY]: "cross-entropy",
  [TASK.ADAMW]: "AdamW",
  [TASK.SUM_SQUARES]: "gradient norm + clipping",
  [TASK.SCALE]: "gradient norm + clipping",
  [TASK.FILL_ZERO]: "zeroing gradients",
  [TASK.EMBEDDING_GRAD]: "embedding gradient",
  [TASK.EMBEDDING_ROWS]: "embedding rows",
  [TASK.AVERAGE]: "weight averaging",
  [TASK.GATHER_ROWS]: "LM head rows (gather, scatter)",
  [TASK.SCATTER_ROWS]: "LM head rows (gather, scatter)",
};

const GEMM_NAMES: Record<string, string> = {
  ABt: "matmul x·Wᵀ (forward)",
  AB: "matmul dy·W (input gradients)",
  AtB: "matmul dyᵀ·x (weight gradients)",
};

/** Adds call times to a KernelStats while one is attached; costs one branch per call otherwise. */
export class KernelStatsRecorder {
  private stats: KernelStats | undefined;
  private sectionName: string | undefined;
  /** The pool's timing counters (undefined: no pool), and their values at the last start(). */
  private pool: { times: PoolTimes; timing(on: boolean): void } | undefined;
  private mark = { busyMs: 0, waitMs: 0, jobs: 0 };

  /** The pool whose job timing the statistics record per operation. */
  attach(pool: { times: PoolTimes; timing(on: boolean): void } | undefined): void {
    this.pool = pool;
  }

  /** The part of the model the next GEMMs belong to, added to their names (undefined: none). */
  section(name: string | undefined): void {
    this.sectionName = name;
  }

  collect(stats: KernelStats | undefined): void {
    this.stats = stats;
    this.pool?.timing(stats !== undefined);
  }

  start(): number {
    if (!this.stats) return 0;
    if (this.pool) Object.assign(this.mark, this.pool.times);
    return performance.now();
  }

  /**
   * A task's call ends: `pooled`, large enough to share; `shared`, the pool's threads did share it; `part`: its
   * share of the time of a GEMM job it ran in.
   */
  stop(kind: number, t0: number, pooled: boolean, shared: boolean, part = 1): void {
    if (this.stats)
      this.add(TASK_NAMES[kind] ?? `task ${kind}`, (performance.now() - t0) * part, pooled, shared, part);
  }

  /** A GEMM's call ends (`part`: its share of the time of a batch it ran in). */
  stopGemm(shape: string, t0: number, pooled: boolean, shared: boolean, part = 1): void {
    if (!this.stats) return;
    const name = GEMM_NAMES[shape] ?? shape;
    const ms = (performance.now() - t0) * part;
    this.add(this.sectionName ? `${name}, ${this.sectionName}` : name, ms, pooled, shared, part);
  }

  /** Counts `n` events under `name` in `shared` (products handed to the pool in one batch). */
  count(name: string, n: number): void {
    if (this.stats) this.stats.shared[name] = (this.stats.shared[name] ?? 0) + n;
  }

  private add(name: string, ms: number, pooled: boolean, shared: boolean, part = 1): void {
    const s = this.stats!;
    s.calls++;
    s.ms[name] = (s.ms[name] ?? 0) + ms;
    const t = this.pool?.times;
    if (t && t.jobs > this.mark.jobs) {
      s.busyMs[name] = (s.busyMs[name] ?? 0) + (t.busyMs - this.mark.busyMs) * part;
      s.waitMs[name] = (s.waitMs[name] ?? 0) + (t.waitMs - this.mark.waitMs) * part;
      s.jobs[name] = (s.jobs[name] ?? 0) + (t.jobs - this.mark.jobs) * part;
    }
    if (pooled) s.pooledMs[name] = (s.pooledMs[name] ?? 0) + ms;
    if (shared) s.shared[name] = (s.shared[name] ?? 0) + 1;
  }
}
