import { describe, expect, it } from "vitest";
import { downsampleCurve } from "../../src/train/pipeline.ts";

describe("stage loss curves", () => {
  const curve = Array.from({ length: 1000 }, (_, i) => ({ step: i + 1, loss: 1000 - i }));

  it("keeps short curves as they are", () => {
    expect(downsampleCurve(curve.slice(0, 5), 200)).toEqual(curve.slice(0, 5));
    expect(downsampleCurve([], 200)).toEqual([]);
  });

  it("averages runs of consecutive steps and ends at the last step", () => {
    const d = downsampleCurve(curve, 200);
    expect(d).toHaveLength(200);
    expect(d[0]).toEqual({ step: 5, loss: 998 }); // mean of 1000…996
    expect(d.at(-1)).toEqual({ step: 1000, loss: 3 });
    expect(downsampleCurve(curve.slice(0, 401), 200)).toHaveLength(134); // buckets of 3
  });
});
