import { describe, expect, it } from "vitest";
import { C_MARGIN, floorD, goalLines, rebuildFloors, recordedCurve } from "../../bench/add-tools-floors.ts";
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

describe("floorD and goalLines", () => {
  it("puts D a point under the rebuilt retraining's old dev, and each line a point under its retraining's test", () => {
    expect(floorD(78.1)).toBeCloseTo(77.1, 10);
    const lines = goalLines(79.3, 78.52);
    expect(lines.rebuilt).toBeCloseTo(78.3, 10);
    expect(lines.recorded).toBeCloseTo(77.52, 10);
  });

  it("picks, under D, the best new dev among offsets whose old dev clears it", () => {
    const curve = GRID.map((offset) => ({ offset, old_dev: 78 - offset, new_dev: 70 + offset }));
    const d = floorD(78.1);
    const p = pick(curve, d)!;
    expect(p.old_dev).toBeGreaterThanOrEqual(d);
    expect(pick(curve, d + 0.05)!.offset).toBeLessThan(p.offset);
  });

  it("rejects a missing figure", () => {
    expect(() => floorD(NaN)).toThrow(/must be a number/);
    expect(() => goalLines(79, Number.NaN)).toThrow(/must be numbers/);
  });
});

describe("recordedCurve", () => {
  it("gives back the points a recorded curve was written from, so that D picks as on the live curve", () => {
    const curve = GRID.map((offset) => ({ offset, old_dev: 78 - offset, new_dev: 70 + offset }));
    const back = recordedCurve(
      GRID,
      curve.map((p) => p.old_dev),
      curve.map((p) => p.new_dev),
    );
    expect(back).toEqual(curve);
    expect(pick(back, floorD(78.1))).toEqual(pick(curve, floorD(78.1)));
  });

  it("rejects a curve whose length is not the grid's", () => {
    expect(() => recordedCurve(GRID, [1, 2], [1, 2])).toThrow(/2 old and 2 new figures for 321 offsets/);
  });
});
