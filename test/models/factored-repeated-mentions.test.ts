import { describe, expect, it } from "vitest";
import { FactoredCallerModel } from "../../src/models/caller-factored.ts";
import { mentionEvents, repeatedSegments, segmentOwners, type MentionEvent } from "../../src/models/factored/repeated-mentions.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import type { JsonSchema, ToolJson } from "../../src/tools/types.ts";

const tool = (name: string, properties: Record<string, JsonSchema>, required: string[]): ToolJson => ({
  type: "function",
  function: { name, description: "", parameters: { type: "object", properties, required } },
});

describe("repeated mentions: a function named again after another's mention", () => {
  it("finds each function's mentions in order, a run of one function's as one", () => {
    const t = tokenize("Inspect the bridge Alpha, then the ferry timetable for Beta, then inspect the bridge Gamma and the ferry timetable for Delta");
    const events = mentionEvents(t, [new Set(["inspe", "bridg"]), new Set(["ferry", "timet"])]);
    expect(events.map((e) => e.fn)).toEqual([0, 1, 0, 1]);
    expect(events.map((e) => t[e.at]!.text)).toEqual(["Inspect", "ferry", "inspect", "ferry"]);
    // "the ferry Delta" alone holds one of its two own words: no mention where another place holds both
    expect(mentionEvents(tokenize("the ferry timetable for Beta and the ferry Delta"), [new Set(["ferry", "timet"])])).toHaveLength(1);
  });

  it("counts a mention only where the own words stand together as much as anywhere", () => {
    // the "city" of "capital city" is no mention of largest_city: "largest city" holds two of its words
    const t = tokenize("What is the capital city of Peru, and the largest city in Chile?");
    const events = mentionEvents(t, [new Set(["capit"]), new Set(["large", "city"])]);
    expect(events.map((e) => t[e.at]!.text)).toEqual(["capital", "largest"]);
  });

  it("cuts the question at each mention", () => {
    expect(segmentOwners(6, [0, 2, 4])).toEqual([0, 0, 1, 1, 2, 2]);
    expect(segmentOwners(5, [1, 3])).toEqual([0, 0, 0, 1, 1]);
  });

  it("keeps mentions whose segments hold values, and stays one segment per function otherwise", () => {
    const ev = (...fns: number[]): MentionEvent[] => fns.map((fn, at) => ({ at: at * 5, fn }));
    // A B A B, every segment holding its values: four calls' segments
    expect(repeatedSegments(ev(0, 1, 0, 1), 2, (e) => e.map(() => true))?.events).toHaveLength(4);
    // each function mentioned once: nothing to do
    expect(repeatedSegments(ev(0, 1), 2, (e) => e.map(() => true))).toBeUndefined();
    // an introduction that names both (no values) joins the segment before it: the rest still repeats
    const intro = repeatedSegments(ev(0, 1, 0, 1, 0), 2, (e) => (e.length === 5 ? [false, false, true, true, true] : e.map(() => true)));
    expect(intro?.events.map((e) => e.fn)).toEqual([0, 1, 0]);
    // a function left with no segment that holds its values: the segments stay one per function
    expect(repeatedSegments(ev(0, 1, 0), 2, (e) => e.map((x) => x.fn === 0))).toBeUndefined();
  });

  it("gives the factored caller one call per request where a function is asked for again (off: one fewer)", () => {
    const inspect = tool("bridge_inspection.schedule", { bridge_name: { type: "string", description: "The bridge's name." } }, ["bridge_name"]);
    const ferry = tool("ferry_timetable.get", { port: { type: "string", description: "The port's name." } }, ["port"]);
    const q =
      "Schedule a bridge inspection for 'Golden Gate', then get the ferry timetable for 'Sausalito'. After that, schedule another bridge inspection for 'Bay Bridge', and get the ferry timetable for 'Oakland'.";
    const calls = (options = {}) =>
      FactoredCallerModel.load("models/caller", options)
        .calls([inspect, ferry], q)
        .map((c) => `${c.name}:${Object.values(c.arguments).join()}`)
        .sort();
    expect(calls()).toEqual([
      "bridge_inspection.schedule:Bay Bridge",
      "bridge_inspection.schedule:Golden Gate",
      "ferry_timetable.get:Oakland",
      "ferry_timetable.get:Sausalito",
    ]);
    expect(calls({ repeatMentions: false })).not.toEqual(calls());
  });
});
