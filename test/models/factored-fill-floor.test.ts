import { describe, expect, it } from "vitest";
import { chooseFunctions, FILL_FLOOR, type FactoredWeights, type ScoredFunction } from "../../src/models/factored/decide.ts";
import { FUNCTION_DIM } from "../../src/models/factored/features.ts";

/** A function the gate is sure of (bias only), whose required parameters get a value with mean chance `fill`. */
const scoredWith = (fill: number): ScoredFunction => {
  const features = new Float32Array(FUNCTION_DIM);
  features[0] = 1;
  features[5] = fill;
  return { view: {} as ScoredFunction["view"], params: [], features };
};

const weights: FactoredWeights = {
  argument: [],
  function: [5, ...new Array<number>(FUNCTION_DIM - 1).fill(0)],
  callThreshold: 0.5,
  more: [],
  moreThreshold: 0.9,
  maxCalls: 3,
};

describe("the fill floor of the call gate", () => {
  it("declines a function whose required parameters the question cannot fill, however sure the gate is", () => {
    expect(FILL_FLOOR).toBe(0.5);
    expect(chooseFunctions([scoredWith(0.2)], weights)).toEqual([]);
    expect(chooseFunctions([scoredWith(0.9)], weights)).toHaveLength(1);
  });

  it("is off at 0, and the gate-off ablation still calls the best function", () => {
    expect(chooseFunctions([scoredWith(0.2)], weights, { fillFloor: 0 })).toHaveLength(1);
    expect(chooseFunctions([scoredWith(0.2)], weights, { gate: false })).toHaveLength(1);
  });
});
