import { describe, expect, it } from "vitest";
import { halfOf, halfSizes, modeHalves } from "../../scripts/ablation-halves.ts";

const ids = Array.from({ length: 200 }, (_, i) => `parallel_${i}`);

describe("ablation halves", () => {
  it("splits ids by a fixed hash, roughly evenly and not by their parity", () => {
    const { a, b } = halfSizes({ parallel: ids }).parallel!;
    expect(a + b).toBe(200);
    expect(Math.abs(a - b)).toBeLessThan(30);
    const sameAsParity = ids.filter((id, i) => halfOf(id) === (i % 2 === 0 ? "a" : "b")).length;
    expect(Math.abs(sameAsParity - 100)).toBeLessThan(30);
    expect(halfOf("parallel_7")).toBe(halfOf("parallel_7"));
  });

  it("counts the items the full model wins and loses per half", () => {
    const [x, y, z] = ids;
    const h = modeHalves({ parallel: ids }, new Set([x!, y!]), new Set([y!, z!]));
    expect(h.won_items).toEqual([z]);
    expect(h.lost_items).toEqual([x]);
    expect(h[halfOf(z!)].won).toBe(1);
    expect(h[halfOf(x!)].lost).toBe(1);
    expect(h.a.won + h.b.won + h.a.lost + h.b.lost).toBe(2);
    expect(Object.keys(h.by_category)).toEqual(["parallel"]);
  });
});
