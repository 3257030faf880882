import { describe, expect, it } from "vitest";
import { isLlamaCppSpec, llamaCppAvailable } from "../../../src/models/llamacpp.ts";
import { resolveGgufFile } from "../../../src/models/llamacpp/runtime.ts";
import { resolveModel } from "../../../src/models/resolve.ts";

const available = await llamaCppAvailable();
if (!available)
  console.warn("SKIP: node-llama-cpp (optional dependency) cannot load here; hf: resolution test skipped.");

describe("gguf: and hf: model specs", () => {
  it("recognises llama.cpp specs", () => {
    expect(isLlamaCppSpec("gguf:/m.gguf")).toBe(true);
    expect(isLlamaCppSpec("hf:user/repo/model.Q4_K_M.gguf")).toBe(true);
    expect(isLlamaCppSpec("models/x.gguf")).toBe(true);
    expect(isLlamaCppSpec("builtin:dir")).toBe(false);
    expect(isLlamaCppSpec(undefined)).toBe(false);
  });

  it("rejects missing files and malformed specs with a clear error", async () => {
    await expect(resolveGgufFile("gguf:/nonexistent/model.gguf")).rejects.toThrow(/does not exist/);
    await expect(resolveGgufFile("gguf:")).rejects.toThrow(/expected gguf:PATH/);
    await expect(resolveGgufFile("hf:onlyuser")).rejects.toThrow(/expected hf:USER\/REPO\/FILE/);
    await expect(resolveModel("gguf:/nonexistent/model.gguf")).rejects.toThrow(/does not exist/);
  });

  it.skipIf(!available)(
    "resolves hf: specs through node-llama-cpp's resolver (cache only, no network)",
    async () => {
      await expect(
        resolveGgufFile("hf:toolgen-test/none/none.gguf", {
          download: false,
          directory: "/nonexistent-cache",
        }),
      ).rejects.toThrow(/hf_toolgen-test_none_none.gguf.*download is disabled/);
    },
  );
});
