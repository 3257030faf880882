import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";

// kernels.alongside: the trainer builds the next batch on the calling thread while the helpers start on the
// AdamW update. The work must run once, inside the job when a pool takes it, and never leave the job half done.
describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("work alongside a pool job", () => {
  const made: WasmKernels[] = [];
  afterAll(async () => {
    await Promise.all(made.map((k) => k.close()));
  });

  async function kernelsOn(threads: number): Promise<WasmKernels> {
    const k = createWasmKernels({ threads });
    made.push(k);
    const until = Date.now() + 20_000;
    while (threads > 1 && !k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(k.parallel).toBe(threads > 1);
    return k;
  }

  /** The order of events when job() zeroes a large array (a pooled job) and work() records itself. */
  function order(k: WasmKernels, x: Float32Array, work: () => void = () => {}): string[] {
    const events: string[] = [];
    x.fill(1);
    k.alongside!(
      () => {
        expect(k.fillZero!(x)).toBe(true);
        events.push("job done");
      },
      () => {
        events.push("work");
        work();
      },
    );
    return events;
  }

  it("runs the work during the pool job on 2 threads, after the job on 1, and once either way", async () => {
    const two = await kernelsOn(2);
    const x2 = two.alloc(1 << 20);
    expect(order(two, x2)).toEqual(["work", "job done"]);
    expect(x2.every((v) => v === 0)).toBe(true);
    const one = await kernelsOn(1);
    const x1 = one.alloc(1 << 20);
    expect(order(one, x1)).toEqual(["job done", "work"]);
    // a job with nothing for the pool: the work still runs, after it
    const events: string[] = [];
    two.alongside!(
      () => events.push("job"),
      () => events.push("work"),
    );
    expect(events).toEqual(["job", "work"]);
  });

  it("finishes the job before it throws what the work threw", async () => {
    const two = await kernelsOn(2);
    const x = two.alloc(1 << 20);
    const events: string[] = [];
    expect(() =>
      two.alongside!(
        () => {
          two.fillZero!(x.fill(1));
          events.push("job done");
        },
        () => {
          throw new Error("work failed");
        },
      ),
    ).toThrow("work failed");
    expect(events).toEqual([]); // the error surfaced from the job's call, once its chunks were complete
    expect(x.every((v) => v === 0)).toBe(true);
    // the pool still takes jobs
    expect(order(two, x)).toEqual(["work", "job done"]);
  });
});
