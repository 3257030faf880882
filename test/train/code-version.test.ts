import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { reachableSources, trainingCodeVersion } from "../../src/train/code-version.ts";

describe("training code version", () => {
  it("hashes the sources the pipeline reaches (engine, kernels, chat template), not tests or the CLI", () => {
    const root = join(import.meta.dirname, "../..");
    const files = reachableSources(join(root, "src/train/pipeline.ts")).map((f) => f.slice(root.length + 1));
    for (const f of [
      "src/train/pipeline.ts",
      "src/nn/llama.ts",
      "src/nn/train/trainer.ts",
      "src/nn/kernels/worker.mjs",
      "src/chat/templates/llama3.jinja",
      "src/toolgen/ids.ts",
    ])
      expect(files).toContain(f);
    expect(
      files.some((f) => f.startsWith("test/") || f.startsWith("src/cli/") || f.startsWith("build/")),
    ).toBe(false);
    const v = trainingCodeVersion();
    expect(v.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(v.files).toBeGreaterThan(files.length); // + assembly/*.ts
    expect(trainingCodeVersion()).toBe(v);
  });
});
