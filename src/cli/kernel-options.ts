import { ToolgenError } from "../errors.ts";
import { positiveIntegerOption } from "./number-options.ts";
import { chooseTrainingKernels } from "../nn/kernels/training-kernels.ts";
import { kernelsBuilt, noteWhenKernelsBuilt } from "../nn/kernels/index.ts";
import type { NativeCheck } from "../nn/kernels/native-check.ts";

// `toolgen train --kernels NAME --threads N`: the engine's matrix-product kernels and thread count, checked before
// anything is trained or written. They are read where the engine first builds its kernels (src/nn/kernels/index.ts,
// TOOLGEN_KERNELS and TOOLGEN_KERNEL_THREADS), so the options set those; the pool's worker threads inherit them.

/**
 * The kernel families `--kernels` takes: each fixes a run's bits (the thread count does not). `auto` (the default
 * when neither --kernels nor TOOLGEN_KERNELS says): native when the addon loads and passes its self-check, else
 * wasm, with one line on stderr saying which.
 */
export const KERNEL_CHOICES = ["auto", "wasm", "native", "reference"] as const;

export interface KernelCliOptions {
  kernels?: string;
  threads?: string;
}

/** How `auto` probes the native gemm, and where its line goes (tests replace both). */
export interface AutoKernelsProbe {
  check?: () => Promise<NativeCheck>;
  log?: (line: string) => void;
}

/**
 * Applies `--kernels` and `--threads` to this process. `native` needs the addon (`npm run build:native` in a
 * checkout) and a CPU with AVX2+FMA: without them it is an error here, not a silent fall back to the slow JS
 * reference half an hour into a run. Without --kernels, a TOOLGEN_KERNELS already set is kept, else `auto`.
 */
export async function applyKernelOptions(
  opts: KernelCliOptions,
  loadNative: () => unknown | Promise<unknown> = loadNativeAddon,
  probe: AutoKernelsProbe = {},
): Promise<void> {
  if (opts.threads !== undefined)
    process.env.TOOLGEN_KERNEL_THREADS = String(positiveIntegerOption(opts.threads, "--threads"));
  if (opts.kernels === undefined && process.env.TOOLGEN_KERNELS) return;
  if (opts.kernels === undefined || opts.kernels === "auto") {
    // (the CLI run in process by tests: kernels built before keep running, whatever the choice would be)
    if (kernelsBuilt()) return;
    const choice = await chooseTrainingKernels(probe.check);
    (probe.log ?? noteWhenKernelsBuilt)(choice.line);
    if (choice.family === "native") process.env.TOOLGEN_KERNELS = "native";
    else delete process.env.TOOLGEN_KERNELS;
    return;
  }
  if (!(KERNEL_CHOICES as readonly string[]).includes(opts.kernels))
    throw new ToolgenError(
      "invalid_option",
      `--kernels must be one of ${KERNEL_CHOICES.join(", ")}, got "${opts.kernels}"`,
    );
  if (opts.kernels === "native") {
    try {
      await loadNative();
    } catch (error) {
      throw new ToolgenError(
        "invalid_option",
        `--kernels native: the native gemm does not load here (${(error as Error).message.split("\n")[0]}); ` +
          "build it with `npm run build:native` in a checkout, or --kernels wasm for the WebAssembly kernels",
      );
    }
  }
  if (opts.kernels === "wasm") delete process.env.TOOLGEN_KERNELS;
  else process.env.TOOLGEN_KERNELS = opts.kernels;
}

/** Loads the addon as the engine will (src/nn/kernels/native.mjs); throws where it cannot. */
async function loadNativeAddon(): Promise<unknown> {
  const { loadNative } = await import("../nn/kernels/native.mjs");
  return loadNative();
}
