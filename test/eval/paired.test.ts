import { describe, expect, it } from "vitest";
import { erfc, pairedTop1 } from "../../src/eval/paired.ts";

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
