import { describe, expect, it } from "vitest";
import {
  duplicateCount,
  ndcgAtK,
  ndcgToolGenAtK,
  quantile,
  recallAtK,
  reciprocalRank,
} from "../../src/eval/metrics.ts";

const d = (rank: number): number => 1 / Math.log2(rank + 1); // rank is 1-based

describe("ranking metrics", () => {
  const ranked = ["x", "a", "y", "b", "z"];
  const relevant = ["a", "b", "c"];

  it("standard NDCG@k divides by the ideal over all relevant items", () => {
    const dcg = d(2) + d(4);
    expect(ndcgAtK(ranked, relevant, 5)).toBeCloseTo(dcg / (d(1) + d(2) + d(3)), 12);
    expect(ndcgAtK(ranked, relevant, 1)).toBe(0);
    expect(ndcgAtK(["a"], ["a"], 3)).toBe(1);
  });

  it("ToolGen's NDCG@k builds the ideal from the relevant items that were retrieved", () => {
    // sklearn.ndcg_score([[0,1,0,1,0]], [[5,4,3,2,1]], k=5) = (1/log2(3) + 1/log2(5)) / (1 + 1/log2(3))
    expect(ndcgToolGenAtK(ranked, relevant, 5)).toBeCloseTo((d(2) + d(4)) / (d(1) + d(2)), 12);
    expect(ndcgToolGenAtK(ranked, relevant, 3)).toBeCloseTo(d(2) / (d(1) + d(2)), 12);
    expect(ndcgToolGenAtK(["x", "y"], relevant, 5)).toBe(0);
    expect(ndcgToolGenAtK(ranked, relevant, 5)).toBeGreaterThan(ndcgAtK(ranked, relevant, 5));
  });

  it("recall@k and reciprocal rank", () => {
    expect(recallAtK(ranked, relevant, 2)).toBeCloseTo(1 / 3, 12);
    expect(recallAtK(ranked, relevant, 5)).toBeCloseTo(2 / 3, 12);
    expect(reciprocalRank(ranked, relevant)).toBe(0.5);
    expect(reciprocalRank(["x"], relevant)).toBe(0);
  });

  it("counts an id the list repeats once, at its first rank (the repeat keeps its slot, gains nothing)", () => {
    const doubled = ["a", "a", "x", "b"];
    // Counted twice, DCG would be d(1) + d(2) over an ideal of d(1): above 1.
    expect(ndcgAtK(doubled, ["a"], 5)).toBe(1);
    expect(ndcgToolGenAtK(doubled, ["a"], 5)).toBe(1);
    expect(ndcgAtK(doubled, ["a", "b"], 5)).toBeCloseTo((d(1) + d(4)) / (d(1) + d(2)), 12);
    expect(ndcgToolGenAtK(["a", "a", "b"], ["a", "b"], 3)).toBeCloseTo((d(1) + d(3)) / (d(1) + d(2)), 12);
    expect(recallAtK(doubled, ["a", "b"], 2)).toBe(0.5);
    expect(reciprocalRank(["x", "a", "a"], ["a"])).toBe(0.5);
    expect(duplicateCount(doubled)).toBe(1);
    expect(duplicateCount(["a", "a", "a", "b", "b"])).toBe(3);
    expect(duplicateCount(ranked)).toBe(0);
  });

  it("nearest-rank quantiles", () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
    expect(quantile([], 0.5)).toBe(0);
  });
});
