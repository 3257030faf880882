import { Worker } from "node:worker_threads";
import { CTL } from "./control.mjs";
import type { WasmMemory, WasmModule } from "./webassembly.ts";

/** The 13 arguments of the WASM `gemm` export, in order. */
export type GemmArgs = readonly number[];

/**
 * One helper worker thread sharing the caller's memory. Jobs are handed over through a control block in that
 * memory; the caller blocks in Atomics.wait for completion, so matmuls stay synchronous. The worker is
 * unref'd, so it never keeps the process alive.
 */
export class HelperThread {
  private readonly ctl: Int32Array;
  private readonly worker: Worker;
  private broken = false;

  constructor(module: WasmModule, memory: WasmMemory, ctlAddr: number) {
    this.ctl = new Int32Array(memory.buffer, ctlAddr, CTL.SIZE);
    this.worker = new Worker(new URL("./worker.mjs", import.meta.url), {
      workerData: { module, memory, ctlAddr },
      // The worker is plain JS and needs none of the parent's flags (some, like --input-type, break it).
      execArgv: [],
    });
    this.worker.on("error", () => {
      this.broken = true;
    });
    this.worker.unref();
  }

  /** True once the worker can take jobs; until then the caller computes everything itself. */
  get ready(): boolean {
    return !this.broken && Atomics.load(this.ctl, CTL.READY) === 1;
  }

  /** Hands `args` to the worker; returns immediately. */
  start(args: GemmArgs): void {
    for (let i = 0; i < args.length; i++) this.ctl[CTL.ARGS + i] = args[i];
    Atomics.add(this.ctl, CTL.SEQ, 1);
    Atomics.notify(this.ctl, CTL.SEQ);
  }

  /** Blocks until the job from the last start() is done. */
  finish(): void {
    const seq = Atomics.load(this.ctl, CTL.SEQ);
    for (;;) {
      const done = Atomics.load(this.ctl, CTL.DONE);
      if (done === seq) break;
      Atomics.wait(this.ctl, CTL.DONE, done);
    }
    if (Atomics.load(this.ctl, CTL.FAILED) !== 0) {
      throw new Error("matmul helper thread failed (out-of-bounds operand?)");
    }
  }

  /** Asks the worker to exit (it is unref'd anyway; this is for tests and explicit shutdown). */
  async stop(): Promise<void> {
    Atomics.store(this.ctl, CTL.STOP, 1);
    Atomics.add(this.ctl, CTL.SEQ, 1);
    Atomics.notify(this.ctl, CTL.SEQ);
    await this.worker.terminate();
  }
}
