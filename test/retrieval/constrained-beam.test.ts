import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  constrainedBeamSearch,
  decodeIds,
  logSumExp,
  topTokens,
} from "../../src/retrieval/constrained-beam.ts";
import { TokenTrie } from "../../src/retrieval/trie.ts";
import { FakeTokenModel } from "../helpers/fake-token-model.ts";

const END = 0;

/** Random prefix-free id sequences: random bodies over tokens 1..V-1, each ended by END, deduplicated. */
const sequencesArb = (vocab: number) =>
  fc
    .uniqueArray(fc.array(fc.integer({ min: 1, max: vocab - 1 }), { minLength: 1, maxLength: 4 }), {
      minLength: 1,
      maxLength: 25,
      selector: (s) => s.join(","),
    })
    .map((bodies) => bodies.map((b) => [...b, END]));

async function scoreOf(model: FakeTokenModel, prompt: number[], tokens: number[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < tokens.length; i++) {
    const logits = await model.logits([...prompt, ...tokens.slice(0, i)]);
    total += logits[tokens[i]!]! - logSumExp(logits);
  }
  return total;
}

describe("constrained beam search", () => {
  it("never yields an id outside the trie, and frees every session", async () => {
    await fc.assert(
      fc.asyncProperty(
        sequencesArb(12),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 1000 }),
        async (seqs, beams, seed) => {
          const trie = TokenTrie.from(seqs.map((s, i) => [`tool${i}`, s] as const));
          const model = new FakeTokenModel(12, seed);
          const hyps = await decodeIds(model, [3, 4], trie, { beams });
          expect(hyps.length).toBe(Math.min(beams, seqs.length));
          const valid = new Set(seqs.map((_, i) => `tool${i}`));
          for (const h of hyps) {
            expect(h.id).toBeDefined();
            expect(valid.has(h.id!)).toBe(true);
            expect(trie.valueOf(h.tokens)).toBe(h.id);
          }
          expect(new Set(hyps.map((h) => h.id)).size).toBe(hyps.length);
          expect(model.openSessions).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("is exact when the beam is as wide as the catalog", async () => {
    await fc.assert(
      fc.asyncProperty(sequencesArb(9), fc.integer({ min: 0, max: 1000 }), async (seqs, seed) => {
        const trie = TokenTrie.from(seqs.map((s, i) => [`t${i}`, s] as const));
        const model = new FakeTokenModel(9, seed);
        const hyps = await decodeIds(model, [1], trie, { beams: seqs.length });
        const brute = await Promise.all(
          seqs.map(async (s, i) => ({ id: `t${i}`, lp: await scoreOf(model, [1], s) })),
        );
        brute.sort((a, b) => b.lp - a.lp);
        expect(hyps.map((h) => h.id)).toEqual(brute.map((b) => b.id));
        hyps.forEach((h, i) => expect(h.logProb).toBeCloseTo(brute[i]!.lp, 4));
      }),
      { numRuns: 60 },
    );
  });

  it("unconstrained mode reports sequences outside the trie as hallucinations", async () => {
    // Token 7 is strongly preferred but no id starts with it.
    const model = new FakeTokenModel(10, 3, new Map([[7, 50]]));
    const trie = TokenTrie.from([
      ["a", [1, END]],
      ["b", [2, 3, END]],
    ]);
    const free = await decodeIds(model, [5], trie, { beams: 2, constrained: false, endToken: END });
    expect(free[0]!.id).toBeUndefined();
    expect(free[0]!.tokens[0]).toBe(7);
    const held = await decodeIds(model, [5], trie, { beams: 2 });
    expect(held.map((h) => h.id).sort()).toEqual(["a", "b"]);
  });

  it("one step ranks atomic ids, and the root session is left untouched", async () => {
    const model = new FakeTokenModel(50, 9);
    const trie = TokenTrie.from([10, 11, 12, 13, 14].map((t) => [`id${t}`, [t]] as const));
    const session = await model.session();
    const logits = await session.append([1, 2]);
    const before = model.forwards;
    const hyps = await constrainedBeamSearch(session, logits, trie, { beams: 3 });
    expect(model.forwards).toBe(before); // atomic ids complete in one step: no further forward pass
    expect(hyps.map((h) => h.tokens[0])).toEqual(topTokens(logits, 3, [10, 11, 12, 13, 14]));
    await session.append([3]);
    session.dispose();
    expect(model.openSessions).toBe(0);
  });

  it("topTokens matches a full sort", () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ noNaN: true, min: -5, max: 5 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 10 }),
        (xs, k) => {
          const logits = Float32Array.from(xs);
          const expected = [...logits.keys()].sort((a, b) => logits[b]! - logits[a]! || a - b).slice(0, k);
          expect(topTokens(logits, k).map((i) => logits[i])).toEqual(expected.map((i) => logits[i]));
        },
      ),
    );
  });
});

describe("TokenTrie", () => {
  it("rejects sequences that are prefixes of others, and lists what it holds", () => {
    const trie = TokenTrie.from([
      ["x", [1, 2, 0]],
      ["y", [1, 3, 0]],
    ]);
    expect(trie.next([1]).sort()).toEqual([2, 3]);
    expect(trie.valueOf([1, 3, 0])).toBe("y");
    expect(trie.size).toBe(2);
    expect([...trie.entries()].map(([id]) => id)).toEqual(["x", "y"]);
    expect(() => trie.insert([1, 2], "z")).toThrow(/prefix/);
    expect(() => trie.insert([1, 2, 0, 5], "w")).toThrow(/prefix/);
    expect(() => trie.insert([1, 2, 0], "v")).toThrow(/same token sequence/);
    expect(() => trie.insert([], "e")).toThrow(/empty/);
  });
});
