import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { applyKernelOptions } from "../../src/cli/kernel-options.ts";
import { NATIVE_PATH } from "../../src/nn/kernels/native.mjs";
import { nativeSelfCheck, type NativeCheck } from "../../src/nn/kernels/native-check.ts";

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
      /--kernels must be one of auto, wasm, native, reference/,
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

  it("without --kernels, picks native when the addon loads and passes its self-check, else wasm, in one line", async () => {
    const pick = async (found: NativeCheck, opts = {}, env?: string) => {
      if (env === undefined) delete process.env.TOOLGEN_KERNELS;
      else process.env.TOOLGEN_KERNELS = env;
      const lines: string[] = [];
      let checked = false;
      const check = async () => ((checked = true), found);
      await applyKernelOptions(opts, () => undefined, { check, log: (l) => lines.push(l) });
      return { kernels: process.env.TOOLGEN_KERNELS, lines, checked };
    };
    const passes: NativeCheck = { ok: true, tiles: "AVX2" };
    // present and right: native, and the line says how to get the same bytes everywhere
    const present = await pick(passes);
    expect(present.kernels).toBe("native");
    expect(present.lines).toHaveLength(1);
    expect(present.lines[0]).toMatch(/training with the native gemm \(AVX2 tiles.*--kernels wasm/);
    // absent: WebAssembly, and how to build the native gemm
    const absent = await pick({ ok: false, loads: false, why: "Cannot find module" });
    expect(absent.kernels).toBeUndefined();
    expect(absent.lines).toEqual([
      expect.stringMatching(/training with the WebAssembly kernels.*build:native/),
    ]);
    // loads but computes wrong products: WebAssembly, and the line says so
    const wrong = await pick({ ok: false, loads: true, why: "its AB product is off" });
    expect(wrong.kernels).toBeUndefined();
    expect(wrong.lines).toEqual([expect.stringMatching(/failed its self-check \(its AB product is off\)/)]);
    // forced: --kernels wasm / native, or TOOLGEN_KERNELS already set, are taken as they are, unchecked and silent
    for (const [opts, env, want] of [
      [{ kernels: "wasm" }, undefined, undefined],
      [{ kernels: "native" }, undefined, "native"],
      [{}, "wasm", "wasm"],
      [{}, "reference", "reference"],
      [{ kernels: "wasm" }, "native", undefined],
    ] as const) {
      const forced = await pick(passes, opts, env);
      expect([opts, env, forced]).toEqual([opts, env, { kernels: want, lines: [], checked: false }]);
    }
    // --kernels auto asks even over TOOLGEN_KERNELS
    expect(await pick(passes, { kernels: "auto" }, "wasm")).toMatchObject({
      kernels: "native",
      checked: true,
    });
  });

  it.skipIf(!existsSync(NATIVE_PATH))(
    "the self-check passes on the built addon, and fails a wrong gemm",
    async () => {
      expect(await nativeSelfCheck()).toMatchObject({ ok: true });
      // and fails a gemm whose ABt products are off by 1e-3 of an element
      const off = await nativeSelfCheck((k) => ({
        ...k,
        matmulABt(out, a, b, M, K, N, accumulate) {
          k.matmulABt(out, a, b, M, K, N, accumulate);
          out[out.length - 1] += 1e-3 * Math.max(1, Math.abs(out[out.length - 1]!));
        },
      }));
      expect(off).toMatchObject({ ok: false, loads: true, why: expect.stringMatching(/ABt product 5×3×7/) });
    },
  );

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
    "--kernels native, wasm and the automatic choice train with what they say and record it in the checkpoint",
    () => {
      const text = join(root, "corpus.txt");
      writeFileSync(
        text,
        Array.from(
          { length: 40 },
          (_, i) => `Paragraph ${i}: the weather tool returns the temperature.\n\n`,
        ).join(""),
      );
      let lastStderr = "";
      const gemmOf = (kernels: string) => {
        const out = join(root, kernels || "auto");
        const r = spawnSync(
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
            ...(kernels ? ["--kernels", kernels] : []),
            "--threads",
            "2",
          ]),
          {
            stdio: ["ignore", "pipe", "pipe"],
            env: { ...process.env, TOOLGEN_KERNELS: "" },
            encoding: "utf8",
          },
        );
        lastStderr = r.stderr;
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(readFileSync(join(out, "trainer_state.json"), "utf8")).gemm;
      };
      expect(gemmOf("native")).toBe("native");
      expect(gemmOf("wasm")).toBe("wasm");
      expect(lastStderr).not.toMatch(/training with/);
      // no --kernels: the native gemm where it is built and checks out (as here), one line on stderr saying so
      expect(gemmOf("")).toBe("native");
      expect(lastStderr).toMatch(/^toolgen: training with the native gemm .*--kernels wasm/m);
    },
    60_000,
  );
});
