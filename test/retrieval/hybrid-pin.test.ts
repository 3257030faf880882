import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ndcgAtK } from "../../src/eval/metrics.ts";
import {
  chooseGateByParts,
  GATE_FILE,
  GatedHybridRetriever,
  gatedFuse,
  readQueried,
  writeGate,
  type GateOptions,
} from "../../src/retrieval/hybrid-gate.ts";
import { pinUnqueried } from "../../src/retrieval/hybrid-pin.ts";
import type { RetrievalHit, Retriever } from "../../src/retrieval/retriever.ts";

const hits = (ids: string[], scores?: number[]): RetrievalHit[] =>
  ids.map((id, i) => ({ id, score: scores?.[i] ?? ids.length - i }));
const ids = (h: readonly RetrievalHit[]) => h.map((x) => x.id);
const fixed = (name: string, out: RetrievalHit[]): Retriever => ({ name, search: async () => out });
const ALWAYS_TOOLGEN: GateOptions = { feature: "top-prob", threshold: -Infinity, lowWeight: 0 };

// Tools q1..q4 had training queries; u1..u3 did not (ToolGen only ever learnt to name q*).
const QUERIED = new Set(["q1", "q2", "q3", "q4"]);

describe("tools ToolGen has no training queries for keep the lexical part's ranks", () => {
  it("pins them in place and fills the other places with the gate's queried tools, in its order", () => {
    const fused = hits(["q3", "u2", "q1", "q2"]);
    const lexical = hits(["u1", "q1", "u3", "q2", "q4"]);
    expect(ids(pinUnqueried(fused, lexical, 5, QUERIED))).toEqual(["u1", "q3", "u3", "q1", "q2"]);
    // short lists: the leftovers (lexical order first) top it up
    expect(ids(pinUnqueried(hits(["q2"]), hits(["u1", "q1"]), 4, QUERIED))).toEqual(["u1", "q2", "q1"]);
  });

  it("a confidently wrong ToolGen cannot push an unqueried right tool down, whatever the gate", () => {
    // ToolGen is sure of q1 (the only kind of tool it can name); the answer u1 is the lexical part's first hit
    const toolgen = hits(["q1", "q2", "q3"], [12, 1, 0]);
    const lexical = hits(["u1", "q2", "u2", "q1", "q4"]);
    const gates: GateOptions[] = [
      ALWAYS_TOOLGEN,
      { ...ALWAYS_TOOLGEN, head: "top" },
      { feature: "top-prob", threshold: Infinity, lowWeight: 0.5 },
    ];
    for (const gate of gates) {
      // without the list (today's behaviour and older folders') ToolGen's hit takes the first place
      expect(ndcgAtK(ids(gatedFuse(toolgen, lexical, gate, 5)), ["u1"], 1)).toBe(0);
      const pinned = ids(gatedFuse(toolgen, lexical, gate, 5, QUERIED));
      expect(pinned[0]).toBe("u1");
      expect(pinned[2]).toBe("u2");
    }
    // always-ToolGen with the list: ToolGen orders the queried tools in the free places
    expect(ids(gatedFuse(toolgen, lexical, ALWAYS_TOOLGEN, 5, QUERIED))).toEqual([
      "u1",
      "q1",
      "u2",
      "q2",
      "q3",
    ]);
  });

  it("on random rankings, NDCG@1..5 of unqueried answers is never below the lexical part's (it is without the list)", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const all = ["q1", "q2", "q3", "q4", "u1", "u2", "u3"];
    const shuffled = () => [...all].sort(() => rand() - 0.5);
    let fellWithout = 0;
    for (let trial = 0; trial < 300; trial++) {
      const toolgen = hits(
        shuffled()
          .filter((id) => QUERIED.has(id))
          .slice(0, 3),
        [9 * rand(), 1, 0],
      );
      const lexical = hits(shuffled().slice(0, 2 + Math.floor(rand() * 5)));
      const answer = ["u1", "u2", "u3"][trial % 3]!;
      const gate: GateOptions = {
        feature: "top-prob",
        threshold: rand(),
        lowWeight: [0, 0.25, 0.5][trial % 3]!,
        head: trial % 2 ? "top" : "ranking",
      };
      for (const k of [1, 3, 5]) {
        const lex = ndcgAtK(ids(lexical), [answer], k);
        expect(
          ndcgAtK(ids(gatedFuse(toolgen, lexical, gate, 5, QUERIED)), [answer], k),
        ).toBeGreaterThanOrEqual(lex);
        if (ndcgAtK(ids(gatedFuse(toolgen, lexical, gate, 5)), [answer], k) < lex) fellWithout++;
      }
    }
    expect(fellWithout).toBeGreaterThan(0);
  });

  it("changes nothing where every tool had training queries (in-domain)", () => {
    const every = new Set(["a", "b", "c", "d"]);
    const toolgen = hits(["a", "b", "c"], [3, 1, 0]);
    const lexical = hits(["d", "c", "b", "a"]);
    for (const gate of [ALWAYS_TOOLGEN, { ...ALWAYS_TOOLGEN, threshold: 0.9, lowWeight: 0.25 }])
      expect(ids(gatedFuse(toolgen, lexical, gate, 4, every))).toEqual(
        ids(gatedFuse(toolgen, lexical, gate, 4)),
      );
  });

  it("the gate chosen with the list keeps the unseen dev part at the lexical part's level where today's cannot", () => {
    // The two kinds of query look the same to both parts (ToolGen sure of q_i, the lexical part ranking u_i first
    // and not listing q_i): no feature of today's grid tells them apart, only which tools had training queries.
    const sure = (id: string) => hits([id, "q4"], [9, 0]);
    const gold = ["q1", "q2", "q3", "u1", "u2", "u3"];
    const toolgen = [sure("q1"), sure("q2"), sure("q3"), sure("q1"), sure("q2"), sure("q3")];
    const lex = (id: string) => hits([id, "q4"], [5, 0]);
    const lexical = [lex("u1"), lex("u2"), lex("u3"), lex("u1"), lex("u2"), lex("u3")];
    const part = ["seen", "seen", "seen", "unseen", "unseen", "unseen"];
    const score = (r: string[], i: number) => ndcgAtK(r, [gold[i]!], 5);
    const today = chooseGateByParts(toolgen, lexical, score, part, { k: 5 });
    const unseen = (c: typeof today) => c.parts.find((p) => p.part === "unseen")!;
    expect(unseen(today).chosen).toBeLessThan(unseen(today).lexical);
    const withList = chooseGateByParts(toolgen, lexical, score, part, { k: 5, queried: QUERIED });
    expect(unseen(withList).chosen).toBe(unseen(withList).lexical);
    // the plain parts are reported as a user runs them alone (ToolGen unpinned)
    expect(withList.parts.map((p) => p.toolgen)).toEqual(today.parts.map((p) => p.toolgen));
  });

  it("reads the list beside the gate; an older gate file has none (no pinning); a malformed one is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-queried-"));
    writeGate(dir, ALWAYS_TOOLGEN, "test");
    expect(readQueried(dir)).toBeUndefined();
    writeGate(dir, ALWAYS_TOOLGEN, "test", { queried: ["q1", "q2", "q3", "q4"] });
    expect(readQueried(`builtin:${dir}`)).toEqual(QUERIED);
    const r = new GatedHybridRetriever(
      fixed("toolgen", hits(["q1", "q2"], [12, 0])),
      fixed("ranker", hits(["u1", "q2", "q1"])),
      ALWAYS_TOOLGEN,
      100,
      readQueried(dir),
    );
    expect(ids(await r.search("q", { k: 3 }))).toEqual(["u1", "q1", "q2"]);
    writeFileSync(
      join(dir, GATE_FILE),
      JSON.stringify({ ...ALWAYS_TOOLGEN, threshold: "-Infinity", queried: "q1" }),
    );
    expect(() => readQueried(dir)).toThrow(/queried must be a list of tool ids/);
  });
});
