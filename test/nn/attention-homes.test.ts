import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { attentionWorkBounds } from "../../src/nn/kernels/attention-homes.ts";
import { DEFAULT_WASM_PATH } from "../../src/nn/kernels/wasm.ts";
import {
  attentionBackwardRows,
  attentionForwardRows,
  attentionProbsSize,
  type AttentionShape,
} from "../../src/nn/layers/attention.ts";
import { bytes, kernelsOnThreads, seededFill } from "../helpers/threaded-kernels.ts";

// The attention job's homes are cut by each (sequence, head) item's causal-triangle work, not by rows (issue 40,
// h40k): a packed row of one long sample and many short ones gave the home of the long one most of the work.
// Which thread computes an item must not change a bit.

const H = 4;
const hd = 32;
// one packed row of 256: a long sample first, then short ones (a cut at row 128 left home 1 a sixth of the work)
const lengths = [120, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8];
const starts = lengths.map((_, i) => lengths.slice(0, i).reduce((a, b) => a + b, 0));
const s: AttentionShape = {
  B: 1,
  H,
  T: 256,
  hd,
  spans: Int32Array.from(lengths.flatMap((L, i) => [starts[i]!, L])),
};
const N = s.B * s.T;

/** (at, pAt, L) per (sample, head) in row order, as layers/attention.ts gives the kernels (pAt unused here). */
function rowItems(): Int32Array {
  return Int32Array.from(
    lengths.flatMap((L, i) =>
      Array.from({ length: H }, (_, h) => [starts[i]! * H * hd + h * hd, 0, L]).flat(),
    ),
  );
}

/** Each home's triangle work under bounds b. */
function homeWork(items: Int32Array, b: readonly number[]): number[] {
  const work: number[] = [];
  for (let h = 0; h + 1 < b.length; h++) {
    let w = 0;
    for (let i = b[h]!; i < b[h + 1]!; i++) w += (items[3 * i + 2]! * (items[3 * i + 2]! + 1)) / 2;
    work.push(w);
  }
  return work;
}

describe("the attention job's home ranges", () => {
  it("give each home its share of the triangle work, within the largest item", () => {
    const items = rowItems();
    const largest = (120 * 121) / 2;
    for (const homes of [2, 3, 5]) {
      const b = attentionWorkBounds(items, homes, []);
      expect(b[0]).toBe(0);
      expect(b[homes]).toBe(items.length / 3);
      for (let h = 0; h < homes; h++) expect(b[h + 1]!).toBeGreaterThanOrEqual(b[h]!);
      const work = homeWork(items, b);
      const total = work.reduce((a, c) => a + c, 0);
      for (const w of work) expect(Math.abs(w - total / homes)).toBeLessThanOrEqual(largest);
    }
  });
});

describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("attention split by work on the threads", () => {
  const kernels = kernelsOnThreads();

  it("gives the same bits on 1, 2 and 3 threads", () => {
    const outputs = kernels.map((k) => {
      const fill = seededFill(k, 7);
      const [q, kk, v, dO] = Array.from({ length: 4 }, () => fill(N * H * hd));
      const P = k.alloc(attentionProbsSize(s));
      const O = k.alloc(N * H * hd);
      const [dQ, dK, dV] = [0, 1, 2].map(() => k.alloc(N * H * hd));
      attentionForwardRows(k, O, P, q!, kk!, v!, s);
      attentionBackwardRows(k, dQ!, dK!, dV!, dO!, P, q!, kk!, v!, k.alloc(64 * s.T), s);
      return [O, P, dQ!, dK!, dV!].map(bytes);
    });
    for (const out of outputs.slice(1))
      for (let j = 0; j < out.length; j++) expect(out[j]!.equals(outputs[0]![j]!)).toBe(true);
  });
});
