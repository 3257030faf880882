// Helper thread for the WASM matmul kernels (plain .mjs: TypeScript loaders are not guaranteed in workers).
// It shares the caller's WebAssembly.Memory, sleeps in Atomics.wait until the control block's sequence number
// changes, computes its slice of the output with the same `gemm`, then publishes completion.
import { workerData } from "node:worker_threads";
import { CTL } from "./control.mjs";

const { module, memory, ctlAddr } = workerData;
const { exports } = new WebAssembly.Instance(module, { env: { memory } });
const ctl = new Int32Array(memory.buffer, ctlAddr, CTL.SIZE);

let seen = Atomics.load(ctl, CTL.SEQ);
Atomics.store(ctl, CTL.READY, 1);
for (;;) {
  Atomics.wait(ctl, CTL.SEQ, seen);
  const seq = Atomics.load(ctl, CTL.SEQ);
  if (seq === seen) continue;
  seen = seq;
  if (Atomics.load(ctl, CTL.STOP) !== 0) break;
  let failed = 0;
  try {
    const a = CTL.ARGS;
    exports.gemm(
      ctl[a],
      ctl[a + 1],
      ctl[a + 2],
      ctl[a + 3],
      ctl[a + 4],
      ctl[a + 5],
      ctl[a + 6],
      ctl[a + 7],
      ctl[a + 8],
      ctl[a + 9],
      ctl[a + 10],
      ctl[a + 11],
      ctl[a + 12],
    );
  } catch {
    failed = 1;
  }
  Atomics.store(ctl, CTL.FAILED, failed);
  Atomics.store(ctl, CTL.DONE, seq);
  Atomics.notify(ctl, CTL.DONE);
}
