import { describe, expect, it } from "vitest";
import { candidatesFor, paramKind } from "../../src/models/factored/candidates.ts";
import { assignLearned } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { COMMON_WORDS, dropCommonWords } from "../../src/models/factored/common-words.ts";
import { joinNumberCommas, numberCommaRanges } from "../../src/models/factored/number-commas.ts";
import { strictMentions } from "../../src/models/factored/strict-mentions.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import type { JsonSchema, ToolJson } from "../../src/tools/types.ts";

const tool = (name: string, description: string, properties: Record<string, JsonSchema>): ToolJson => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required: Object.keys(properties) } },
});

describe("strict mentions", () => {
  const displacement = tool("kinematics.calculate_displacement", "Calculate the displacement of an object.", {
    initial_speed: { type: "number", description: "The initial speed of the object." },
    time: { type: "number" },
  });
  const finalSpeed = tool("kinematics.calculate_final_speed", "Calculate the final speed of an object.", {
    initial_speed: { type: "number" },
    time: { type: "number" },
  });
  const mentions = (question: string, tools: ToolJson[], docs?: number) => {
    const view = questionView(question, new Set());
    return strictMentions(
      tools.map((t) => ({ view: functionView(t, view, new Map()) })),
      docs,
    );
  };

  it("a name word another function documents (its parameter's name) is no strict mention", () => {
    // "speed" is calculate_final_speed's own name word, but the displacement function's initial_speed too
    expect(mentions("the displacement of a car at an initial speed of 20 m/s for 5 s", [displacement, finalSpeed])).toEqual([true, false]);
  });

  it("a name word no other documents is", () => {
    expect(mentions("the displacement, and the final speed, of a car at 20 m/s for 5 s", [displacement, finalSpeed])).toEqual([true, true]);
  });

  it("own description words count only with docs, and only when rarer than docs", () => {
    const a = tool("f_one", "Counts the penguins.", { x: { type: "number" } });
    const b = tool("f_two", "Weighs the walruses.", { y: { type: "number" } });
    expect(mentions("penguins please", [a, b])).toEqual([false, false]);
    expect(mentions("penguins please", [a, b], 0.6)).toEqual([true, false]);
    expect(mentions("penguins please", [a, b], 0)).toEqual([false, false]);
  });
});

describe("a capitalised word and a number, a comma and a number", () => {
  const ranges = (q: string) => numberCommaRanges(tokenize(q)).map(([s, e]) => [s, e]);

  it("is one span across its comma, a suffix on the number kept", () => {
    const q = "lawsuits filed after January 1, 2021 in California";
    const t = tokenize(q);
    expect(numberCommaRanges(t).map(([s, e]) => q.slice(t[s]!.start, t[e - 1]!.end))).toEqual(["January 1, 2021"]);
    const r = "the visit on March 10th, 2023.";
    const u = tokenize(r);
    expect(numberCommaRanges(u).map(([s, e]) => r.slice(u[s]!.start, u[e - 1]!.end))).toEqual(["March 10th, 2023"]);
  });

  it("is not a run of numbers, a lower-case word's, or numbers glued without a space", () => {
    expect(ranges("Grades 12, 24, 36 and 48")).toEqual([]);
    expect(ranges("values 12, 24")).toEqual([]);
    expect(ranges("point Paris 46.6,1.88")).toEqual([]);
  });

  it("is offered to text parameters, not numbers, and can be turned off", () => {
    const q = "Who won on Jan 28, 2021?";
    const view = questionView(q, new Set());
    const text = candidatesFor(view, paramKind({ type: "string" })).map((c) => c.value);
    expect(text).toContain("Jan 28, 2021");
    expect(candidatesFor(view, paramKind({ type: "integer" })).map((c) => c.value)).toEqual([28, 2021]);
    view.numberCommas = false;
    expect(candidatesFor(view, paramKind({ type: "string" })).map((c) => c.value)).not.toContain("Jan 28, 2021");
  });

  it("takes the chance of the spans inside it", () => {
    const span = (value: string, start: number, end: number) => ({ family: "span", value, start, end, quoted: false });
    const cands = [span("Jan", 0, 1), span("Jan 28", 0, 2), span("2021", 3, 4), span("Jan 28, 2021", 0, 4), span("won", 5, 6)];
    const probs = [0.2, 0.3, 0.1, 0.05, 0.25, 0.1];
    joinNumberCommas(cands, probs);
    expect(probs[3]).toBeCloseTo(0.65 / 1.6);
    expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(probs[4]).toBeCloseTo(0.25 / 1.6);
  });
});

describe("everyday words as values", () => {
  const building = tool("analyze_structure", "", { building_id: { type: "string" } });
  const chances = (question: string, stats: Map<string, number>, limit = COMMON_WORDS) => {
    const f = functionView(building, questionView(question, new Set()), stats);
    const cands = f.params[0]!.candidates;
    const raw = cands.map((c) => (c.value === "with" || c.value === "With" ? 5 : c.value === "B1004" ? 2 : 1));
    const sum = raw.reduce((a, b) => a + b, 0);
    const probs = [...raw.map((x) => x / sum), 0];
    dropCommonWords(f, cands, probs, limit);
    expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    return Object.fromEntries(cands.map((c, i) => [String(c.value), probs[i]!]));
  };

  it("a one-word lower-case value commoner than the limit takes no chance; the rest scale back to 1", () => {
    const p = chances("the building with building Id B1004", new Map([["with", 0.86]]));
    expect(p.with).toBe(0);
    // B1004 gains what "with" lost, in proportion
    const before = chances("the building with building Id B1004", new Map([["with", 0.86]]), 1);
    expect(p.B1004! / before.B1004!).toBeCloseTo(1 / (1 - before.with!));
  });

  it("keeps rarer words, capitalised or quoted ones, and everything with the limit at 1", () => {
    const kept = chances("the building with building Id B1004", new Map([["with", 0.3]])).with;
    expect(kept).toBeGreaterThan(0);
    expect(chances("the building 'with' building Id B1004", new Map([["with", 0.86]])).with).toBeGreaterThan(0);
    expect(chances("the building With building Id B1004", new Map([["with", 0.86]])).With).toBeGreaterThan(0);
    expect(chances("the building with building Id B1004", new Map([["with", 0.86]]), 1).with).toBe(kept);
  });
});

describe("an enum member written in the question", () => {
  const hours = tool("get_museum_hours", "", {
    museum_name: { type: "string" },
    day: { type: "string", enum: ["Monday", "Saturday"] },
  });
  const values = (enumSpent?: boolean) => {
    const view = questionView("hours of the Metropolitan Museum on Saturday", new Set());
    if (enumSpent === false) view.enumSpent = false;
    const f = functionView(hours, view, new Map());
    const chance = (name: string, v: unknown) =>
      name === "day" ? (v === "Saturday" ? 0.9 : 0.1) : v === "Saturday" ? 0.6 : v === "Metropolitan Museum" ? 0.3 : 0;
    const scored = f.params.map((info) => ({ info, probs: info.candidates.map((c) => chance(info.name, c.value)), pNull: 0 }));
    return Object.fromEntries(assignLearned(f, scored, undefined).map((p) => [p.param.info.name, p.values[0]!.value]));
  };

  it("spends the words that write it, so no other parameter takes them", () => {
    expect(values()).toEqual({ day: "Saturday", museum_name: "Metropolitan Museum" });
  });

  it("leaves them free with enumSpent off", () => {
    expect(values(false)).toEqual({ day: "Saturday", museum_name: "Saturday" });
  });
});
