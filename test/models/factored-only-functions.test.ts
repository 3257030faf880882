import { describe, expect, it } from "vitest";
import { chooseFunctions, type FactoredWeights, type ScoredFunction } from "../../src/models/factored/decide.ts";
import { FUNCTION_DIM } from "../../src/models/factored/features.ts";

/** A function named `name` whose learnt call chance is sigmoid(bias); every required value fillable. */
const scored = (name: string, bias: number): ScoredFunction => {
  const features = new Float32Array(FUNCTION_DIM);
  features[0] = bias;
  features[5] = 1;
  return { view: { tool: { type: "function", function: { name } } } as unknown as ScoredFunction["view"], params: [], features };
};

const weights: FactoredWeights = {
  argument: [],
  function: [1, ...new Array<number>(FUNCTION_DIM - 1).fill(0)],
  callThreshold: 0.5,
  more: [],
  moreThreshold: 0.9,
  maxCalls: 3,
};

describe("DecideOptions.onlyFunctions (the call-count script's oracle)", () => {
  const offered = [scored("sure", 5), scored("unlikely", -5), scored("other", -5)];

  it("calls exactly the functions given, whatever the gate says", () => {
    expect(chooseFunctions(offered, weights).map((s) => s.view.tool.function.name)).toEqual(["sure"]);
    const only = chooseFunctions(offered, weights, { onlyFunctions: ["unlikely", "other"] });
    expect(only.map((s) => s.view.tool.function.name)).toEqual(["unlikely", "other"]);
  });

  it("calls none that is not offered", () => {
    expect(chooseFunctions(offered, weights, { onlyFunctions: ["missing"] })).toEqual([]);
  });
});
