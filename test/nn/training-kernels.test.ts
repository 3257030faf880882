import { afterAll, describe, expect, it, vi } from "vitest";
import {
  gemmFamily,
  kernels,
  nativeSelfCheck,
  pinWasmKernels,
  useTrainingKernels,
} from "../../src/nn/kernels/index.ts";

// The library's way to train with the kernels `toolgen train` picks (its own process: it sets the engine's kernels).
const saved = process.env.TOOLGEN_KERNELS;
afterAll(() => {
  if (saved === undefined) delete process.env.TOOLGEN_KERNELS;
  else process.env.TOOLGEN_KERNELS = saved;
});

describe("pinWasmKernels (the committed models' rebuilds)", () => {
  it("overrides TOOLGEN_KERNELS=native with one line, before any kernels are built", () => {
    process.env.TOOLGEN_KERNELS = "native";
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      pinWasmKernels("the committed demo model");
      expect(process.env.TOOLGEN_KERNELS).toBe("wasm");
      expect(err.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(
          /the committed demo model is built with the WebAssembly kernels.*=native left aside/,
        ),
      ]);
    } finally {
      err.mockRestore();
    }
  });
});

describe("useTrainingKernels", () => {
  it("makes the engine's kernels the native gemm exactly where it passes its self-check, then refuses to switch", async () => {
    delete process.env.TOOLGEN_KERNELS;
    const choice = await useTrainingKernels();
    const found = await nativeSelfCheck();
    expect(choice?.family).toBe(found.ok ? "native" : "wasm");
    expect(gemmFamily(kernels().name)).toBe(choice?.family);
    await expect(useTrainingKernels()).rejects.toThrow(/already built/);
    if (choice?.family === "native") expect(() => pinWasmKernels("a model")).toThrow(/WebAssembly/);
  });
});
