import { describe, expect, it } from "vitest";
import { quotedSpans, unwrapQuoted } from "../../src/models/factored/candidates.ts";
import { assignLearned, mentionPlaces, MORE_DIM, type ScoredFunction } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { shareValues, type Call } from "../../src/models/factored/shared-values.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import type { JsonSchema, ToolJson } from "../../src/tools/types.ts";

const tool = (name: string, properties: Record<string, JsonSchema>, required: string[]): ToolJson => ({
  type: "function",
  function: { name, description: "", parameters: { type: "object", properties, required } },
});

describe("a question wrapped whole in quote marks", () => {
  it("is read without them, so the quoted texts inside are found; a quote that closes early stays", () => {
    const q = `"Find the book 'Dune' and then 'Emma', please."`;
    const un = unwrapQuoted(q);
    expect(un).toHaveLength(q.length);
    expect(quotedSpans(un, tokenize(un)).map((s) => s.text)).toEqual(["Dune", "Emma"]);
    expect(quotedSpans(q, tokenize(q)).map((s) => s.text)).toHaveLength(1);
    expect(unwrapQuoted(`"Dune" is the book I mean, and so is "Emma"`)).toBe(`"Dune" is the book I mean, and so is "Emma"`);
    expect(unwrapQuoted("plain 'text'")).toBe("plain 'text'");
    // an apostrophe inside does not close the wrapping quote
    expect(unwrapQuoted("'Get Madrid's weather'")).toBe(" Get Madrid's weather ");
  });

  it("can be turned off (questionView's unwrap)", () => {
    const q = `"Compare 'A' and 'B'"`;
    expect(questionView(q, new Set()).quoted.map((s) => s.text)).toEqual(["A", "B"]);
    expect(questionView(q, new Set(), true, true, true, true, false).quoted.map((s) => s.text)).toEqual([q.slice(1, -1)]);
  });
});

describe("segment fill", () => {
  const house = tool("predict_price", { size: { type: "integer" }, location: { type: "string" } }, ["size", "location"]);
  // the learnt "more" stand-in: yes only for a value joined to a taken one or in its frame (x[3])
  const more = { weights: [-10, 0, 0, 20, ...new Array<number>(MORE_DIM - 4).fill(0)], threshold: 0.5 };
  const sizes: Record<number, number> = { 3000: 0.4, 4000: 0.3, 5000: 0.29 };
  const places: Record<string, number> = { "New York": 0.6, "Los Angeles": 0.06, Model: 0.02 };
  const values = (question: string, segmentFill?: number) => {
    const f = functionView(house, questionView(question, new Set(["and"])), new Map());
    const scored = f.params.map((info) => ({
      info,
      probs: info.candidates.map((c) => (info.name === "size" ? (sizes[c.value as number] ?? 0) : (places[String(c.value)] ?? 0))),
      pNull: 0,
    }));
    const picked = assignLearned(f, scored, { ...more, segmentFill });
    return Object.fromEntries(picked.map((p) => [p.param.info.name, p.values.map((v) => v.value)]));
  };

  it("gives a parameter one value per call segment, cut at the joiner between the anchor's values", () => {
    const q = "price of a 3000 sq ft house in New York and a 4000 sq ft one near Los Angeles using the Model";
    // the sizes share their frame ("sq ft"), the places do not: without segment fill New York serves both calls
    expect(values(q)).toEqual({ size: [3000, 4000], location: ["New York"] });
    expect(values(q, 0.05)).toEqual({ size: [3000, 4000], location: ["New York", "Los Angeles"] });
    // a candidate under that share of the first value's chance is not taken
    expect(values(q, 0.2)).toEqual({ size: [3000, 4000], location: ["New York"] });
  });

  it("repeats a value for a segment that holds none of its own", () => {
    const q = "price of a 3000 sq ft house in New York, a 4000 sq ft one, and a 5000 sq ft one near Los Angeles";
    expect(values(q, 0.05)).toEqual({ size: [3000, 4000, 5000], location: ["New York", "New York", "Los Angeles"] });
  });
});

describe("shared values", () => {
  const status = tool("record.get_status", { name: { type: "string" }, region: { type: "string" } }, ["name"]);
  const nature = tool("record.get_offense_nature", { name: { type: "string" } }, ["name"]);
  const scoredOf = (t: ToolJson, q: string): ScoredFunction => {
    const view = functionView(t, questionView(q, new Set()), new Map());
    return { view, params: view.params.map((info) => ({ info, probs: [], pNull: 0 })), features: new Float32Array(0) };
  };

  it("passes a name one function took to a same-named text parameter written plainly in another", () => {
    const q = "the status of John Doe in Ohio and the nature of the offenses he committed";
    const chosen = [scoredOf(status, q), scoredOf(nature, q)];
    const calls: Call[][] = [
      [{ name: "record.get_status", arguments: { name: "John Doe", region: "Ohio" } }],
      [{ name: "record.get_offense_nature", arguments: { name: "offenses he committed" } }],
    ];
    shareValues(chosen, calls, new Set());
    expect(calls[1]![0]!.arguments.name).toBe("John Doe");
    // a name of its own stays
    const own: Call[][] = [calls[0]!, [{ name: "record.get_offense_nature", arguments: { name: "Jane Roe" } }]];
    shareValues(chosen, own, new Set());
    expect(own[1]![0]!.arguments.name).toBe("Jane Roe");
  });

  it("passes nothing when the other functions' names disagree", () => {
    const q = "x";
    const chosen = [scoredOf(status, q), scoredOf(nature, q)];
    const calls: Call[][] = [
      [
        { name: "record.get_status", arguments: { name: "John Doe" } },
        { name: "record.get_status", arguments: { name: "Jane Roe" } },
      ],
      [{ name: "record.get_offense_nature", arguments: { name: "offenses" } }],
    ];
    shareValues(chosen, calls, new Set());
    expect(calls[1]![0]!.arguments.name).toBe("offenses");
  });
});

describe("mentions by description words", () => {
  const withDoc = (name: string, description: string): ToolJson => {
    const t = tool(name, { a: { type: "integer" } }, ["a"]);
    return { ...t, function: { ...t.function, description } };
  };
  const gcd = withDoc("calculate_gcd", "Find the greatest common divisor of two integers.");
  const lcm = withDoc("calculate_lcm", "Find the least common multiple of two integers.");
  const scoredOf = (t: ToolJson, q: string, stats: Map<string, number>): ScoredFunction => {
    const view = functionView(t, questionView(q, new Set()), stats);
    return { view, params: [], features: new Float32Array(0) };
  };

  it("places a function whose name the question does not write at its own rarer description words", () => {
    const q = "the greatest common divisor of 56 and 98, then the least common multiple of 15 and 25";
    const stats = new Map([["commo", 0.9]]);
    const chosen = [scoredOf(gcd, q, stats), scoredOf(lcm, q, stats)];
    // gcd / lcm are their own name words, written nowhere
    expect(mentionPlaces(chosen)).toEqual([-1, -1]);
    const tokens = chosen[0]!.view.view.tokens;
    expect(mentionPlaces(chosen, 0.6)).toEqual([tokens.findIndex((t) => t.lower === "greatest"), tokens.findIndex((t) => t.lower === "least")]);
    // words both descriptions share ("common") or too common ones mention neither
    expect(mentionPlaces(chosen, 0.6).every((at) => tokens[at]!.lower !== "common")).toBe(true);
  });
});
