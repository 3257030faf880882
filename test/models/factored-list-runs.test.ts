import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/models/factored/candidates.ts";
import { assignLearned, MORE_DIM } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { extendsRun, type Link } from "../../src/models/factored/list-runs.ts";
import type { ToolJson } from "../../src/tools/types.ts";

describe("list runs", () => {
  // "A, B, C and D, if E": spans at tokens 0, 2, 4, 6, 8 (A..E)
  const span = (value: string, start: number): Candidate => ({ family: "span", value, start, end: start + 1, quoted: false });
  const [a, b, c, d, e] = ["A", "B", "C", "D", "E"].map((v, i) => span(v, 2 * i)) as [Candidate, Candidate, Candidate, Candidate, Candidate];
  const seps: Record<number, Link> = { 1: "comma", 3: "comma", 5: "word", 7: "comma" };
  const link = (x: Candidate, y: Candidate): Link => (y.start === x.end + 1 ? seps[x.end] : undefined);

  it("takes a value that makes a run of three with a taken value and a rival", () => {
    // D taken: C is joined to it by a joiner word, and B to C by a comma
    expect(extendsRun([d], c, { link, rivals: [a, b, c, e] })).toBe(true);
    // the run already two long (C, D taken): B joins it
    expect(extendsRun([d, c], b, { link, rivals: [a, b, e] })).toBe(true);
  });

  it("takes no pair alone, and no value after a comma past the list's end", () => {
    // C and D alone: no third value to make a run
    expect(extendsRun([d], c, { link, rivals: [c] })).toBe(false);
    // E follows D after a comma alone: lists put their commas before the joiner word
    expect(extendsRun([d, c], e, { link, rivals: [a, b, e] })).toBe(false);
  });

  // the learnt "more" model says no to everything (weights 0: a chance of 0.5 under the threshold 0.9)
  const weather: ToolJson = {
    type: "function",
    function: { name: "get_current_weather", description: "", parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] } },
  };
  const locations = (listRuns: boolean) => {
    const view = questionView("the temperature in New York, Los Angeles, London and Tokyo, if I want", new Set(["and"]));
    const f = functionView(weather, view, new Map());
    const chance: Record<string, number> = { Tokyo: 0.5, "Los Angeles": 0.25, London: 0.1, "New York": 0.05, Angeles: 0.02, "if I": 0.02 };
    const scored = f.params.map((info) => ({ info, probs: info.candidates.map((k) => chance[String(k.value)] ?? 0), pNull: 0 }));
    const more = { weights: new Array<number>(MORE_DIM).fill(0), threshold: 0.9, listRuns };
    return assignLearned(f, scored, more)[0]!.values.map((v) => v.value);
  };

  it("a run of four places joined by commas and a joiner word is a list, the learnt 'more' saying no", () => {
    expect(locations(true)).toEqual(["New York", "Los Angeles", "London", "Tokyo"]);
    expect(locations(false)).toEqual(["Tokyo"]);
  });
});
