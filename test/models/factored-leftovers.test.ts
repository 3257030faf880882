import { describe, expect, it } from "vitest";
import { assignLearned } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { capitalRun, lowerSpan } from "../../src/models/factored/leftover-names.ts";
import { runAround } from "../../src/models/factored/named-runs.ts";
import { tool, scoredFromTable } from "./factored-fixtures.ts";

const values = (picked: ReturnType<typeof assignLearned>) =>
  Object.fromEntries(picked.map((p) => [p.param.info.name, p.values.map((v) => v.value)]));

describe("factored caller: leftover values", () => {
  const restaurants = tool(
    "restaurant.find_nearby",
    { cuisine: { type: "string" }, max_distance: { type: "integer" }, rating: { type: "integer", enum: [1, 2, 3] } },
    ["cuisine"],
  );
  const q = "Find restaurants within 10 miles that offer sushi";

  it("gives an unspent digit number to an empty optional number parameter (unless leftoverNumbers is off)", () => {
    const view = { ...questionView(q, new Set()), leftoverNumbers: 0.01 };
    const f = functionView(restaurants, view, new Map());
    // the scorer leaves max_distance out (null 0.9 against 0.1 for 10): the rule gives it the number
    const s = scoredFromTable(f, { cuisine: { sushi: 0.9 }, max_distance: { 10: 0.1 } }, { max_distance: 0.9 });
    expect(values(assignLearned(f, s, undefined))).toEqual({ cuisine: ["sushi"], max_distance: [10] });
    const off = functionView(restaurants, questionView(q, new Set()), new Map());
    const t = scoredFromTable(off, { cuisine: { sushi: 0.9 }, max_distance: { 10: 0.1 } }, { max_distance: 0.9 });
    expect(values(assignLearned(off, t, undefined))).toEqual({ cuisine: ["sushi"] });
  });

  it("leaves a number another parameter spent, and one below the share of leaving the parameter out", () => {
    const view = { ...questionView(q, new Set()), leftoverNumbers: 0.5 };
    const f = functionView(restaurants, view, new Map());
    const s = scoredFromTable(f, { cuisine: { sushi: 0.9 }, max_distance: { 10: 0.1 } }, { max_distance: 0.9 });
    expect(values(assignLearned(f, s, undefined))).toEqual({ cuisine: ["sushi"] });
    const spent = tool("find", { distance: { type: "string" }, max_distance: { type: "integer" } }, ["distance"]);
    const g = functionView(spent, { ...questionView("within 10 miles", new Set()), leftoverNumbers: 0 }, new Map());
    const u = scoredFromTable(g, { distance: { "10 miles": 0.9 }, max_distance: { 10: 0.1 } }, { max_distance: 0.9 });
    expect(values(assignLearned(g, u, undefined))).toEqual({ distance: ["10 miles"] });
  });

  const house = tool("predict_house_price", { location: { type: "string" }, area: { type: "integer" } }, ["location", "area"]);
  const h = "Predict the price of the house in San Francisco with an area of 1800 square feet";

  it("gives a text parameter an unspent capitalised name in place of a lower-case word (unless leftoverNames is off)", () => {
    const table = { location: { feet: 0.4, "San Francisco": 0.3 }, area: { 1800: 0.99 } };
    const f = functionView(house, { ...questionView(h, new Set()), leftoverNames: 0.1 }, new Map());
    expect(values(assignLearned(f, scoredFromTable(f, table), undefined))).toEqual({ area: [1800], location: ["San Francisco"] });
    const off = functionView(house, questionView(h, new Set()), new Map());
    expect(values(assignLearned(off, scoredFromTable(off, table), undefined))).toEqual({ area: [1800], location: ["feet"] });
    // the name's chance must reach minRatio of the word's
    const strict = functionView(house, { ...questionView(h, new Set()), leftoverNames: 0.9 }, new Map());
    expect(values(assignLearned(strict, scoredFromTable(strict, table), undefined))).toEqual({ area: [1800], location: ["feet"] });
  });

  it("reads whole capitalised runs only, and keeps identifiers and quoted values", () => {
    const v = questionView("the house in San Francisco with ID rs6034464 named 'home'", new Set());
    const span = (s: number, e: number, quoted = false) => ({ family: "span" as const, value: "", start: s, end: e, quoted });
    expect(capitalRun(v.tokens, span(3, 5))).toBe(true);
    expect(capitalRun(v.tokens, span(3, 4))).toBe(false);
    expect(lowerSpan(v.tokens, span(1, 2))).toBe(true);
    expect(lowerSpan(v.tokens, span(7, 8))).toBe(false);
    expect(lowerSpan(v.tokens, span(1, 2, true))).toBe(false);
  });

  it("finds the whole run of capitalised words around a span", () => {
    const v = questionView("Look up a felony record for case number CA123456 in San Diego County", new Set());
    expect(runAround(v.tokens, 11, 12)).toEqual([10, 13]);
    expect(runAround(v.tokens, 9, 10)).toBeUndefined();
  });

  it("gives a lone number to the number parameter, not a text one, where the function has one (unless digitTexts is off)", () => {
    const rate = tool("get_crime_rate", { city: { type: "string" }, year: { type: "integer" } }, ["city"]);
    const r = "the crime rate in San Francisco in 2020";
    const table = { city: { "2020": 0.7, "San Francisco": 0.2 }, year: { 2020: 0.05 } };
    const pNull = { year: 0.95 };
    const f = functionView(rate, { ...questionView(r, new Set()), digitTexts: true, leftoverNumbers: 0.01 }, new Map());
    expect(values(assignLearned(f, scoredFromTable(f, table, pNull), undefined))).toEqual({ city: ["San Francisco"], year: [2020] });
    const off = functionView(rate, { ...questionView(r, new Set()), leftoverNumbers: 0.01 }, new Map());
    expect(values(assignLearned(off, scoredFromTable(off, table, pNull), undefined))).toEqual({ city: ["2020"] });
    // with no number parameter the text takes the number ("the 2021 season")
    const season = tool("sports_ranking", { season: { type: "string" } }, ["season"]);
    const g = functionView(season, { ...questionView("the 2021 season", new Set()), digitTexts: true }, new Map());
    expect(values(assignLearned(g, scoredFromTable(g, { season: { "2021": 0.9 } }), undefined))).toEqual({ season: ["2021"] });
  });

  it("takes a capitalised name holding a text parameter's own name word for that parameter first (unless namedRuns is off)", () => {
    const museum = tool("museum_working_hours.get", { museum: { type: "string" }, location: { type: "string" } }, ["museum", "location"]);
    const m = "Get the working hours of Louvre Museum in Paris";
    // the scorer wants Paris for both: the name word "Museum" stands just before it
    const table = { museum: { Paris: 0.9, "Louvre Museum": 0.01 }, location: { Paris: 0.5, "Louvre Museum": 0.1 } };
    const f = functionView(museum, { ...questionView(m, new Set()), namedRuns: true }, new Map());
    expect(values(assignLearned(f, scoredFromTable(f, table), undefined))).toEqual({ museum: ["Louvre Museum"], location: ["Paris"] });
    const off = functionView(museum, questionView(m, new Set()), new Map());
    expect(values(assignLearned(off, scoredFromTable(off, table), undefined))).toEqual({ museum: ["Paris"], location: ["Louvre Museum"] });
  });

  it("exchanges two text values where the schema's order, held likelier, says so (unless orderSwaps is off)", () => {
    const bird = tool("identify_bird", { color: { type: "string" }, habitat: { type: "string" } }, ["color", "habitat"]);
    const b = "Identify a small green bird in forest";
    // both want "forest" about as much: the greedy pass gives it to color, the surer
    const table = { color: { forest: 0.6, green: 0.3 }, habitat: { forest: 0.58, green: 0.3 } };
    const f = functionView(bird, { ...questionView(b, new Set()), orderSwaps: 1.5 }, new Map());
    expect(values(assignLearned(f, scoredFromTable(f, table), undefined))).toEqual({ color: ["green"], habitat: ["forest"] });
    const off = functionView(bird, questionView(b, new Set()), new Map());
    expect(values(assignLearned(off, scoredFromTable(off, table), undefined))).toEqual({ color: ["forest"], habitat: ["green"] });
    // a clear preference stands against the order
    const clear = { color: { forest: 0.9, green: 0.05 }, habitat: { forest: 0.05, green: 0.9 } };
    expect(values(assignLearned(f, scoredFromTable(f, clear), undefined))).toEqual({ color: ["forest"], habitat: ["green"] });
  });

  it("exchanges two numbers the same way, never a number with a text", () => {
    const wall = tool("paint_requirement", { length: { type: "integer" }, height: { type: "integer" }, brand: { type: "string" } }, ["length", "height"]);
    const w = "a wall of 30 feet by 12 feet";
    const table = { length: { 12: 0.5, 30: 0.45 }, height: { 12: 0.48, 30: 0.45 } };
    const f = functionView(wall, { ...questionView(w, new Set()), orderSwaps: 1.5 }, new Map());
    expect(values(assignLearned(f, scoredFromTable(f, table), undefined))).toEqual({ length: [30], height: [12] });
    const off = functionView(wall, questionView(w, new Set()), new Map());
    expect(values(assignLearned(off, scoredFromTable(off, table), undefined))).toEqual({ length: [12], height: [30] });
  });

  it("gives an unspent capitalised name to an empty optional text parameter (unless emptyNames is off)", () => {
    const stats = tool("fetch_player_statistics", { game: { type: "string" }, platform: { type: "string", default: "PC" } }, ["game"]);
    const z = "Fetch player statistics of 'Zelda' on Switch";
    const table = { game: { Zelda: 0.9 }, platform: { Switch: 0.1 } };
    const f = functionView(stats, { ...questionView(z, new Set()), emptyNames: 0.05 }, new Map());
    expect(values(assignLearned(f, scoredFromTable(f, table, { platform: 0.9 }), undefined))).toEqual({ game: ["Zelda"], platform: ["Switch"] });
    const off = functionView(stats, questionView(z, new Set()), new Map());
    expect(values(assignLearned(off, scoredFromTable(off, table, { platform: 0.9 }), undefined))).toEqual({ game: ["Zelda"] });
    // below the share of leaving it out: empty
    const g = functionView(stats, { ...questionView(z, new Set()), emptyNames: 0.5 }, new Map());
    expect(values(assignLearned(g, scoredFromTable(g, table, { platform: 0.9 }), undefined))).toEqual({ game: ["Zelda"] });
  });
});
