import { describe, expect, it } from "vitest";
import { commaName } from "../../src/models/factored/comma-names.ts";
import { assignLearned } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { tool, scoredFromTable } from "./factored-fixtures.ts";

const values = (picked: ReturnType<typeof assignLearned>) =>
  Object.fromEntries(picked.map((p) => [p.param.info.name, p.values.map((v) => v.value)]));

const joiners = new Set(["and", "or"]);
const free = () => true;

describe("factored caller: a place and its region after a comma are one value", () => {
  it("finds the whole 'A, B' pair around its capitalised second part", () => {
    const t = tokenize("What's the weather in Los Angeles, California today?");
    // "California" (7..8) after "Los Angeles" (4..6) and the comma (6)
    expect(commaName(t, 7, 8, joiners, free)).toEqual([4, 8]);
    // the first part spent by another value: no pair
    expect(commaName(t, 7, 8, joiners, () => false)).toBeUndefined();
    // a first part, not a second one
    expect(commaName(t, 4, 6, joiners, free)).toBeUndefined();
  });

  it("leaves lists, lower-case words and values cut short of their name", () => {
    const list = tokenize("Weather in Paris, Rome and Berlin");
    // "Rome" (4..5) goes on with "and Berlin": a list
    expect(commaName(list, 4, 5, joiners, free)).toBeUndefined();
    const run = tokenize("Weather in Paris, Rome, Berlin");
    expect(commaName(run, 4, 5, joiners, free)).toBeUndefined();
    expect(commaName(run, 6, 7, joiners, free)).toBeUndefined();
    const lower = tokenize("Find cases, theft in California");
    expect(commaName(lower, 3, 4, joiners, free)).toBeUndefined();
    // "New" of "New York": the value stops before a capitalised word of its own name
    const cut = tokenize("Hotels in Albany, New York");
    expect(commaName(cut, 4, 5, joiners, free)).toBeUndefined();
    expect(commaName(cut, 4, 6, joiners, free)).toEqual([2, 6]);
  });

  it("widens a one-call text value to the pair, its first part free (unless commaNames is off)", () => {
    const weather = tool("get_current_weather", { location: { type: "string" } }, ["location"]);
    const q = "What's the current temperature in Seattle, Washington?";
    const pick = (commaNames: boolean | undefined) => {
      const f = functionView(weather, { ...questionView(q, joiners), commaNames }, new Map());
      return values(assignLearned(f, scoredFromTable(f, { location: { Washington: 0.6, Seattle: 0.3 } }), undefined));
    };
    expect(pick(true)).toEqual({ location: ["Seattle, Washington"] });
    expect(pick(undefined)).toEqual({ location: ["Washington"] });
  });

  it("keeps two values where another parameter takes the first part", () => {
    const time = tool("get_current_time", { city: { type: "string" }, country: { type: "string" } }, ["city", "country"]);
    const q = "What is the current time in Sydney, Australia?";
    const f = functionView(time, { ...questionView(q, joiners), commaNames: true }, new Map());
    const s = scoredFromTable(f, { city: { Sydney: 0.8, Australia: 0.1 }, country: { Australia: 0.7, Sydney: 0.2 } });
    expect(values(assignLearned(f, s, undefined))).toEqual({ city: ["Sydney"], country: ["Australia"] });
  });
});
