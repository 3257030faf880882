import { nativeSelfCheck, type NativeCheck } from "./native-check.ts";

// Which matrix products a training run uses when nobody said (issue 40): the native gemm trains about twice as
// fast as the WebAssembly kernels on an AVX2/AVX-512 CPU, so it is the default wherever it is built, loads and
// computes the reference's products; the WebAssembly kernels stay one option away for bytes that are the same
// on every machine. Inference keeps the process default (WebAssembly): only training pays the check.

/** The family a training run picked, and the one line that says which and how to get the other. */
export interface TrainingKernelsChoice {
  family: "native" | "wasm";
  line: string;
}

/**
 * Picks a training run's kernels: `native` when the addon loads and passes `nativeSelfCheck` (small products
 * against the JS reference), else `wasm`. Does not switch anything: the caller sets TOOLGEN_KERNELS (the CLI) or
 * builds the kernels itself.
 */
export async function chooseTrainingKernels(
  check: () => Promise<NativeCheck> = nativeSelfCheck,
): Promise<TrainingKernelsChoice> {
  const found = await check();
  if (found.ok)
    return {
      family: "native",
      line:
        `toolgen: training with the native gemm (${found.tiles} tiles, checked against the reference); ` +
        "--kernels wasm for the WebAssembly kernels, whose bytes are the same on every machine",
    };
  if (found.loads)
    return {
      family: "wasm",
      line:
        `toolgen: the native gemm failed its self-check (${found.why}); training with the WebAssembly kernels ` +
        "(rebuild it with `npm run build:native`)",
    };
  return {
    family: "wasm",
    line:
      `toolgen: training with the WebAssembly kernels (the native gemm does not load: ${found.why}); ` +
      "`npm run build:native` in a checkout builds it, about twice as fast (--kernels native)",
  };
}
