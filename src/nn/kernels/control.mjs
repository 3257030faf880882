// The job protocol between the caller and the helper thread (plain JS: the worker imports it too).
// A job is one gemm split into chunks of output rows (or columns), or `count` items of a task kind
// (assembly/tasks.ts: attention per (sequence, head), elementwise ranges); every thread claims chunks from a
// shared counter until none are left, so a helper that is slow to wake (a busy machine) simply takes fewer.

/** Int32 slots of the control block in shared memory. */
export const CTL = Object.freeze({
  SEQ: 0, // job number, bumped by the caller for each job
  NEXT: 1, // (SEQ & 0xffff) << 16 | next unclaimed chunk: a claim succeeds only for the current job
  COMPLETED: 2, // chunks of the current job finished
  READY: 3, // number of helpers that have instantiated the module
  FAILED: 4, // 1 if a chunk of the current job threw
  STOP: 5, // 1 asks the helper to exit
  KIND: 6, // 0: a gemm; otherwise the task kind runTask computes (assembly/tasks.ts)
  ARGS: 8, // gemm's first 12 arguments, then: split by rows (1) or columns (0), chunk size, chunk count
  TASK_ARGS: 24, // a task's arguments (i32 slots, f32 as bits): runTask reads them in place
  SIZE: 40,
});

/**
 * NEXT between two jobs: chunk 0xffff, past the last chunk of any job (MAX_ITEMS), so no thread claims from it.
 * The caller stores it before it writes a new job's arguments: a helper that read NEXT of the finished job and then
 * stalled could otherwise see the new job's chunk count, win its compare-exchange on the old NEXT before the new
 * one is published, and run (and count as completed) a chunk of the new job that is then computed again.
 */
export const CLOSED = 0xffff;

/**
 * Publishes job `kind` of `chunks` chunks: closes the finished job's NEXT first, then the count, then
 * `writeArgs()` (the job's arguments), then NEXT and SEQ of the new job; returns its number.
 */
export function publishJob(ctl, kind, chunks, writeArgs) {
  Atomics.store(ctl, CTL.NEXT, CLOSED);
  Atomics.store(ctl, CTL.KIND, kind);
  Atomics.store(ctl, CTL.ARGS + 14, chunks);
  Atomics.store(ctl, CTL.COMPLETED, 0);
  Atomics.store(ctl, CTL.FAILED, 0);
  writeArgs();
  const seq = (Atomics.load(ctl, CTL.SEQ) + 1) | 0;
  Atomics.store(ctl, CTL.NEXT, (seq & 0xffff) << 16);
  Atomics.store(ctl, CTL.SEQ, seq);
  Atomics.notify(ctl, CTL.SEQ);
  return seq;
}

/**
 * Chunks of `size` rows (or columns) over `extent`: a last chunk of fewer than 4 rows joins the one before it,
 * because the gemm computes fewer than 4 rows another way (dot products, assembly/matmul.ts SMALL_M) with other
 * bits than the 4-row tiles the unsplit product uses for them.
 */
export function chunkCount(extent, size) {
  const count = Math.ceil(extent / size);
  return count > 1 && extent - (count - 1) * size < 4 ? count - 1 : count;
}

/** Task kinds of assembly/tasks.ts. */
export const TASK = Object.freeze({
  ATTENTION_FORWARD: 1,
  ATTENTION_BACKWARD: 2,
  SWIGLU_FORWARD: 3,
  SWIGLU_BACKWARD: 4,
  ADD: 5,
  RMSNORM_FORWARD: 6,
  MOVE_HEADS: 7,
  // the training step's (assembly/train-tasks.ts)
  RMSNORM_BACKWARD: 8,
  CROSS_ENTROPY: 9,
  ADAMW: 10,
  SUM_SQUARES: 11,
  SCALE: 12,
  FILL_ZERO: 13,
  EMBEDDING_GRAD: 14,
  EMBEDDING_ROWS: 15,
  AVERAGE: 16,
  SUM_PARTIALS: 17,
  GEMM_SPLIT_K: 18,
  GEMM_BATCH: 19,
});

/**
 * How many times a thread polls for the next job (or for the last chunks of its own) before it looks at the clock:
 * a step hands the pool a few hundred jobs with microseconds of caller work between them, and a thread that is
 * still polling takes the next one without the tens of microseconds a wake-up costs.
 */
export const SPIN = 8000;

/**
 * How long (ms) a thread keeps polling before it sleeps in Atomics.wait. The caller's JavaScript between two
 * jobs of a training step took 23–114 µs (10th to 90th percentile, traced on the 2-core machine under load,
 * issue 40), longer than SPIN polls (~30–90 µs): a helper that slept after SPIN polls missed the start of most
 * jobs by a wake-up.
 */
export const SPIN_MS = 0.3;

/** Waits until ctl[index] differs from `value`: polls SPIN times, then until SPIN_MS have passed, then sleeps. */
export function waitChange(ctl, index, value) {
  for (let i = 0; i < SPIN; i++) if (Atomics.load(ctl, index) !== value) return;
  const until = performance.now() + SPIN_MS;
  do {
    for (let i = 0; i < 512; i++) if (Atomics.load(ctl, index) !== value) return;
  } while (performance.now() < until);
  Atomics.wait(ctl, index, value);
}

/**
 * Claims and computes chunks of job `seq` until none are left. `exports` holds the WASM exports gemm and
 * runTask; `scratch` is the calling thread's scratch (packing buffers).
 */
export function runChunks(ctl, exports, scratch, seq) {
  const a = CTL.ARGS;
  for (;;) {
    const next = Atomics.load(ctl, CTL.NEXT);
    if (next >>> 16 !== (seq & 0xffff)) return;
    const i = next & 0xffff;
    const chunks = Atomics.load(ctl, a + 14);
    if (i >= chunks) return;
    if (Atomics.compareExchange(ctl, CTL.NEXT, next, next + 1) !== next) continue;
    // The job cannot change while it has an unclaimed chunk, so these arguments belong to it.
    const kind = Atomics.load(ctl, CTL.KIND);
    if (kind !== 0) {
      try {
        exports.runTask(kind, i, ctl.byteOffset + CTL.TASK_ARGS * 4, scratch);
      } catch {
        Atomics.store(ctl, CTL.FAILED, 1);
      }
      Atomics.add(ctl, CTL.COMPLETED, 1);
      Atomics.notify(ctl, CTL.COMPLETED);
      continue;
    }
    const arg = (k) => Atomics.load(ctl, a + k);
    let [c, ldc, pa, rsa, csa, pb, rsb, csb, M, N] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(arg);
    const size = arg(13);
    const start = i * size;
    // the last chunk takes all that is left (chunkCount() never leaves it fewer than 4 rows)
    const last = i === chunks - 1;
    if (arg(12) === 1) {
      M = last ? M - start : size;
      c += start * ldc * 4;
      pa += start * rsa * 4;
    } else {
      N = last ? N - start : size;
      c += start * 4;
      pb += start * csb * 4;
    }
    try {
      exports.gemm(c, ldc, pa, rsa, csa, pb, rsb, csb, M, N, arg(10), arg(11), scratch);
    } catch {
      Atomics.store(ctl, CTL.FAILED, 1);
    }
    Atomics.add(ctl, CTL.COMPLETED, 1);
    Atomics.notify(ctl, CTL.COMPLETED);
  }
}
