import { describe, expect, it } from "vitest";
import { claimSize, CTL, evenBounds, publishJob, runChunks } from "../../src/nn/kernels/control.mjs";

// The interleaving a busy machine allows: a helper reads NEXT of a finished job, stalls, and resumes while the
// caller is half-way through publishing the next job (its chunk count and arguments stored, its NEXT not yet).
// Replayed on one thread: the helper runs inside publishJob's argument step. It must claim nothing, or it would
// run a chunk of the new job that the job then runs again (twice into an accumulating output) and count a
// completion the job never had, so the caller could go on before the job's last chunk is written.
describe("thread-pool job protocol", () => {
  it("a helper still on the finished job claims no chunk of the one being published", () => {
    const ctl = new Int32Array(new SharedArrayBuffer(CTL.SIZE * 4));
    const ran: number[] = [];
    const exports = { gemm: () => {}, runTask: (_kind: number, item: number) => void ran.push(item) };
    const first = publishJob(ctl, 9, 2, () => {});
    runChunks(ctl, exports, 0, first); // the caller runs both chunks of job 1
    expect(ran).toEqual([0, 1]);
    ran.length = 0;
    Atomics.store(ctl, CTL.COMPLETED, 2);
    const second = publishJob(ctl, 10, 5, () => runChunks(ctl, exports, 0, first)); // the stalled helper
    expect(ran).toEqual([]);
    expect(Atomics.load(ctl, CTL.COMPLETED)).toBe(0);
    runChunks(ctl, exports, 0, second);
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    expect(Atomics.load(ctl, CTL.COMPLETED)).toBe(5);
  });

  it("home ranges: the shared items first, then the thread's own range, then the others' in turn", () => {
    const ctl = new Int32Array(new SharedArrayBuffer(CTL.SIZE * 4));
    const ran: number[] = [];
    const exports = { gemm: () => {}, runTask: (_kind: number, item: number) => void ran.push(item) };
    // 2 items for every thread first (a GEMM's packing), then homes 2..4 and 5..8
    const seq = publishJob(ctl, 19, 9, () => {}, 2, [2, 5, 9]);
    runChunks(ctl, exports, 0, seq, 1); // thread 1 alone: its home, then thread 0's
    expect(ran).toEqual([0, 1, 5, 6, 7, 8, 2, 3, 4]);
    ran.length = 0;
    const again = publishJob(ctl, 19, 9, () => {}, 2, [2, 5, 9]);
    runChunks(ctl, exports, 0, again, 0);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(evenBounds([0, 0, 0, 0], 3, 0, 8)).toEqual([0, 2, 5, 8]);
  });

  it("a helper still on a finished job with home ranges claims nothing of the next one", () => {
    const ctl = new Int32Array(new SharedArrayBuffer(CTL.SIZE * 4));
    const ran: number[] = [];
    const exports = { gemm: () => {}, runTask: (_kind: number, item: number) => void ran.push(item) };
    const first = publishJob(ctl, 9, 4, () => {}, 2, [0, 2, 4]);
    runChunks(ctl, exports, 0, first, 0);
    expect(ran).toEqual([0, 1, 2, 3]);
    ran.length = 0;
    Atomics.store(ctl, CTL.COMPLETED, 4);
    // the stalled helper runs while the next job (other ranges, no prefix) is half-published, then after it
    const second = publishJob(ctl, 10, 6, () => runChunks(ctl, exports, 0, first, 1), 2, [0, 3, 6]);
    expect(ran).toEqual([]);
    runChunks(ctl, exports, 0, first, 1);
    expect(ran).toEqual([]);
    runChunks(ctl, exports, 0, second, 1);
    expect(ran).toEqual([3, 4, 5, 0, 1, 2]);
    expect(Atomics.load(ctl, CTL.COMPLETED)).toBe(6);
  });

  it("a guided job claims several items at a time, each item once, the last ones singly", () => {
    expect([20, 9, 4, 3, 1].map((left) => claimSize(left, 4))).toEqual([5, 2, 1, 1, 1]);
    expect(claimSize(20, 0)).toBe(1);
    const ctl = new Int32Array(new SharedArrayBuffer(CTL.SIZE * 4));
    const ran: number[] = [];
    const exports = { gemm: () => {}, runTask: (_kind: number, item: number) => void ran.push(item) };
    // 3 shared items, then homes 3..12 and 13..22, a claim taking a quarter of what is left of its range
    const seq = publishJob(ctl, 1, 23, () => {}, 2, [3, 13, 23], 4);
    // (each claim adds its items to COMPLETED once)
    const completed: number[] = [];
    const add = Atomics.add;
    Atomics.add = ((array: Int32Array, index: number, value: number) => {
      if (array === ctl && index === CTL.COMPLETED) completed.push(value);
      return add(array, index, value);
    }) as typeof Atomics.add;
    try {
      runChunks(ctl, exports, 0, seq, 1);
    } finally {
      Atomics.add = add;
    }
    expect(ran).toEqual([
      0,
      1,
      2,
      ...Array.from({ length: 10 }, (_, i) => 13 + i),
      3,
      4,
      5,
      6,
      7,
      8,
      9,
      10,
      11,
      12,
    ]);
    expect(Atomics.load(ctl, CTL.COMPLETED)).toBe(23);
    // one completion count per claim: 3 single shared items, then 2, 2, 1, 1, 1, 1, 1, 1 of each home
    expect(completed).toEqual([1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1]);
  });
});
