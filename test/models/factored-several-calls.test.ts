import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/models/factored/candidates.ts";
import { sentenceOwners, sentenceRanges } from "../../src/models/factored/sentence-owners.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { unitWords } from "../../src/models/factored/unit-words.ts";

/** Where each of `words` is first written in `tokens` (a one-token range). */
const placeOf = (tokens: ReturnType<typeof tokenize>, word: string): [number, number] => {
  const i = tokens.findIndex((t) => t.text === word);
  if (i < 0) throw new Error(`no ${word}`);
  return [i, i + 1];
};

describe("sentence owners", () => {
  const q = "You have a triangle and a circle. For the triangle, the sides are 5, 7 and 9. For the circle, the radius is 3.";
  const t = tokenize(q);

  it("cuts sentences at their marks, a dot only before a capital", () => {
    expect(sentenceRanges(t).map(([a, b]) => t.slice(a, b).map((k) => k.text).join(" "))).toEqual([
      "You have a triangle and a circle .",
      "For the triangle , the sides are 5 , 7 and 9 .",
      "For the circle , the radius is 3 .",
    ]);
    const inc = tokenize("prices for Apple Inc., Google LLC. and more");
    expect(sentenceRanges(inc)).toHaveLength(1);
  });

  it("gives a sentence that mentions one function alone to it whole", () => {
    // the segments: the triangle's from its mention, the circle's from its first mention on (function 0, 1)
    const circleAt = placeOf(t, "circle")[0];
    const owner = t.map((_, k) => (k < circleAt ? 0 : 1));
    const own = [new Set(["trian"]), new Set(["circl"])];
    const out = sentenceOwners(t, sentenceRanges(t), own, owner);
    expect(out[placeOf(t, "5")[0]]).toBe(0);
    expect(out[placeOf(t, "9")[0]]).toBe(0);
    expect(out[placeOf(t, "3")[0]]).toBe(1);
    // the first sentence mentions both: its owners stay
    expect(out.slice(0, 8)).toEqual(owner.slice(0, 8));
    // a function whose own name words are nowhere written: the segments stay as they are
    expect(sentenceOwners(t, sentenceRanges(t), [own[0]!, new Set(["squar"])], owner)).toEqual(owner);
  });
});

describe("unit words", () => {
  const t = tokenize("the first circle has a radius of 5cm, the second a radius of 10 cm and the third 15");
  const numbers = ["5", "10", "15"].map((n) => placeOf(t, n));
  const span = (k: number, end = k + 1): Candidate => ({ family: "span", value: t.slice(k, end).map((x) => x.text).join(" "), start: k, end, quoted: false });
  const cm1 = placeOf(t, "5")[1];
  const cm2 = placeOf(t, "10")[1];

  it("gives an empty text parameter the word after each number, a number without one repeating the unit before", () => {
    // "5cm" offered whole (the number and its unit), "cm" after 10 alone
    const slot = { candidates: [span(cm1 - 1, cm1 + 1), span(cm2)], probs: [0.02, 0.01], pNull: 0.9 };
    const [units] = unitWords(t, numbers, [slot], 0.01);
    expect(units?.map((u) => u.value)).toEqual(["cm", "cm", "cm"]);
    expect(units?.[0]).toMatchObject({ start: cm1, end: cm1 + 1 });
  });

  it("gives none where the parameter wants the first unit less than the share asked", () => {
    const slot = { candidates: [span(cm1 - 1, cm1 + 1), span(cm2)], probs: [0.005, 0.5], pNull: 0.9 };
    expect(unitWords(t, numbers, [slot], 0.01)).toEqual([undefined]);
  });
});
