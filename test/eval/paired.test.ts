import { describe, expect, it } from "vitest";
import { erfc, holm, pairedTop1 } from "../../src/eval/paired.ts";

describe("paired top-1 comparison (McNemar)", () => {
  it("erfc matches known values", () => {
    expect(erfc(0)).toBeCloseTo(1, 6);
    expect(erfc(1)).toBeCloseTo(0.157299207, 6);
    expect(erfc(2)).toBeCloseTo(0.004677735, 6);
    expect(erfc(-1)).toBeCloseTo(1.842700793, 6);
  });

  it("counts the four cells and gives the textbook χ² and p", () => {
    // b = 25 only A, c = 10 only B: χ² = (|25 − 10| − 1)² / 35 = 5.6, p ≈ 0.018
    const a = [
      ...Array(25).fill(true),
      ...Array(10).fill(false),
      ...Array(50).fill(true),
      ...Array(15).fill(false),
    ];
    const b = [
      ...Array(25).fill(false),
      ...Array(10).fill(true),
      ...Array(50).fill(true),
      ...Array(15).fill(false),
    ];
    const r = pairedTop1(a, b);
    expect([r.both, r.onlyA, r.onlyB, r.neither]).toEqual([50, 25, 10, 15]);
    expect(r.chi2).toBeCloseTo(5.6, 10);
    expect(r.p).toBeCloseTo(0.01796, 4);
  });

  it("no discordant queries means no evidence of a difference; unequal lengths are refused", () => {
    expect(pairedTop1([true, false], [true, false])).toMatchObject({ chi2: 0, p: 1 });
    expect(() => pairedTop1([true], [true, false])).toThrow(/1 outcomes for A but 2 for B/);
  });
});

describe("Holm correction", () => {
  it("gives the textbook step-down adjustment in the input's order", () => {
    // m = 4: sorted 0.01, 0.02, 0.03, 0.5 → 0.04, max(0.04, 0.06), max(0.06, 0.06), max(0.06, 0.5)
    const adjusted = holm([0.03, 0.5, 0.01, 0.02]);
    [0.06, 0.5, 0.04, 0.06].forEach((x, i) => expect(adjusted[i]).toBeCloseTo(x, 12));
  });

  it("is monotone, capped at 1, never below the raw p, and one test is left alone", () => {
    holm([0.4, 0.3, 0.9]).forEach((p) => expect(p).toBeCloseTo(0.9, 12));
    expect(holm([0.002])).toEqual([0.002]);
    expect(holm([])).toEqual([]);
    const raw = [0.001, 0.2, 0.04, 0.04];
    holm(raw).forEach((p, i) => expect(p).toBeGreaterThanOrEqual(raw[i]!));
    expect(() => holm([1.2])).toThrow(/\[0, 1\]/);
  });
});
