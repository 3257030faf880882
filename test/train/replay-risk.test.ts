import { describe, expect, it } from "vitest";
import { pickReplay } from "../../src/train/replay-risk.ts";

describe("pickReplay", () => {
  const items = ["a", "b", "c", "d", "e", "f", "g", "h"];
  const risk = [0.1, 0.9, 0.3, 0.8, 0.0, 0.5, 0.2, 0.8];

  it("takes the riskiest share first (ties: the earlier item), the rest at random without repetition", () => {
    const all = pickReplay(items, risk, 4, 1, 7);
    expect(all).toEqual(["b", "d", "h", "f"]);
    const half = pickReplay(items, risk, 4, 0.5, 7);
    expect(half.slice(0, 2)).toEqual(["b", "d"]);
    expect(new Set(half).size).toBe(4);
    for (const x of half.slice(2)) expect(["b", "d"]).not.toContain(x);
  });

  it("is seeded, draws at random with share 0, and returns every item when n is larger", () => {
    expect(pickReplay(items, risk, 5, 0, 3)).toEqual(pickReplay(items, risk, 5, 0, 3));
    const seeds = new Set([1, 2, 3, 4, 5].map((s) => pickReplay(items, risk, 3, 0, s).join()));
    expect(seeds.size).toBeGreaterThan(1);
    expect(pickReplay(items, risk, 20, 0.5, 1).sort()).toEqual([...items].sort());
    expect(pickReplay(items, risk, 0, 1, 1)).toEqual([]);
  });
});
