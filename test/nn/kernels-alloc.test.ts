import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it, vi } from "vitest";
import { selectKernels } from "../../src/nn/kernels/index.ts";
import { referenceKernels } from "../../src/nn/kernels/reference.ts";
import { createWasmKernels } from "../../src/nn/kernels/wasm.ts";

describe("alloc views in shared WebAssembly memory", () => {
  const k = createWasmKernels({ threads: 1 });
  afterAll(() => k.close());

  it("hands out zeroed, aligned, non-overlapping views of the shared memory", () => {
    const x = k.alloc(3);
    const y = k.alloc(17);
    expect(x.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(x.length).toBe(3);
    expect(Array.from(y)).toEqual(new Array(17).fill(0));
    expect(x.byteOffset % 16).toBe(0);
    expect(y.byteOffset % 16).toBe(0);
    expect(y.byteOffset >= x.byteOffset + 12 || x.byteOffset >= y.byteOffset + 68).toBe(true);
    x.fill(7);
    expect(Array.from(y)).toEqual(new Array(17).fill(0));
  });

  it("keeps earlier views valid and usable by the kernels after the memory grows", () => {
    const a = k.alloc(4).fill(1);
    const pagesBefore = k.heap.memory.buffer.byteLength;
    const big = k.alloc(8 << 20); // 32 MiB: forces a grow
    expect(k.heap.memory.buffer.byteLength).toBeGreaterThan(pagesBefore);
    big[big.length - 1] = 5;
    const out = k.alloc(1);
    k.matmulABt(out, a, a, 1, 4, 1);
    expect(out[0]).toBe(4);
    expect(Array.from(a)).toEqual([1, 1, 1, 1]);
    k.free(big);
  });

  it("reuses freed blocks, zeroed again, and coalesces neighbours", () => {
    const p = k.alloc(1000).fill(3);
    const q = k.alloc(1000).fill(4);
    const guard = k.alloc(1);
    k.free(p);
    k.free(q);
    const r = k.alloc(2000);
    expect(r.byteOffset).toBe(p.byteOffset);
    expect(r.every((v) => v === 0)).toBe(true);
    k.free(r);
    k.free(guard);
  });

  it("zeroes memory that a free at the top of the heap handed back to the bump region", () => {
    const x = k.alloc(4096).fill(9);
    k.free(x);
    const y = k.alloc(4096);
    expect(y.byteOffset).toBe(x.byteOffset);
    expect(y.every((v) => v === 0)).toBe(true);
    k.free(y);
  });

  it("frees only the exact view alloc returned, once", () => {
    const x = k.alloc(64);
    expect(() => k.free(x.subarray(0, 8))).toThrow(/not returned by alloc/);
    k.free(x);
    expect(() => k.free(x)).toThrow(/freed already/);
    const y = k.alloc(64); // may reuse x's block: a stale double free of x must not release it
    expect(() => k.free(x)).toThrow(/freed already/);
    y.fill(1);
    expect(k.alloc(64).byteOffset).not.toBe(y.byteOffset);
    expect(() => k.free(new Float32Array(4))).not.toThrow(); // plain arrays belong to the GC
  });

  it("rejects bad lengths", () => {
    expect(() => k.alloc(-1)).toThrow(/non-negative integer/);
    expect(() => k.alloc(1.5)).toThrow(/non-negative integer/);
  });
});

describe("a full heap", () => {
  it("hands out plain arrays with one warning, and the kernels still compute with them", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const k = createWasmKernels({ threads: 1, maxHeapMiB: 8 });
    try {
      const inHeap = k.alloc(1 << 18); // 1 MiB fits
      const big = k.alloc(4 << 20); // 16 MiB does not
      const big2 = k.alloc(4 << 20);
      expect(inHeap.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(big.buffer).toBeInstanceOf(ArrayBuffer);
      expect(write).toHaveBeenCalledTimes(1);
      expect(String(write.mock.calls[0][0])).toMatch(/kernel heap full/);
      big.fill(1, 0, 8);
      big2.fill(2, 0, 8);
      const out = k.alloc(1);
      k.matmulABt(out, big, big2, 1, 8, 1);
      expect(out[0]).toBe(16);
    } finally {
      write.mockRestore();
      await k.close();
    }
  });
});

describe("kernel selection", () => {
  it("falls back to the reference with one warning line when the module is missing", () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const k = selectKernels({ wasmPath: "/nonexistent/kernels.wasm" });
      expect(k).toBe(referenceKernels);
      expect(write).toHaveBeenCalledTimes(1);
      const line = String(write.mock.calls[0][0]);
      expect(line).toMatch(/fast matmul kernels unavailable .*kernels\.wasm not found.*slow JS reference\n$/);
      expect(line.trim().split("\n")).toHaveLength(1);
    } finally {
      write.mockRestore();
    }
  });

  it("uses the wasm kernels when the module is built, and lets the process exit with the helper alive", () => {
    const script = [
      'import { kernels } from "./src/nn/kernels/index.ts";',
      "const k = kernels();",
      "const n = 256, a = k.alloc(n * n).fill(1), o = k.alloc(n * n);",
      "const until = Date.now() + 10000;",
      "while (!k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 10));",
      "k.matmulAB(o, a, a, n, n, n);",
      "console.log(k.name, k.parallel, o[0]);",
    ].join("\n");
    const res = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: new URL("../..", import.meta.url),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toMatch(/^wasm-simd-\d+threads true 256$/);
  });
});
