import { describe, expect, it } from "vitest";
import { averageLogProbs, ensembleName } from "../../bench/toolgen/ensemble.ts";

describe("bench:toolgen seed ensembles", () => {
  it("averages log-probabilities, not raw logits", () => {
    // a: sure of x (logit gap 10); b: mildly prefers y (gap 1) but with large logits. Raw logit sums favour y.
    const a = [
      { id: "x", score: 10 },
      { id: "y", score: 0 },
    ];
    const b = [
      { id: "y", score: 101 },
      { id: "x", score: 100 },
    ];
    const fused = averageLogProbs([a, b], 5);
    expect(fused.map((h) => h.id)).toEqual(["x", "y"]);
    // two copies of one model: its own ranking, scores its log-probabilities
    const same = averageLogProbs([b, b], 1);
    expect(same).toEqual([{ id: "y", score: expect.closeTo(-Math.log(1 + Math.exp(-1)), 9) }]);
  });

  it("gives an id one member did not return that member's lowest log-probability", () => {
    const a = [
      { id: "x", score: 2 },
      { id: "y", score: 1 },
    ];
    const b = [
      { id: "z", score: 5 },
      { id: "x", score: 4 },
    ];
    const fused = averageLogProbs([a, b], 3);
    expect(fused.map((h) => h.id)).toEqual(["x", "z", "y"]);
    expect(ensembleName(["p", "q"])).toBe("toolgen_ensemble_p+q");
  });
});
