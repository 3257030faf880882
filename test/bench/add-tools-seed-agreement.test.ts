import { describe, expect, it } from "vitest";
import { agreement, equalCountChance, hitsOf, topAt } from "../../bench/add-tools-seed-agreement.ts";

describe("add-tools seed agreement", () => {
  const isNew = new Set(["n1", "n2"]);
  const hits: Array<[string, number]> = [
    ["o1", 5],
    ["n1", 4.6],
    ["o2", 4.5],
    ["n2", 1],
  ];

  it("takes the top-1 after shifting the new tools only", () => {
    expect(topAt(hits, isNew, 0)).toBe("o1");
    expect(topAt(hits, isNew, 0.5)).toBe("n1");
    expect(topAt(hits, isNew, -0.5)).toBe("o1");
    // A tie keeps the model's order (the first listed), as the calibration's stable sort does.
    expect(topAt(hits, isNew, 0.4)).toBe("o1");
  });

  it("counts the queries both, one or neither seed gets right", () => {
    const a = [true, true, false, false, true];
    const b = [true, false, true, false, false];
    expect(agreement(a, b)).toMatchObject({
      queries: 5,
      hits_a: 3,
      hits_b: 2,
      both: 1,
      only_a: 2,
      only_b: 1,
    });
    expect(() => agreement([true], [])).toThrow(/1 against 0/);
  });

  it("gives the chance of equal counts under fair-coin disagreements", () => {
    expect(equalCountChance(0)).toBe(1);
    expect(equalCountChance(3)).toBe(0);
    expect(equalCountChance(2)).toBeCloseTo(0.5);
    expect(equalCountChance(4)).toBeCloseTo(6 / 16);
    expect(equalCountChance(400)).toBeCloseTo(Math.sqrt(2 / (Math.PI * 400)), 3);
  });

  it("marks a hit when the top-1 is one of the relevant tools", () => {
    const qs = [
      { query: "a", relevant: ["o1"] },
      { query: "b", relevant: ["o2", "n1"] },
      { query: "c", relevant: ["o1"] },
    ];
    expect(hitsOf(qs, ["o1", "n1", undefined])).toEqual([true, true, false]);
  });
});
