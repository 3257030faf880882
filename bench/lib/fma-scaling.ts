import { Worker } from "node:worker_threads";
import { loadNative, NATIVE_PATH } from "../../src/nn/kernels/native.mjs";

/**
 * What the machine's cores make of pure FMA work at this moment: the native addon's register-only loop
 * (native/gemm.cc fmaLoop, no memory traffic) on 1 thread, then on 2 at once (this thread and a worker), in
 * GFLOPS, and their ratio. On the development VM the second vCPU added 2.07x one minute and 1.00x the next
 * (issue 40): a stage speed-up is only worth reading beside this. Null when the addon is absent.
 */
export async function fmaScaling(iterations = 40_000_000): Promise<{
  gflops_1_thread: number;
  gflops_2_threads: number;
  speedup: number;
} | null> {
  let addon;
  try {
    addon = loadNative();
  } catch {
    return null;
  }
  if (typeof addon.fmaLoop !== "function") return null;
  const lanes = addon.level === 2 ? 16 : 8;
  const flops = iterations * 12 * lanes * 2;
  const loop = addon.fmaLoop.bind(addon);
  loop(iterations / 10); // warm-up (clock ramp)
  const t0 = performance.now();
  loop(iterations);
  const one = flops / (performance.now() - t0) / 1e6;
  // the worker loads the addon, signals, waits for the start word, runs the loop
  const gate = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData: { gate, iterations, path } } = require("node:worker_threads");
     const addon = require(path);
     Atomics.store(gate, 1, 1);
     Atomics.wait(gate, 0, 0);
     addon.fmaLoop(iterations);`,
    { eval: true, workerData: { gate, iterations, path: NATIVE_PATH } },
  );
  const done = new Promise<void>((resolve, reject) => {
    worker.once("exit", () => resolve());
    worker.once("error", reject);
  });
  while (Atomics.load(gate, 1) === 0) await new Promise((r) => setTimeout(r, 5));
  const t1 = performance.now();
  Atomics.store(gate, 0, 1);
  Atomics.notify(gate, 0);
  loop(iterations);
  await done;
  const two = (2 * flops) / (performance.now() - t1) / 1e6;
  const round = (x: number, d: number) => Number(x.toFixed(d));
  return { gflops_1_thread: round(one, 1), gflops_2_threads: round(two, 1), speedup: round(two / one, 3) };
}
