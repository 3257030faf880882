import { afterAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { useKernels, type MatmulKernels } from "../../src/nn/kernels/index.ts";
import { DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { startKernels, bytes } from "../helpers/threaded-kernels.ts";

// The LM head's rows with a target are gathered from hF and their gradients put back into dhF (zeros elsewhere)
// by pool tasks (GATHER_ROWS, SCATTER_ROWS; issue 40): each thread copies rows of its own range instead of the
// caller reading rows the other thread wrote. The results must be the JS copies', on any thread count.

const made: WasmKernels[] = [];
let previous: MatmulKernels | undefined;
afterAll(async () => {
  if (previous) useKernels(previous);
  await Promise.all(made.map((k) => k.close()));
});

const N = 1_061; // rows of hF and dhF
const d = 128;

/** Ascending rows with a target: runs and gaps, the first and the last row among them. */
function targetRows(): Int32Array {
  const rows: number[] = [];
  for (let r = 0; r < N; r++)
    if (r === 0 || r === N - 1 || Math.sin(r * 0.11) + Math.cos(r * 0.7) > 0.3) rows.push(r);
  return Int32Array.from(rows);
}

function filled(k: MatmulKernels, n: number, seed: number): Float32Array {
  const x = k.alloc(n);
  for (let i = 0; i < n; i++) x[i] = Math.sin(i * 0.013 + seed) * 3;
  return x;
}

describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("the LM head's row gather and scatter", () => {
  it("copy the JS way on 1, 2 and 3 threads, zeros between the scattered rows", async () => {
    const kernels = await startKernels([{ threads: 1 }, { threads: 2 }, { threads: 3 }]);
    made.push(...kernels);
    const rows = targetRows();
    const M = rows.length;
    expect(M).toBeGreaterThan(300);
    expect(M).toBeLessThan(N - 300);
    for (const [i, k] of kernels.entries()) {
      previous ??= useKernels(k);
      const hF = filled(k, N * d, 1);
      const hSel = filled(k, M * d, 2);
      expect(k.gatherRows?.(hSel, hF, rows, M, d)).toBe(true);
      const want = new Float32Array(M * d);
      rows.forEach((r, j) => want.set(hF.subarray(r * d, (r + 1) * d), j * d));
      expect(bytes(hSel).equals(bytes(want)), `gather, ${i + 1} thread(s)`).toBe(true);

      const dhSel = filled(k, M * d, 3);
      const dhF = filled(k, N * d, 4).fill(Number.NaN); // every row must be written
      expect(k.scatterRows?.(dhF, dhSel, rows, M, d, N)).toBe(true);
      const put = new Float32Array(N * d);
      rows.forEach((r, j) => put.set(dhSel.subarray(j * d, (j + 1) * d), r * d));
      expect(bytes(dhF).equals(bytes(put)), `scatter, ${i + 1} thread(s)`).toBe(true);
    }
  });

  it("refuse rows that do not ascend (weight groups reorder them: the engine copies those in JS)", async () => {
    const [k] = await startKernels([{ threads: 2 }]);
    made.push(k!);
    const src = k!.alloc(2 * d);
    const out = k!.alloc(4 * d);
    expect(() => k!.scatterRows?.(out, src, Int32Array.from([2, 1]), 2, d, 4)).toThrow(/ascend/);
  });
});
