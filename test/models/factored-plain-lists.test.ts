import { describe, expect, it } from "vitest";
import { candidatesFor, paramKind } from "../../src/models/factored/candidates.ts";
import { questionView } from "../../src/models/factored/features.ts";
import { plainListRuns } from "../../src/models/factored/plain-lists.ts";
import { tokenize } from "../../src/models/factored/text.ts";

const joiners = new Set(["and", "or"]);
const none = () => false;

describe("factored caller: lists of plain words", () => {
  it("finds runs of lower-case words joined as a list, closed by a joiner word", () => {
    const t = tokenize("Check the price of tomatoes and lettuce at the Whole Foods in Los Angeles.");
    expect(plainListRuns(t, joiners, none)).toEqual([[[4, 5], [6, 7]]]);
    const three = tokenize("a recipe with chicken, rice and mushrooms for lunch");
    expect(plainListRuns(three, joiners, none).map((r) => r.map(([s]) => three[s]!.text))).toEqual([["chicken", "rice", "mushrooms"]]);
  });

  it("leaves runs joined by commas alone, runs going on past a comma, quoted and capitalised words", () => {
    expect(plainListRuns(tokenize("sort it alphabetically and ascendingly, but keep urgent items first"), joiners, none)).toEqual([]);
    expect(plainListRuns(tokenize("show apples, pears for me"), joiners, none)).toEqual([]);
    expect(plainListRuns(tokenize("weather in Paris and Rome"), joiners, none)).toEqual([]);
    const q = tokenize("tag 'red and blue' please");
    expect(plainListRuns(q, joiners, () => true)).toEqual([]);
  });

  it("offers the run to a list parameter of strings (unless plainLists is off)", () => {
    const q = "Check the price of tomatoes and lettuce at the Whole Foods in Los Angeles.";
    const lists = (plainLists: boolean | undefined) =>
      candidatesFor({ ...questionView(q, joiners), plainLists }, paramKind({ type: "array", items: { type: "string" } })).map((c) => c.value);
    expect(lists(true)).toContainEqual(["tomatoes", "lettuce"]);
    expect(lists(undefined)).not.toContainEqual(["tomatoes", "lettuce"]);
    // a list of numbers takes no words
    const numbers = candidatesFor({ ...questionView(q, joiners), plainLists: true }, paramKind({ type: "array", items: { type: "integer" } }));
    expect(numbers.map((c) => c.value)).not.toContainEqual(["tomatoes", "lettuce"]);
  });
});

describe("factored caller: lists of numbers the question states", () => {
  it("offers no list of every number the question writes, only joined runs and literals (unless scatteredNumbers)", () => {
    const q = "Compare Sample1: [22,33,42] and Sample2: [23,45,44] at a significance level of 0.05";
    const lists = (joinedNumbers: boolean | undefined) =>
      candidatesFor({ ...questionView(q, joiners), joinedNumbers }, paramKind({ type: "array", items: { type: "number" } })).map((c) => c.value);
    expect(lists(true)).toContainEqual([22, 33, 42]);
    expect(lists(true)).toContainEqual([23, 45, 44]);
    expect(lists(true)).not.toContainEqual([22, 33, 42, 23, 45, 44, 0.05]);
    expect(lists(undefined)).toContainEqual([22, 33, 42, 23, 45, 44, 0.05]);
  });
});
