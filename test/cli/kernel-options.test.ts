import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { applyKernelOptions } from "../../src/cli/kernel-options.ts";
import { NATIVE_PATH } from "../../src/nn/kernels/native.mjs";

const root = mkdtempSync(join(tmpdir(), "toolgen-kernel-options-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const saved = { kernels: process.env.TOOLGEN_KERNELS, threads: process.env.TOOLGEN_KERNEL_THREADS };
afterEach(() => {
  for (const [key, value] of [
    ["TOOLGEN_KERNELS", saved.kernels],
    ["TOOLGEN_KERNEL_THREADS", saved.threads],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe("toolgen train --kernels / --threads", () => {
  it("sets the engine's kernels and threads, and refuses what it cannot run", async () => {
    await applyKernelOptions({ kernels: "reference", threads: "3" }, () => undefined);
    expect(process.env.TOOLGEN_KERNELS).toBe("reference");
    expect(process.env.TOOLGEN_KERNEL_THREADS).toBe("3");
    await applyKernelOptions({ kernels: "wasm" }, () => undefined);
    expect(process.env.TOOLGEN_KERNELS).toBeUndefined();
    await expect(applyKernelOptions({ kernels: "gpu" })).rejects.toThrow(
      /--kernels must be one of wasm, native, reference/,
    );
    await expect(applyKernelOptions({ threads: "0" })).rejects.toThrow(
      /--threads must be a positive integer/,
    );
    const missing = () => {
      throw new Error("Cannot find module 'toolgen_gemm.node'");
    };
    await expect(applyKernelOptions({ kernels: "native" }, missing)).rejects.toThrow(
      /--kernels native: the native gemm does not load here .*npm run build:native/,
    );
    expect(process.env.TOOLGEN_KERNELS).toBe(saved.kernels);
  });

  it("a bad value exits non-zero with one line on stderr and writes nothing", () => {
    const out = join(root, "bad");
    const r = spawnSync(
      process.execPath,
      ["bin/toolgen.mjs", "train", "--text", "README.md", "--out", out, "--kernels", "gpu"],
      { encoding: "utf8" },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it.skipIf(!existsSync(NATIVE_PATH))(
    "--kernels native trains with the native gemm and records it in the checkpoint",
    () => {
      const text = join(root, "corpus.txt");
      writeFileSync(
        text,
        Array.from(
          { length: 40 },
          (_, i) => `Paragraph ${i}: the weather tool returns the temperature.\n\n`,
        ).join(""),
      );
      const gemmOf = (kernels: string) => {
        const out = join(root, kernels);
        execFileSync(
          process.execPath,
          [
            "bin/toolgen.mjs",
            "train",
            "--text",
            text,
            "--out",
            out,
            "--steps",
            "2",
            "--seq-len",
            "16",
          ].concat([
            "--batch-size",
            "2",
            "--vocab-size",
            "300",
            "--no-progress",
            "--kernels",
            kernels,
            "--threads",
            "2",
          ]),
          { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TOOLGEN_KERNELS: "" } },
        );
        return JSON.parse(readFileSync(join(out, "trainer_state.json"), "utf8")).gemm;
      };
      expect(gemmOf("native")).toBe("native");
      expect(gemmOf("wasm")).toBe("wasm");
    },
    60_000,
  );
});
