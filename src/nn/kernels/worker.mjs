// Helper thread for the WASM matmul kernels (plain .mjs: TypeScript loaders are not guaranteed in workers).
// It shares the caller's WebAssembly.Memory, sleeps in Atomics.wait until a job is published, then claims
// chunks of it alongside the caller (control.mjs).
import { workerData } from "node:worker_threads";
import { CTL, runChunks, waitChange } from "./control.mjs";
import { loadNative, withNativeGemm } from "./native.mjs";

const { module, memory, ctlAddr, scratch, startDelayMs, self, native } = workerData;
// A helper told to start late (tests) sleeps before it counts itself ready.
if (startDelayMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, startDelayMs);
const instance = new WebAssembly.Instance(module, { env: { memory } });
// (the caller loaded the addon already: it loads here too, or the worker fails and the pool is never ready)
const exports = native ? withNativeGemm(instance.exports, memory, loadNative()) : instance.exports;
const ctl = new Int32Array(memory.buffer, ctlAddr, CTL.SIZE);

let seen = Atomics.load(ctl, CTL.SEQ);
Atomics.add(ctl, CTL.READY, 1);
for (;;) {
  waitChange(ctl, CTL.SEQ, seen);
  const seq = Atomics.load(ctl, CTL.SEQ);
  if (seq === seen) continue;
  seen = seq;
  if (Atomics.load(ctl, CTL.STOP) !== 0) break;
  runChunks(ctl, exports, scratch, seq, self);
}
