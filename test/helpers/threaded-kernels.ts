/**
 * Kernels on several thread counts for tests that compare bits across them: starts them and waits until every
 * multi-thread one has its helper threads (a test that ran on the calling thread alone would compare nothing).
 */
import { existsSync } from "node:fs";
import { expect } from "vitest";
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
