import { describe, expect, it } from "vitest";
import { callMentions, callOwners, type ScoredFunction } from "../../src/models/factored/decide.ts";
import { functionView, PAIR_DIM, questionView } from "../../src/models/factored/features.ts";
import { SEGMENT_DIM, withSegmentFeatures } from "../../src/models/factored/segment-features.ts";
import { Rng } from "../../src/nn/rng.ts";
import { multiCallGroups } from "../../src/train/multi-call-groups.ts";
import { tool } from "./factored-fixtures.ts";

const weather = tool("get_weather", { city: { type: "string" } }, ["city"]);
const hotels = tool("find_hotels", { city: { type: "string" } }, ["city"]);
const question = "Get the weather in Paris, then find hotels in Rome";

const called = (q: string): ScoredFunction[] => {
  const view = questionView(q, new Set(["and"]));
  return [weather, hotels].map((t) => ({ view: functionView(t, view, new Map()), params: [], features: new Float32Array(0) }));
};

describe("segment features (segment-features.ts)", () => {
  const chosen = called(question);
  const owner = callOwners(chosen)!;
  const mentions = callMentions(chosen);
  const city = (i: number, text: string) => chosen[i]!.view.params[0]!.candidates.find((c) => c.value === text)!;

  it("say where a span stands against its own call's segment, mention and the other calls' spans", () => {
    expect(owner[0]).not.toBe(-1);
    const paris = city(1, "Paris");
    const rome = city(1, "Rome");
    const context = { owner, index: 1, mentionAt: mentions[1]!, taken: [[paris.start, paris.end] as const] };
    const x = new Float32Array(PAIR_DIM).fill(0.5);
    const p = withSegmentFeatures(x, paris, context);
    const r = withSegmentFeatures(x, rome, context);
    expect(p).toHaveLength(PAIR_DIM + SEGMENT_DIM);
    // the pair features are kept as they were
    expect([...p.subarray(0, PAIR_DIM)]).toEqual([...x]);
    // Paris: outside find_hotels' segment and taken by get_weather; Rome: its own, after its mention
    expect([...p.subarray(PAIR_DIM)]).toEqual([1, 1, 0, 0]);
    expect(r[PAIR_DIM]).toBe(0);
    expect(r[PAIR_DIM + 1]).toBe(0);
    expect(r[PAIR_DIM + 2]).toBe(0);
    expect(r[PAIR_DIM + 3]).toBeGreaterThan(0);
  });

  it("are all 0 for one function called (no segments, nothing taken)", () => {
    const one = withSegmentFeatures(new Float32Array(PAIR_DIM), city(0, "Paris"), { index: 0, mentionAt: -1, taken: [] });
    expect([...one.subarray(PAIR_DIM)]).toEqual([0, 0, 0, 0]);
  });
});

describe("the argument scorer's groups from questions calling several functions (multi-call-groups.ts)", () => {
  const example = {
    tools: [weather, hotels],
    question,
    calls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "find_hotels", arguments: { city: "Rome" } },
    ],
  };
  const groups = (segments: boolean) => multiCallGroups([example], new Map(), new Set(["and"]), { negatives: 0, rng: new Rng(1), segments });

  it("give each call's parameter its own value as gold and keep the other call's value as a wrong one", () => {
    const gs = groups(true);
    expect(gs).toHaveLength(2);
    for (const g of gs) {
      // gold first, then only spans over the other call's value (no sampled negatives), then leave it out
      expect(g.gold).toEqual([0]);
      expect(g.items[0]!.x).toHaveLength(PAIR_DIM + SEGMENT_DIM);
      expect(g.items[0]!.x[PAIR_DIM]).toBe(0);
      expect(g.items[0]!.x[PAIR_DIM + 1]).toBe(0);
      const wrong = g.items.slice(1, -1);
      expect(wrong.length).toBeGreaterThan(0);
      for (const it of wrong) expect(it.x[PAIR_DIM + 1]).toBe(1);
    }
  });

  it("hold only the call's own segment's candidates with ownSegment", () => {
    const own = multiCallGroups([example], new Map(), new Set(["and"]), { negatives: 0, rng: new Rng(1), segments: true, ownSegment: true });
    expect(own).toHaveLength(2);
    // the other call's value stands outside this call's segment: gold and "leave it out" alone
    for (const g of own) expect(g.items).toHaveLength(2);
  });

  it("read the plain pair features without segments, and skip one-function questions", () => {
    expect(groups(false)[0]!.items[0]!.x).toHaveLength(PAIR_DIM);
    const one = { ...example, calls: [example.calls[0]!] };
    expect(multiCallGroups([one], new Map(), new Set(), { negatives: 0, rng: new Rng(1), segments: true })).toEqual([]);
  });
});
