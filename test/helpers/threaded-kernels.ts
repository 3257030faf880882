/**
 * Kernels on several thread counts for tests that compare bits across them: starts them and waits until every
 * multi-thread one has its helper threads (a test that ran on the calling thread alone would compare nothing).
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";
import { loadNative, NATIVE_PATH } from "../../src/nn/kernels/native.mjs";
import { createWasmKernels, type WasmKernelOptions, type WasmKernels } from "../../src/nn/kernels/wasm.ts";

/** The bytes of a kernel buffer, for exact comparison. */
export const bytes = (x: Float32Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);

/** Whether the native gemm addon is built here and loads. */
export function nativeUsable(): boolean {
  if (!existsSync(NATIVE_PATH)) return false;
  try {
    loadNative();
    return true;
  } catch {
    return false;
  }
}

/** One kernel set per option set, each with threads > 1 started (up to 20 s) before it returns. */
export async function startKernels(options: WasmKernelOptions[]): Promise<WasmKernels[]> {
  const kernels = options.map((o) => createWasmKernels(o));
  const started = () => kernels.every((k, i) => (options[i]!.threads ?? 1) <= 1 || k.parallel);
  const until = Date.now() + 20_000;
  while (!started() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(started(), "helper threads did not start").toBe(true);
  return kernels;
}

/**
 * Kernels on 1, 2 and 3 threads of each kernel family built here (WebAssembly, and native where it loads), started
 * before the describe block's tests and closed after them: the array fills in beforeAll.
 */
export function kernelsOnThreads(): WasmKernels[] {
  const kernels: WasmKernels[] = [];
  beforeAll(async () => {
    const families = nativeUsable() ? [false, true] : [false];
    kernels.push(
      ...(await startKernels(
        families.flatMap((native) => [1, 2, 3].map((threads) => ({ threads, native }))),
      )),
    );
  });
  afterAll(async () => {
    for (const k of kernels) await k.close();
  });
  return kernels;
}

/** A filler of kernel buffers with the same pseudo-random values for the same seed (uniform in ±scale/2). */
export function seededFill(k: WasmKernels, seed: number): (n: number, scale?: number) => Float32Array {
  return (n, scale = 0.2) => {
    const a = k.alloc(n);
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      a[i] = (seed / 2 ** 32 - 0.5) * scale;
    }
    return a;
  };
}
