import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  GATE_FILE,
  GatedHybridRetriever,
  readGate,
  writeGate,
  chooseGate,
  gateCalibration,
  gateConfidence,
  gatedFuse,
  neverToolGen,
  signTestP,
} from "../../src/retrieval/hybrid-gate.ts";
import type { RetrievalHit, Retriever } from "../../src/retrieval/retriever.ts";

const hits = (ids: string[], scores: number[]): RetrievalHit[] =>
  ids.map((id, i) => ({ id, score: scores[i]! }));

describe("gated hybrid (ToolGen's confidence decides)", () => {
  it("measures confidence as the top hit's softmax share or its margin", () => {
    const sure = hits(["a", "b"], [5, 0]);
    const unsure = hits(["a", "b"], [0.1, 0]);
    expect(gateConfidence(sure, "top-prob")).toBeGreaterThan(0.99);
    expect(gateConfidence(unsure, "top-prob")).toBeCloseTo(0.525, 3);
    expect(gateConfidence(sure, "margin")).toBe(5);
    expect(gateConfidence([], "margin")).toBe(-Infinity);
  });

  it("keeps ToolGen's ranking above the threshold, BM25's (or a blend) below", async () => {
    const bm25 = hits(["x", "y"], [2, 1]);
    const gate = { feature: "margin" as const, threshold: 1, lowWeight: 0 };
    expect(gatedFuse(hits(["a", "b"], [5, 0]), bm25, gate, 2).map((h) => h.id)).toEqual(["a", "b"]);
    expect(gatedFuse(hits(["a", "b"], [0.5, 0]), bm25, gate, 2).map((h) => h.id)).toEqual(["x", "y"]);
    const blend = gatedFuse(hits(["a", "x"], [0.5, 0]), bm25, { ...gate, lowWeight: 0.5 }, 3);
    expect(blend.map((h) => h.id)).toEqual(["x", "a", "y"]);
    const fixed = (name: string, h: RetrievalHit[]): Retriever => ({ name, search: async () => h });
    const r = new GatedHybridRetriever(
      fixed("toolgen", hits(["a", "b"], [0.5, 0])),
      fixed("bm25", bm25),
      gate,
    );
    expect((await r.search("q", { k: 1 })).map((h) => h.id)).toEqual(["x"]);
  });

  it("chooses on dev a gate never below the better part, and lists every gate tried", () => {
    // Confident queries: ToolGen right. Unsure ones: BM25 right. The gate should beat both parts alone.
    const toolgen = [
      hits(["t1", "z"], [6, 0]),
      hits(["t2", "z"], [6, 0]),
      hits(["wrong", "z"], [0.2, 0]),
      hits(["wrong", "z"], [0.1, 0]),
    ];
    const bm25 = [hits(["z"], [1]), hits(["z"], [1]), hits(["b3"], [1]), hits(["b4"], [1])];
    const relevant = ["t1", "t2", "b3", "b4"];
    const top1 = (ranked: string[], i: number) => (ranked[0] === relevant[i] ? 1 : 0);
    // Four queries: the gate wins two, loses none, p = 0.25: not enough, the better part stays.
    const few = chooseGate(toolgen, bm25, top1, { quantiles: 4 });
    expect(few.dev).toEqual({ chosen: 0.5, toolgen: 0.5, bm25: 0.5 });
    expect(few.gate.threshold).toBe(-Infinity);
    expect(few.versusBetterPart).toMatchObject({ wins: 2, losses: 0, p: 0.25, kept: "part" });
    // Twelve: six wins, none lost, p = 1/64: the fused gate is kept.
    const thrice = <T>(xs: T[]): T[] => [...xs, ...xs, ...xs];
    const [tg12, bm12, rel12] = [thrice(toolgen), thrice(bm25), thrice(relevant)];
    const choice = chooseGate(tg12, bm12, (ranked, i) => (ranked[0] === rel12[i] ? 1 : 0), { quantiles: 4 });
    expect(choice.dev).toEqual({ chosen: 1, toolgen: 0.5, bm25: 0.5 });
    expect(choice.versusBetterPart).toMatchObject({ wins: 6, losses: 0, kept: "gate" });
    expect(choice.versusBetterPart!.p).toBeCloseTo(1 / 64, 10);
    expect(choice.tried.length).toBeGreaterThan(2);
    expect(choice.tried.every((t) => t.dev <= choice.dev.chosen)).toBe(true);
    expect(signTestP(3, 1)).toBeCloseTo(5 / 16, 10);
    // When ToolGen is always right, the plain "always ToolGen" gate is kept.
    const plain = chooseGate(toolgen.slice(0, 2), bm25.slice(0, 2), top1);
    expect(plain.gate.threshold).toBe(-Infinity);
    const bins = gateCalibration(toolgen, [true, true, false, false], "top-prob", 2);
    expect(bins.map((b) => b.top1)).toEqual([0, 1]);
  });

  it("a gate saved in a model folder reads back, ±∞ included; a bad file names itself", () => {
    const dir = mkdtempSync(join(tmpdir(), "gate-"));
    writeGate(dir, { feature: "margin", threshold: -Infinity, lowWeight: 0.25 }, "test");
    expect(readGate(dir)).toEqual({ feature: "margin", threshold: -Infinity, lowWeight: 0.25 });
    expect(readGate(join(dir, "none"))).toBeUndefined();
    writeFileSync(join(dir, GATE_FILE), JSON.stringify({ feature: "vibes", threshold: 1, lowWeight: 0 }));
    expect(() => readGate(dir)).toThrow(/toolgen-gate\.json: expected/);
  });
});

describe("gated hybrid whose gate chose BM25 alone", () => {
  const gate = { feature: "top-prob" as const, threshold: Infinity, lowWeight: 0 };
  const counting = (h: RetrievalHit[]) => {
    const r = { calls: 0, name: "toolgen", search: async () => (r.calls++, h) };
    return r;
  };
  const fixed = (name: string, h: RetrievalHit[]): Retriever => ({ name, search: async () => h });

  it("does not run ToolGen when BM25 fills the k asked for, and answers what the fusion answers", async () => {
    const tg = hits(["a", "b", "c"], [5, 1, 0]);
    const bm25 = hits(["x", "y", "z"], [3, 2, 1]);
    const toolgen = counting(tg);
    const r = new GatedHybridRetriever(toolgen, fixed("bm25", bm25), gate);
    expect(await r.search("q", { k: 2 })).toEqual(gatedFuse(tg, bm25, gate, 2));
    expect(toolgen.calls).toBe(0);
  });

  it("still asks ToolGen to top up a BM25 list shorter than k", async () => {
    const tg = hits(["a", "b", "c"], [5, 1, 0]);
    const bm25 = hits(["x"], [3]);
    const toolgen = counting(tg);
    const r = new GatedHybridRetriever(toolgen, fixed("bm25", bm25), gate);
    const out = await r.search("q", { k: 3 });
    expect(out).toEqual(gatedFuse(tg, bm25, gate, 3));
    expect(out.map((h) => h.id)).toEqual(["x", "a", "b"]);
    expect(toolgen.calls).toBe(1);
  });

  it("is recognised only where no confidence can reach the threshold", () => {
    expect(neverToolGen(gate)).toBe(true);
    expect(neverToolGen({ ...gate, lowWeight: 0.5 })).toBe(false);
    expect(neverToolGen({ ...gate, feature: "margin" })).toBe(false);
    expect(neverToolGen({ ...gate, threshold: 0.9 })).toBe(false);
  });
});
