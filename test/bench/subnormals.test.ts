import { describe, expect, it } from "vitest";
import { countSubnormals } from "../../bench/lib/subnormals.ts";

describe("countSubnormals", () => {
  it("counts the floats below the smallest normal, of either sign, and nothing else", () => {
    const x = Float32Array.from([0, -0, 1e-39, -1e-40, 1.1754944e-38, 1e-45, 1, NaN, Infinity, -3e-39]);
    expect(countSubnormals(x)).toBe(4); // 1e-39, -1e-40, 1e-45 (the smallest), -3e-39
    expect(countSubnormals(x.subarray(2, 4))).toBe(2);
  });
});
