import { describe, expect, it } from "vitest";
import { argumentsOf, PHRASES, type FactoredWeights, type ScoredFunction } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import type { JsonSchema, ToolJson } from "../../src/tools/types.ts";
import { describedOptions, writtenOption } from "../../src/models/factored/described-options.ts";
import { joinedList } from "../../src/models/factored/joined-lists.ts";
import { namedOrder } from "../../src/models/factored/name-lists.ts";
import { plainListRuns } from "../../src/models/factored/plain-lists.ts";
import { tokenize } from "../../src/models/factored/text.ts";

const joiners = new Set(["and", "or"]);
const none = () => false;

describe("factored caller: options a description quotes", () => {
  it("reads two or more quoted values, none that holds a sentence", () => {
    expect(describedOptions("The type of roots to return: 'real' for real roots, 'all' for both. Default value is 'real'.")).toEqual(["real", "all"]);
    expect(describedOptions('Diet: "Vegetarian" or "Gluten-free".')).toEqual(["Vegetarian", "Gluten-free"]);
    // one value is an example, not a choice
    expect(describedOptions("The city, e.g. 'Boston'.")).toEqual([]);
    // an apostrophe inside a word opens no quote
    expect(describedOptions("The user's name and the team's 'home' or 'away' side")).toEqual(["home", "away"]);
  });

  it("takes the one option the question writes as a whole word, outside other values", () => {
    const q = "Find all the roots of a quadratic equation given a = 3";
    expect(writtenOption(q, ["real", "all"], undefined, [])).toBe("all");
    // the value already one of them: kept
    expect(writtenOption(q, ["real", "all"], "real", [])).toBeUndefined();
    // another parameter's value holds the word: not this one's
    expect(writtenOption(q, ["real", "all"], undefined, [[5, 8]])).toBeUndefined();
    // inside a word ("allocate") is no option; two options written is no choice
    expect(writtenOption("allocate the roots", ["real", "all"], undefined, [])).toBeUndefined();
    expect(writtenOption("real or all roots", ["real", "all"], undefined, [])).toBeUndefined();
    // any case, and written in the description's form
    expect(writtenOption("restaurants with gluten-free options", ["Vegetarian", "Gluten-free"], "options", [])).toBe("Gluten-free");
  });
});

describe("factored caller: names listed, then their values", () => {
  it("pairs the values with the names in the order the names are listed", () => {
    const t = tokenize("Calculate the area given the lengths of its base and height as 6cm and 10cm.");
    const base = t.findIndex((k) => k.text === "base");
    const height = t.findIndex((k) => k.text === "height");
    const six = t.findIndex((k) => k.text === "6");
    const ten = t.findIndex((k) => k.text === "10");
    const mention = (i: number) => (i === base ? 0 : i === height ? 1 : -1);
    // base took 10, height 6 (each read by the name nearest): exchanged
    expect(namedOrder(t, joiners, [{ start: ten }, { start: six }], mention)).toEqual([1, 0]);
    // already in order: nothing to do
    expect(namedOrder(t, joiners, [{ start: six }, { start: ten }], mention)).toBeUndefined();
  });

  it("needs the names joined and the values right after them", () => {
    const apart = tokenize("the base is 10cm long and the height is 6cm");
    const base = apart.findIndex((k) => k.text === "base");
    const height = apart.findIndex((k) => k.text === "height");
    const mention = (i: number) => (i === base ? 0 : i === height ? 1 : -1);
    const at = (s: string) => apart.findIndex((k) => k.text === s);
    expect(namedOrder(apart, joiners, [{ start: at("6") }, { start: at("10") }], mention)).toBeUndefined();
  });
});

describe("factored caller: one list parameter's joined values", () => {
  it("joins lists that each follow the one before into one list", () => {
    const lists = [
      { value: ["high_low_temperature"], start: 2, end: 6 },
      { value: ["humidity"], start: 7, end: 8 },
      { value: ["precipitation"], start: 10, end: 11 },
    ];
    expect(joinedList(lists, () => true)?.value).toEqual(["high_low_temperature", "humidity", "precipitation"]);
    // one pair not joined: the lists stay apart (one call each)
    expect(joinedList(lists, (a) => a.start !== 7)).toBeUndefined();
  });
});

describe("factored caller: two-word items of a plain list", () => {
  it("reads an item of two words between commas, or a comma and a joiner word", () => {
    const t = tokenize("given that I am efficient, organized, easy going and compassionate");
    const words = (runs: [number, number][][]) => runs.map((r) => r.map(([s, e]) => t.slice(s, e).map((k) => k.text).join(" ")));
    expect(words(plainListRuns(t, joiners, none, true))).toEqual([["efficient", "organized", "easy going", "compassionate"]]);
    // without: the run stops at the two words and only their second goes on
    expect(words(plainListRuns(t, joiners, none, false))).toEqual([["going", "compassionate"]]);
    // the last item after the joiner word stays one word
    const last = tokenize("with apples, pears and green grapes");
    expect(plainListRuns(last, joiners, none, true).map((r) => r.length)).toEqual([3]);
  });
});

describe("factored caller: list forms in a call (ablations)", () => {
  const tool = (name: string, properties: Record<string, JsonSchema>, required: string[] = []): ToolJson => ({
    type: "function",
    function: { name, description: "", parameters: { type: "object", properties, required } },
  });
  /** Each parameter's chances by candidate text (unlisted 0.001) and of leaving it out (`none`, default 0). */
  const scoredFunction = (f: ReturnType<typeof functionView>, table: Record<string, Record<string, number>>, none: Record<string, number> = {}): ScoredFunction => ({
    view: f,
    features: new Float32Array(0),
    params: f.params.map((info) => {
      const raw = info.candidates.map((c) => table[info.name]?.[String(c.value)] ?? 0.001);
      const n = none[info.name] ?? 0;
      const total = raw.reduce((a, b) => a + b, 0) + n;
      return { info, probs: raw.map((r) => r / total), pNull: n / total };
    }),
  });
  const w: FactoredWeights = { argument: [], function: [], callThreshold: 0.5, more: [], moreThreshold: 1, maxCalls: 3 };

  it("gives a text parameter the option its description quotes and the question writes (unless describedOptions is off)", () => {
    const solve = tool(
      "solve_quadratic",
      {
        a: { type: "integer" },
        root_type: { type: "string", description: "The type of roots to return: 'real' for real roots, 'all' for both real and complex roots." },
      },
      ["a"],
    );
    const f = functionView(solve, questionView("Find all the roots of a quadratic equation with a = 3", joiners), new Map());
    const s = scoredFunction(f, { a: { 3: 0.9 }, root_type: { 3: 0.1 } }, { root_type: 0.9 });
    expect(argumentsOf(s, w, {})).toEqual([{ name: "solve_quadratic", arguments: { a: 3, root_type: "all" } }]);
    expect(argumentsOf(s, w, { describedOptions: false })).toEqual([{ name: "solve_quadratic", arguments: { a: 3 } }]);
  });

  it("pairs values with names listed before them (unless nameLists is off)", () => {
    const area = tool("calculate_area", { base: { type: "integer" }, height: { type: "integer" } }, ["base", "height"]);
    const f = functionView(area, questionView("Calculate the area given the lengths of its base and height as 6cm and 10cm.", joiners), new Map());
    const s = scoredFunction(f, { base: { 10: 0.9, 6: 0.1 }, height: { 6: 0.8, 10: 0.2 } });
    expect(argumentsOf(s, w, {})[0]!.arguments).toEqual({ base: 6, height: 10 });
    expect(argumentsOf(s, w, { nameLists: false })[0]!.arguments).toEqual({ base: 10, height: 6 });
  });

  it("widens a one-word value to the two-word name at a quarter of its chance by default (0.3 before)", () => {
    const recipe = tool("find_recipe", { recipeName: { type: "string" } }, ["recipeName"]);
    const q = "Find a recipe for pasta carbonara which has few calories";
    const name = (phrases: number) => {
      const f = functionView(recipe, { ...questionView(q, joiners), phrases }, new Map());
      return argumentsOf(scoredFunction(f, { recipeName: { pasta: 0.41, "pasta carbonara": 0.11, carbonara: 0.05 } }), w, {})[0]!.arguments;
    };
    expect(name(PHRASES)).toEqual({ recipeName: "pasta carbonara" });
    expect(name(0.3)).toEqual({ recipeName: "pasta" });
  });
});
