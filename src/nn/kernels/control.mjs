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
  GUIDE: 7, // 0 or 1: one item a claim; g > 1: a claim takes 1/g of what is left of its range (at least one)
  ARGS: 8, // gemm's first 12 arguments, then: split by rows (1) or columns (0), chunk size, chunk count
  TASK_ARGS: 24, // a task's arguments (i32 slots, f32 as bits): runTask reads them in place
  HOMES: 40, // home ranges of the current job (0: every chunk is claimed from NEXT)
  BOUNDS: 41, // HOMES + 1 item indices: home h holds items BOUNDS[h]..BOUNDS[h+1]; items below BOUNDS[0] use NEXT
  HOME_NEXT: 41 + 33, // per home: (SEQ & 0xffff) << 16 | items of the home claimed so far
  SLEEPERS: 41 + 33 + 32, // threads asleep in Atomics.wait (waitChange): SEQ and COMPLETED are notified only then
  TIMING: 41 + 33 + 32 + 1, // 1: every thread adds the time it spends computing items to BUSY (kernel statistics)
  BUSY: 41 + 33 + 32 + 2, // with TIMING: the current job's item time of all threads, in units of 0.1 µs
  SIZE: 41 + 33 + 32 + 3,
});

/**
 * Most home ranges in a job. A home range is the items one thread takes first, before it helps with the
 * others': thread t starts at home t, so the thread that wrote rows r..r' of an activation in one job reads
 * and writes them again in the next (a job's row chunks are cut the same way each time). Two cores of the
 * 2-core machine pay for a cache line the other one wrote last: gradient clipping's scale after the norm's
 * sum took 3.3 ms when each thread claimed any chunk, 1.0 ms when each went on with its own (issue 40).
 */
export const MAX_HOMES = 32;

/**
 * NEXT between two jobs: chunk 0xffff, past the last chunk of any job (MAX_ITEMS), so no thread claims from it.
 * The caller stores it before it writes a new job's arguments: a helper that read NEXT of the finished job and then
 * stalled could otherwise see the new job's chunk count, win its compare-exchange on the old NEXT before the new
 * one is published, and run (and count as completed) a chunk of the new job that is then computed again.
 */
export const CLOSED = 0xffff;

/**
 * Publishes job `kind` of `chunks` chunks: closes the finished job's NEXT and home counters first, then the
 * count, then `writeArgs()` (the job's arguments), the home ranges, then NEXT, the home counters and SEQ of the
 * new job; returns its number. `homes`: 0 (every chunk from NEXT) or the number of home ranges, `bounds` their
 * homes + 1 edges (bounds[0]: the chunks before it are claimed from NEXT by every thread first, bounds[homes]
 * = chunks). Which thread runs a chunk never changes what it computes: homes only make it the same thread.
 * `guide` (GUIDE): how many items a claim takes.
 */
export function publishJob(ctl, kind, chunks, writeArgs, homes = 0, bounds = undefined, guide = 0) {
  Atomics.store(ctl, CTL.NEXT, CLOSED);
  const before = Atomics.load(ctl, CTL.HOMES);
  for (let h = 0; h < before; h++) Atomics.store(ctl, CTL.HOME_NEXT + h, CLOSED);
  Atomics.store(ctl, CTL.KIND, kind);
  Atomics.store(ctl, CTL.GUIDE, guide);
  Atomics.store(ctl, CTL.ARGS + 14, chunks);
  Atomics.store(ctl, CTL.COMPLETED, 0);
  Atomics.store(ctl, CTL.FAILED, 0);
  Atomics.store(ctl, CTL.BUSY, 0);
  writeArgs();
  Atomics.store(ctl, CTL.HOMES, homes);
  for (let h = 0; homes > 0 && h <= homes; h++) Atomics.store(ctl, CTL.BOUNDS + h, bounds[h]);
  const seq = (Atomics.load(ctl, CTL.SEQ) + 1) | 0;
  const open = (seq & 0xffff) << 16;
  for (let h = 0; h < homes; h++) Atomics.store(ctl, CTL.HOME_NEXT + h, open);
  Atomics.store(ctl, CTL.NEXT, open);
  Atomics.store(ctl, CTL.SEQ, seq);
  wake(ctl, CTL.SEQ);
  return seq;
}

/**
 * Writes into `bounds` `homes` home ranges of equal size over chunks `first`..`chunks` (a job of items in
 * order, rows for instance: home h gets the h-th share of them); returns `bounds`.
 */
export function evenBounds(bounds, homes, first, chunks) {
  for (let h = 0; h <= homes; h++) bounds[h] = first + Math.floor(((chunks - first) * h) / homes);
  return bounds;
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
  ROPE_ROWS: 20,
  GATHER_ROWS: 21,
  SCATTER_ROWS: 22,
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

/**
 * Waits until ctl[index] differs from `value`: polls SPIN times, then until SPIN_MS have passed, then sleeps,
 * counted in SLEEPERS while it may (wake()).
 */
export function waitChange(ctl, index, value) {
  for (let i = 0; i < SPIN; i++) if (Atomics.load(ctl, index) !== value) return;
  const until = performance.now() + SPIN_MS;
  do {
    for (let i = 0; i < 512; i++) if (Atomics.load(ctl, index) !== value) return;
  } while (performance.now() < until);
  Atomics.add(ctl, CTL.SLEEPERS, 1);
  Atomics.wait(ctl, index, value);
  Atomics.sub(ctl, CTL.SLEEPERS, 1);
}

/**
 * Wakes the threads asleep on ctl[index], which the caller has just changed; none when no thread sleeps (the
 * usual case: they poll between a step's jobs), so the claims of a job do not each take the lock Atomics.notify
 * takes. No wake-up is lost: a thread counts itself in SLEEPERS before Atomics.wait compares ctl[index], the
 * caller reads SLEEPERS after it changed ctl[index] (both sequentially consistent), so either the caller sees the
 * sleeper and notifies, or the sleeper sees the new value and does not sleep.
 */
export function wake(ctl, index) {
  if (Atomics.load(ctl, CTL.SLEEPERS) > 0) Atomics.notify(ctl, index);
}

/**
 * Items a claim takes when `left` items of its range are unclaimed: one, or with a guide g > 1 (GUIDE) 1/g of
 * them: a job of many small items (attention's (sequence, head) pairs, the gradient norm's slices) pays the
 * claim and completion counters once per claim instead of once per item, and its last claims are still single
 * items, so the threads end together. Which thread computes an item never changes its bits.
 */
export function claimSize(left, guide) {
  return guide > 1 ? Math.max(1, Math.floor(left / guide)) : 1;
}

/**
 * Claims and computes chunks of job `seq` until none are left: those claimed from NEXT (all of them, or those
 * before the home ranges), then thread `self`'s home range, then what is left of the others' in turn.
 * `exports` holds the WASM exports gemm and runTask; `scratch` is the calling thread's scratch (packing buffers).
 */
export function runChunks(ctl, exports, scratch, seq, self = 0) {
  const tag = seq & 0xffff;
  for (;;) {
    const next = Atomics.load(ctl, CTL.NEXT);
    if (next >>> 16 !== tag) return;
    const i = next & 0xffff;
    const homes = Atomics.load(ctl, CTL.HOMES);
    const end = homes > 0 ? Atomics.load(ctl, CTL.BOUNDS) : Atomics.load(ctl, CTL.ARGS + 14);
    if (i >= end) break;
    const take = claimSize(end - i, Atomics.load(ctl, CTL.GUIDE));
    if (Atomics.compareExchange(ctl, CTL.NEXT, next, next + take) !== next) continue;
    // The job cannot change while it has an unclaimed chunk, so its arguments (read in run) belong to it.
    run(ctl, exports, scratch, i, i + take);
  }
  const homes = Math.min(MAX_HOMES, Atomics.load(ctl, CTL.HOMES));
  for (let k = 0; k < homes; k++) {
    const h = (self + k) % homes;
    for (;;) {
      const next = Atomics.load(ctl, CTL.HOME_NEXT + h);
      if (next >>> 16 !== tag) return; // the job is over (closed, or a later one)
      const i = Atomics.load(ctl, CTL.BOUNDS + h) + (next & 0xffff);
      const end = Atomics.load(ctl, CTL.BOUNDS + h + 1);
      if (i >= end) break;
      const take = claimSize(end - i, Atomics.load(ctl, CTL.GUIDE));
      if (Atomics.compareExchange(ctl, CTL.HOME_NEXT + h, next, next + take) !== next) continue;
      run(ctl, exports, scratch, i, i + take);
    }
  }
}

/**
 * Computes chunks i0..i1−1 of the current job and counts them completed; with TIMING, adds the time they took
 * to BUSY first (before COMPLETED: the caller reads BUSY once every chunk is complete).
 */
function run(ctl, exports, scratch, i0, i1) {
  const kind = Atomics.load(ctl, CTL.KIND);
  const t0 = Atomics.load(ctl, CTL.TIMING) !== 0 ? performance.now() : -1;
  for (let i = i0; i < i1; i++) {
    try {
      if (kind !== 0) exports.runTask(kind, i, ctl.byteOffset + CTL.TASK_ARGS * 4, scratch);
      else gemmChunk(ctl, exports, scratch, i);
    } catch {
      Atomics.store(ctl, CTL.FAILED, 1);
    }
  }
  if (t0 >= 0) Atomics.add(ctl, CTL.BUSY, Math.round((performance.now() - t0) * 1e4));
  Atomics.add(ctl, CTL.COMPLETED, i1 - i0);
  wake(ctl, CTL.COMPLETED);
}

/** Chunk i of a gemm job (kind 0: modules without runTask). */
function gemmChunk(ctl, exports, scratch, i) {
  const arg = (k) => Atomics.load(ctl, CTL.ARGS + k);
  let [c, ldc, pa, rsa, csa, pb, rsb, csb, M, N] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(arg);
  const size = arg(13);
  const start = i * size;
  // the last chunk takes all that is left (chunkCount() never leaves it fewer than 4 rows)
  const last = i === arg(14) - 1;
  if (arg(12) === 1) {
    M = last ? M - start : size;
    c += start * ldc * 4;
    pa += start * rsa * 4;
  } else {
    N = last ? N - start : size;
    c += start * 4;
    pb += start * csb * 4;
  }
  exports.gemm(c, ldc, pa, rsa, csa, pb, rsb, csb, M, N, arg(10), arg(11), scratch);
}
