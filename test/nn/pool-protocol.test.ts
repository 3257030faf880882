import { describe, expect, it } from "vitest";
import { CTL, publishJob, runChunks } from "../../src/nn/kernels/control.mjs";

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
});
