import { Worker } from "node:worker_threads";
import {
  CTL,
  evenBounds,
  MAX_HOMES,
  publishJob,
  runChunks,
  waitChange,
  type PoolExports,
} from "./control.mjs";
import type { WasmMemory, WasmModule } from "./webassembly.ts";

/** gemm's first 12 arguments: c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, accumulate. */
export type GemmArgs = readonly number[];

/**
 * Helper worker threads sharing the caller's memory. A job is published through one control block in that
 * memory; the caller and every helper claim chunks of it, and the caller blocks (Atomics.wait) only for chunks
 * a helper is still computing, so matmuls stay synchronous. Workers are unref'd: they never keep the process
 * alive.
 */
export class ThreadPool {
  private readonly ctl: Int32Array;
  private readonly workers: Worker[] = [];
  private broken = false;
  /** Home ranges of a job (control.mjs): one per thread, the caller's first. */
  readonly homes: number;
  private readonly bounds: number[];
  /** JavaScript to run on this thread while the helpers start on the next job (alongside). */
  private pending: (() => void) | undefined;
  /**
   * With timing(true), summed over the jobs since: every thread's time computing items (`busyMs`), and the
   * caller's time waiting for the helpers' last items (`waitMs`). Kernel statistics: the rest of the threads'
   * time in a job (threads × its wall time − busy) is hand-off and imbalance (issue 40).
   */
  readonly times = { busyMs: 0, waitMs: 0, jobs: 0 };
  private timed = false;

  /**
   * One helper per entry of `scratch` (each helper's packing buffer). `startDelayMs`: each helper waits this long
   * before it takes jobs (tests: a run whose helpers start late must give the same bits). `native`: the helpers
   * compute gemm chunks with the native addon (native.mjs), as the caller does.
   */
  constructor(
    module: WasmModule,
    memory: WasmMemory,
    ctlAddr: number,
    scratch: number[],
    startDelayMs = 0,
    native = false,
  ) {
    this.ctl = new Int32Array(memory.buffer, ctlAddr, CTL.SIZE);
    this.homes = Math.min(MAX_HOMES, scratch.length + 1);
    this.bounds = new Array<number>(this.homes + 1).fill(0);
    for (const [i, s] of scratch.entries()) {
      const worker = new Worker(new URL("./worker.mjs", import.meta.url), {
        // self: the helper's home range (the caller's is 0)
        // native: gemm chunks on the native addon, as on the caller (native.mjs)
        workerData: { module, memory, ctlAddr, scratch: s, startDelayMs, self: i + 1, native },
        // The worker is plain JS and needs none of the parent's flags (some, like --input-type, break it).
        execArgv: [],
      });
      worker.on("error", () => {
        this.broken = true;
      });
      worker.unref();
      this.workers.push(worker);
    }
  }

  /** Turns the per-job item timing (times) on or off. */
  timing(on: boolean): void {
    this.timed = on;
    Atomics.store(this.ctl, CTL.TIMING, on ? 1 : 0);
  }

  /** True once every helper can take jobs; until then the caller computes everything itself. */
  get ready(): boolean {
    return !this.broken && Atomics.load(this.ctl, CTL.READY) === this.workers.length;
  }

  /**
   * Runs gemm(args) split into `chunks` chunks of `size` rows (byRows) or columns, on this thread and the
   * helpers; returns when all are done. `scratch` is this thread's packing buffer.
   */
  run(
    exports: PoolExports,
    args: GemmArgs,
    byRows: boolean,
    size: number,
    chunks: number,
    scratch: number,
  ): void {
    const ctl = this.ctl;
    // one home range of chunks per thread (control.mjs), so a thread computes the same rows from one job to
    // the next (the native gemm's products run as such jobs, one per product)
    const homes = Math.min(this.homes, chunks);
    this.start(
      exports,
      0,
      chunks,
      scratch,
      () => {
        for (let i = 0; i < 12; i++) Atomics.store(ctl, CTL.ARGS + i, args[i]);
        Atomics.store(ctl, CTL.ARGS + 12, byRows ? 1 : 0);
        Atomics.store(ctl, CTL.ARGS + 13, size);
      },
      homes,
      evenBounds(this.bounds, homes, 0, chunks),
    );
  }

  /**
   * Runs items 0..count−1 of task `kind` (assembly/tasks.ts) on this thread and the helpers; `args` are the
   * task's arguments, already in i32 form (f32 values as their bits). Thread h takes the h-th of `homes`
   * equal shares of the items first; `bounds` (homes + 1 edges, control.mjs publishJob) sets other shares.
   * `guide` > 1: a claim takes several items (control.mjs claimSize), for jobs of many small items.
   */
  runTasks(
    exports: PoolExports,
    kind: number,
    args: ArrayLike<number>,
    count: number,
    scratch: number,
    bounds?: ArrayLike<number>,
    guide = 0,
  ): void {
    const ctl = this.ctl;
    const edges = bounds ?? evenBounds(this.bounds, this.homes, 0, count);
    this.start(
      exports,
      kind,
      count,
      scratch,
      () => {
        for (let i = 0; i < args.length; i++) Atomics.store(ctl, CTL.TASK_ARGS + i, args[i]!);
      },
      this.homes,
      edges,
      guide,
    );
  }

  private start(
    exports: PoolExports,
    kind: number,
    chunks: number,
    scratch: number,
    writeArgs: () => void,
    homes = 0,
    bounds?: ArrayLike<number>,
    guide = 0,
  ): void {
    const ctl = this.ctl;
    const seq = publishJob(ctl, kind, chunks, writeArgs, homes, bounds, guide);
    const work = this.pending;
    this.pending = undefined;
    let failure: { error: unknown } | undefined;
    if (work) {
      try {
        work();
      } catch (error) {
        failure = { error }; // thrown once the job is complete: its chunks must not be left half done
      }
    }
    runChunks(ctl, exports, scratch, seq);
    const w0 = this.timed ? performance.now() : 0;
    for (;;) {
      const done = Atomics.load(ctl, CTL.COMPLETED);
      if (done >= chunks) break;
      waitChange(ctl, CTL.COMPLETED, done);
    }
    if (this.timed) {
      this.times.waitMs += performance.now() - w0;
      this.times.busyMs += Atomics.load(ctl, CTL.BUSY) / 1e4;
      this.times.jobs++;
    }
    if (failure) throw failure.error;
    if (Atomics.load(ctl, CTL.FAILED) !== 0) {
      throw new Error(
        `${kind === 0 ? "matmul" : `task ${kind}`} failed in the WASM kernel (an operand out of bounds?)`,
      );
    }
  }

  /**
   * Runs job(), and `work` (no kernel call in it) on this thread right after job()'s first pool job is
   * published, before this thread claims chunks of it: the helpers compute meanwhile, and this thread then
   * takes what they left (which thread computes a chunk never changes its bits). When job() publishes no job,
   * work runs after it.
   */
  alongside(job: () => void, work: () => void): void {
    this.pending = work;
    let done = false;
    try {
      job();
      done = true;
    } finally {
      const left = this.pending;
      this.pending = undefined;
      if (done && left) left();
    }
  }

  /** Asks the workers to exit (they are unref'd anyway; this is for tests and explicit shutdown). */
  async stop(): Promise<void> {
    Atomics.store(this.ctl, CTL.STOP, 1);
    Atomics.add(this.ctl, CTL.SEQ, 1);
    Atomics.notify(this.ctl, CTL.SEQ);
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
