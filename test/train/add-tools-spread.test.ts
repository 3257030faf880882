import { describe, expect, it } from "vitest";
import { spreadDraw, spreadSamples, spreadTotal } from "../../src/train/add-tools-spread.ts";

describe("spread replay", () => {
  const pool = Array.from({ length: 10 }, (_, i) => i);

  it("keeps the first draw, then takes the rest of the pool before any repeat", () => {
    const first = [7, 2, 5];
    const out = spreadDraw(pool, first, 14, 1);
    expect(out).toHaveLength(14);
    expect(out.slice(0, 3)).toEqual(first);
    expect(new Set(out.slice(0, 10)).size).toBe(10); // the whole pool once
    expect(out.slice(3, 10)).not.toContain(7);
    expect(spreadDraw(pool, first, 14, 1)).toEqual(out); // seeded
    expect(spreadDraw(pool, first, 14, 2)).not.toEqual(out);
    expect(spreadDraw(pool, first, 2, 1)).toEqual(first);
    expect(spreadDraw([], [], 5, 1)).toEqual([]);
  });

  it("repeats the new samples once per started epoch and counts the replay alike", () => {
    expect(spreadSamples(["a", "b"], ["x", "y", "z"], 1.5)).toEqual(["a", "b", "a", "b", "x", "y", "z"]);
    expect(spreadSamples(["a"], [], 3)).toEqual(["a", "a", "a"]);
    expect(spreadTotal(100, 2, 3)).toBe(600);
    expect(spreadTotal(100, 2, 1.5)).toBe(400);
    expect(spreadTotal(3, 0.5, 1)).toBe(2);
  });
});
