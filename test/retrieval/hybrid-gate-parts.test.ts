import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  chooseGateByParts,
  gatedFuse,
  readGate,
  requireGate,
  writeGate,
} from "../../src/retrieval/hybrid-gate.ts";
import type { RetrievalHit } from "../../src/retrieval/retriever.ts";

const hits = (ids: string[], scores: number[]): RetrievalHit[] =>
  ids.map((id, i) => ({ id, score: scores[i]! }));
const top1 = (ranked: string[], gold: string) => (ranked[0] === gold ? 1 : 0);

describe("the gate toolgen train chooses", () => {
  it("tops a part's short ranking up to k from the other part, below its last hit", () => {
    const toolgen = hits(["a", "b", "c"], [3, 2, 1]);
    const bm25 = hits(["b"], [7]);
    const bm25Alone = { feature: "top-prob" as const, threshold: Infinity, lowWeight: 0 };
    expect(gatedFuse(toolgen, bm25, bm25Alone, 3)).toEqual([
      { id: "b", score: 7 },
      { id: "a", score: 6 },
      { id: "c", score: 5 },
    ]);
  });

  it("with two dev parts, keeps each part at the better plain retriever's level where one gate can", () => {
    // seen queries: ToolGen right and sure, BM25 wrong; unseen: ToolGen wrong and unsure, BM25 right
    const sure = (id: string) => hits([id, "x"], [9, 0]);
    const unsure = (id: string) => hits([id, "y"], [0.1, 0]);
    const gold = ["s1", "s2", "s3", "u1", "u2", "u3"];
    const toolgen = [sure("s1"), sure("s2"), sure("s3"), unsure("x"), unsure("x"), unsure("x")];
    const bm25 = [
      hits(["z"], [1]),
      hits(["z"], [1]),
      hits(["z"], [1]),
      hits(["u1"], [1]),
      hits(["u2"], [1]),
      hits(["u3"], [1]),
    ];
    const part = ["seen", "seen", "seen", "unseen", "unseen", "unseen"];
    const choice = chooseGateByParts(toolgen, bm25, (r, i) => top1(r, gold[i]!), part, { k: 1 });
    // neither part alone does it (each loses a whole dev part); a threshold between the confidences does
    expect(choice.parts).toEqual([
      { part: "seen", queries: 3, toolgen: 1, lexical: 0, chosen: 1 },
      { part: "unseen", queries: 3, toolgen: 0, lexical: 1, chosen: 1 },
    ]);
    expect(Number.isFinite(choice.gate.threshold)).toBe(true);
  });

  it("on a mixed seen/unseen dev where ToolGen is equally sure on both, loses to the better part on neither", () => {
    // ToolGen is sure everywhere; on unseen-tool queries it is sure of a tool the lexical part puts far below its own
    // first hit, so only the lexical part's agreement tells the parts apart (top-hit share alone cannot)
    const sure = (id: string) => hits([id, "x"], [9, 0]);
    const gold = ["s1", "s2", "s3", "u1", "u2", "u3"];
    const toolgen = [sure("s1"), sure("s2"), sure("s3"), sure("w"), sure("w"), sure("w")];
    const lexical = [
      hits(["z", "s1"], [1, 0.9]),
      hits(["z", "s2"], [1, 0.9]),
      hits(["z", "s3"], [1, 0.9]),
      hits(["u1", "w"], [5, 0]),
      hits(["u2", "w"], [5, 0]),
      hits(["u3", "w"], [5, 0]),
    ];
    const part = ["seen", "seen", "seen", "unseen", "unseen", "unseen"];
    const choice = chooseGateByParts(toolgen, lexical, (r, i) => top1(r, gold[i]!), part, { k: 1 });
    for (const p of choice.parts) expect(p.chosen).toBeGreaterThanOrEqual(Math.max(p.toolgen, p.lexical));
    expect(choice.gate.maxLexicalGap).toBeDefined();
  });

  it("reads an older gate (no maxLexicalGap, no head) as it meant: top-hit share alone, ToolGen's ranking", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-gate-old-"));
    writeGate(dir, { feature: "top-prob", threshold: 0.9, lowWeight: 0, lexical: "bm25" }, "test");
    const gate = readGate(dir)!;
    expect(gate.maxLexicalGap).toBeUndefined();
    expect(gate.head).toBeUndefined();
    const toolgen = hits(["a", "b"], [9, 0]);
    const lexical = hits(["c", "b"], [5, 0]);
    expect(gatedFuse(toolgen, lexical, gate, 2).map((h) => h.id)).toEqual(["a", "b"]);
  });

  it("is written with its lexical part and read back; a folder without one is refused with the way out", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-gate-"));
    expect(() => requireGate(dir)).toThrow(
      /has no gate \(toolgen-gate\.json\).*--retriever toolgen or --retriever bm25/,
    );
    writeGate(dir, { feature: "margin", threshold: -Infinity, lowWeight: 0, lexical: "bm25" }, "test");
    expect(readGate(`builtin:${dir}`)).toEqual({
      feature: "margin",
      threshold: -Infinity,
      lowWeight: 0,
      lexical: "bm25",
    });
    expect(requireGate(dir).lexical).toBe("bm25");
  });
});
