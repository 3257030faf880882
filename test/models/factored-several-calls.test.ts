import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/models/factored/candidates.ts";
import { assignLearned, MORE_DIM } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { ENGLISH_PAIRING } from "../../src/models/factored/pairing-words.ts";
import { sentenceOwners, sentenceRanges } from "../../src/models/factored/sentence-owners.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { unitWords } from "../../src/models/factored/unit-words.ts";
import type { ToolJson } from "../../src/tools/types.ts";

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

describe("pairing words", () => {
  const play: ToolJson = {
    type: "function",
    function: {
      name: "play_songs",
      description: "",
      parameters: { type: "object", properties: { artist: { type: "string" }, duration: { type: "integer" } }, required: ["artist", "duration"] },
    },
  };
  // the learnt "more" takes further numbers and no further span: bias -10, +20 for a number (moreFeatures x[8])
  const weights = new Array<number>(MORE_DIM).fill(0);
  weights[0] = -10;
  weights[8] = 20;
  const artists = (pairing: ReadonlySet<string> | undefined) => {
    const view = questionView("Play songs from Taylor Swift and Maroon 5, with a play time of 20 minutes and 15 minutes respectively", new Set(["and"]));
    const f = functionView(play, view, new Map());
    const chance: Record<string, number> = { "Taylor Swift": 0.6, "Maroon 5": 0.2, "20": 0.5, "15": 0.4 };
    const scored = f.params.map((info) => ({ info, probs: info.candidates.map((k) => chance[String(k.value)] ?? 0), pNull: 0 }));
    const picked = assignLearned(f, scored, { weights, threshold: 0.9, pairing });
    return picked.find((k) => k.param.info.name === "artist")!.values.map((v) => v.value);
  };

  it("gives a one-value text parameter the span joined to it where the question says the lists pair", () => {
    expect(artists(ENGLISH_PAIRING)).toEqual(["Taylor Swift", "Maroon 5"]);
    expect(artists(undefined)).toEqual(["Taylor Swift"]);
  });
});
