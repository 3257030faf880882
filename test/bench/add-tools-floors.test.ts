import { describe, expect, it } from "vitest";
import { C_MARGIN, rebuildFloors } from "../../bench/add-tools-floors.ts";
import { GRID, pick } from "../../bench/add-tools-calibrate.ts";

describe("rebuildFloors", () => {
  it("puts A a point under the base, B a point under the retraining, C the margin over B", () => {
    const f = rebuildFloors(79.65, 2.36);
    expect(f.A).toBeCloseTo(78.65, 10);
    expect(f.B).toBeCloseTo(76.29, 10);
    expect(f.C).toBeCloseTo(76.79, 10);
    expect(C_MARGIN).toBe(0.5);
  });

  it("makes C pick an offset that keeps more old tools than B's", () => {
    // Old dev falls and new dev rises as the offset grows.
    const curve = GRID.map((offset) => ({ offset, old_dev: 78 - offset, new_dev: 70 + offset }));
    const f = rebuildFloors(79.65, 2.36);
    const b = pick(curve, f.B)!;
    const c = pick(curve, f.C)!;
    expect(c.offset).toBeLessThan(b.offset);
    expect(c.old_dev).toBeGreaterThanOrEqual(f.C);
  });

  it("rejects a missing figure", () => {
    expect(() => rebuildFloors(NaN, 2.36)).toThrow(/must be numbers/);
  });
});
