import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/models/factored/candidates.ts";
import { argumentsOf, MORE_DIM, type FactoredWeights, type ScoredFunction } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { widenedClaim } from "../../src/models/factored/widened-claims.ts";
import type { ToolJson } from "../../src/tools/types.ts";

const flight: ToolJson = {
  type: "function",
  function: {
    name: "flight.book",
    description: "",
    parameters: {
      type: "object",
      properties: { departure: { type: "string" }, destination: { type: "string" } },
      required: ["departure", "destination"],
    },
  },
};

const weights: FactoredWeights = { argument: [], function: [], callThreshold: 0.3, more: new Array<number>(MORE_DIM).fill(0), moreThreshold: 0.9, maxCalls: 3 };

/**
 * The flight's calls where its segment is the sentence holding `segmentWord`, the other sentence another
 * function's, which takes `claimedText` first; `chance` gives each quoted value's chance per parameter.
 */
function flightCalls(question: string, segmentWord: string, claimedText: string, chance: Record<string, Record<string, number>>, claimed?: boolean) {
  const view = questionView(question, new Set(["and"]));
  const f = functionView(flight, view, new Map());
  const t = view.tokens;
  const stop = t.findIndex((k) => k.text === ".");
  const mine = t.findIndex((k) => k.text === segmentWord) < stop ? (i: number) => i <= stop : (i: number) => i > stop;
  const allowed = (c: Candidate) => c.start < 0 || mine(c.start);
  const q = view.quoted.find((x) => x.text === claimedText)!;
  const params = f.params.map((info) => {
    const probs = info.candidates.map((c) => (c.quoted ? (chance[info.name]![String(c.value)] ?? 0) : 0));
    return { info, probs, pNull: 0 };
  });
  const s: ScoredFunction = { view: f, params, features: new Float32Array(0) };
  return argumentsOf(s, weights, { parallel: false, claimed }, allowed, [[q.start, q.end]]);
}

/** The destination with widenWeak 8 (before 2026-12-06 12:10 UTC), nothing claimed. */
function argumentsWith8(question: string, chance: Record<string, Record<string, number>>): unknown {
  const view = questionView(question, new Set(["and"]));
  const f = functionView(flight, view, new Map());
  const stop = view.tokens.findIndex((k) => k.text === ".");
  const params = f.params.map((info) => ({ info, probs: info.candidates.map((c) => (c.quoted ? (chance[info.name]![String(c.value)] ?? 0) : 0)), pNull: 0 }));
  const s: ScoredFunction = { view: f, params, features: new Float32Array(0) };
  return argumentsOf(s, weights, { parallel: false, widenWeak: 8 }, (c) => c.start < 0 || c.start <= stop, [])[0]!.arguments.destination;
}

describe("widened claims", () => {
  const question = "Book a flight from 'Los Angeles' to 'New York'. Also show the stats on the 'PlayStation' platform.";
  const chance = {
    departure: { "Los Angeles": 0.5, "New York": 0.01, PlayStation: 0.3 },
    destination: { "Los Angeles": 0.1, "New York": 0.02, PlayStation: 0.5 },
  };

  it("keeps a value another function takes first in its later segment out of reach of a weak parameter", () => {
    expect(flightCalls(question, "flight", "PlayStation", chance)).toEqual([{ name: "flight.book", arguments: { departure: "Los Angeles", destination: "New York" } }]);
  });

  it("lets the parameter take it with the claims off (widenWeak alone)", () => {
    expect(flightCalls(question, "flight", "PlayStation", chance, false)[0]!.arguments.destination).toBe("PlayStation");
  });

  it("still lets a value said once before the segment serve a later function", () => {
    // the flight's segment is the second sentence; 'Los Angeles' is claimed in the first, said once for both
    const q = "Show the stats for 'Los Angeles'. Also book a flight there to 'New York'.";
    const c = { departure: { "Los Angeles": 0.6, "New York": 0.05 }, destination: { "Los Angeles": 0.1, "New York": 0.7 } };
    expect(flightCalls(q, "flight", "Los Angeles", c)).toEqual([{ name: "flight.book", arguments: { departure: "Los Angeles", destination: "New York" } }]);
  });

  it("widens only past 16 times the chance in the segment (WIDEN_WEAK)", () => {
    // the destination wants the unclaimed 'Boston' outside 12 times as much as 'New York' inside: it stays
    const q = "Book a flight from 'Los Angeles' to 'New York'. Also show the stats for 'Boston'.";
    const c = { departure: { "Los Angeles": 0.5 }, destination: { "New York": 0.04, Boston: 0.48 } };
    expect(flightCalls(q, "flight", "Los Angeles", c)[0]!.arguments.destination).toBe("New York");
    expect(argumentsWith8(q, c)).toBe("Boston");
  });

  it("reads a claim as any overlap of places", () => {
    const c: Candidate = { family: "span", value: "x", start: 3, end: 5, quoted: false };
    expect(widenedClaim(c, [[4, 6]])).toBe(true);
    expect(widenedClaim(c, [[5, 6]])).toBe(false);
    expect(widenedClaim(c, undefined)).toBe(false);
    expect(widenedClaim({ ...c, family: "bool", start: -1, end: -1 }, [[0, 9]])).toBe(false);
  });
});
