import { afterAll, describe, expect, it } from "vitest";
import { gemmFamily, kernels, nativeSelfCheck, useTrainingKernels } from "../../src/nn/kernels/index.ts";

// The library's way to train with the kernels `toolgen train` picks (its own process: it sets the engine's kernels).
const saved = process.env.TOOLGEN_KERNELS;
afterAll(() => {
  if (saved === undefined) delete process.env.TOOLGEN_KERNELS;
  else process.env.TOOLGEN_KERNELS = saved;
});

describe("useTrainingKernels", () => {
  it("makes the engine's kernels the native gemm exactly where it passes its self-check, then refuses to switch", async () => {
    delete process.env.TOOLGEN_KERNELS;
    const choice = await useTrainingKernels();
    const found = await nativeSelfCheck();
    expect(choice?.family).toBe(found.ok ? "native" : "wasm");
    expect(gemmFamily(kernels().name)).toBe(choice?.family);
    await expect(useTrainingKernels()).rejects.toThrow(/already built/);
  });
});
