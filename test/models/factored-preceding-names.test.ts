import { describe, expect, it } from "vitest";
import { functionView, pairFeatures, questionView } from "../../src/models/factored/features.ts";
import { otherNameBefore } from "../../src/models/factored/preceding-names.ts";
import { tool } from "./factored-fixtures.ts";

describe("factored caller: the parameter named last before a value", () => {
  const cagr = tool("calculate_cagr", {
    initial_value: { type: "integer", description: "The initial investment value." },
    final_value: { type: "integer", description: "The final investment value." },
    period_in_years: { type: "integer", description: "The period in years." },
  });
  const q = "Calculate the CAGR for an initial investment of $2000, final value of $3000 in a period of 4 years.";
  const x48 = (precedingNames: boolean | undefined, param: string, value: number) => {
    const f = functionView(cagr, { ...questionView(q, new Set()), precedingNames }, new Map());
    const p = f.params.find((k) => k.name === param)!;
    return pairFeatures(f, p, p.candidates.find((c) => c.value === value)!)[48];
  };

  it("reads another parameter's own name words written nearer before the span than this one's", () => {
    // "final" stands right before "value of $3000": 3000 is no initial value, and 2000 follows "initial" alone
    expect(x48(undefined, "initial_value", 3000)).toBeCloseTo(1 / 4);
    expect(x48(undefined, "initial_value", 2000)).toBe(0);
    // "initial" is 4 words before 2000, "final" after it: the name after a value does not claim it
    expect(x48(undefined, "final_value", 2000)).toBeCloseTo(1 / 4);
    expect(x48(undefined, "final_value", 3000)).toBe(0);
  });

  it("is 0 with precedingNames off (the ablation)", () => {
    expect(x48(false, "initial_value", 3000)).toBe(0);
    expect(x48(false, "final_value", 2000)).toBe(0);
  });

  it("counts a parameter's own words only: words every parameter of the family shares name none of them", () => {
    const stems = (...w: string[]) => new Set(w);
    const tokens = ["the", "final", "value", "of", "5"].map((stem) => ({ stem }));
    expect(otherNameBefore(tokens, stems("initi"), [stems("final")], 4)).toBeCloseTo(1 / 3);
    expect(otherNameBefore(tokens, stems("final"), [stems("initi")], 4)).toBe(0);
  });
});
