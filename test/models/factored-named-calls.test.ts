import { describe, expect, it } from "vitest";
import { chooseFunctions, mentionPlaces, wordJoined, type FactoredWeights, type ScoredFunction } from "../../src/models/factored/decide.ts";
import { candidatesFor } from "../../src/models/factored/candidates.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { dropWrittenNames, writtenNamePlaces } from "../../src/models/factored/written-names.ts";
import type { ToolJson } from "../../src/tools/types.ts";

const joiners = new Set(["and"]);

const tool = (name: string, params: Record<string, { type: string }>): ToolJson => ({
  type: "function",
  function: {
    name,
    description: "Looks up a record.",
    parameters: { type: "object", properties: params, required: Object.keys(params) },
  },
});

describe("factored caller: a function's whole name written in the question", () => {
  const q = "How much rain fell in Leeds? Then use the 'traffic_stats.delays_by_city' function for Leeds, and the news.";

  it("is found where written letter for letter, for names of two or more words only", () => {
    const t = tokenize(q);
    const at = writtenNamePlaces(t, ["traffic_stats.delays_by_city", "weather_history.rain_by_city", "news", "traffic_stats"]);
    expect(at[0]!.map((k) => t[k]!.text)).toEqual(["traffic_stats.delays_by_city"]);
    expect(at[1]).toEqual([]); // not written
    expect(at[2]).toEqual([]); // one word: a question writes "news" for its own sake
    expect(at[3]).toEqual([]); // only part of a written name
  });

  it("takes no chance as a value; the others and the null are scaled back", () => {
    const t = tokenize(q);
    const k = t.findIndex((x) => x.text === "traffic_stats.delays_by_city");
    const leeds = t.findIndex((x) => x.text === "Leeds");
    const param = {
      info: {
        candidates: [
          { family: "span" as const, value: "traffic_stats.delays_by_city", start: k, end: k + 1, quoted: true },
          { family: "span" as const, value: "Leeds", start: leeds, end: leeds + 1, quoted: false },
        ],
      },
      probs: [0.6, 0.3],
      pNull: 0.1,
    };
    dropWrittenNames(param, [k]);
    expect(param.probs[0]).toBe(0);
    expect(param.probs[1]).toBeCloseTo(0.75, 6);
    expect(param.pNull).toBeCloseTo(0.25, 6);
  });

  // p = sigmoid(2 * features[0]); features[5] is the fill (decide.ts FILL_FEATURE)
  const weights: FactoredWeights = { argument: [], function: [2, 0, 0, 0, 0, 0], callThreshold: 0.3, more: [], moreThreshold: 0.9, maxCalls: 8 };
  const view = questionView(q, joiners);
  const scored = (t: ToolJson, logit: number): ScoredFunction => {
    const f = functionView(t, view, new Map());
    return { view: f, params: [], features: new Float32Array([logit / 2, 0, 0, 0, 0, 1]) };
  };
  const rain = scored(tool("weather_history.rain_by_city", { city: { type: "string" } }), 3);
  const delays = (logit: number) => scored(tool("traffic_stats.delays_by_city", { city: { type: "string" } }), logit);

  it("calls the function it names, below the call threshold and mentioned by no name word of its own", () => {
    const low = delays(-2.2); // p 0.1
    expect(chooseFunctions([rain, low], weights).map((s) => s.view.tool.function.name)).toEqual(["weather_history.rain_by_city", "traffic_stats.delays_by_city"]);
    expect(chooseFunctions([rain, low], weights, { writtenNames: false }).map((s) => s.view.tool.function.name)).toEqual(["weather_history.rain_by_city"]);
    // past the gate but mentioned only by its written name: the mention filter kept the other alone
    const high = delays(3);
    expect(chooseFunctions([rain, high], weights).length).toBe(2);
    expect(chooseFunctions([rain, high], weights, { writtenNames: false }).map((s) => s.view.tool.function.name)).toEqual(["weather_history.rain_by_city"]);
  });

  it("starts the function's segment where its name is written", () => {
    const at = view.tokens.findIndex((x) => x.text === "traffic_stats.delays_by_city");
    expect(mentionPlaces([rain, delays(3)], undefined, false, true)).toEqual([view.tokens.findIndex((x) => x.text === "rain"), at]);
    expect(mentionPlaces([rain, delays(3)], undefined, false, false)[1]).toBe(-1);
  });
});

describe("factored caller: values joined by a joiner word", () => {
  const q = "What is the weight of Neutron and Proton, or of Quark, Gluon?";
  const f = functionView(tool("particle_weight", { particle: { type: "string" } }), questionView(q, joiners), new Map());
  const span = (w: string) => f.params[0]!.candidates.find((c) => c.value === w && c.end - c.start === 1)!;

  it("are joined either way round by a word, not by a comma alone", () => {
    expect(wordJoined(f, [span("Proton")], span("Neutron"), true)).toBe(true);
    expect(wordJoined(f, [span("Neutron")], span("Proton"), true)).toBe(true);
    expect(wordJoined(f, [span("Quark")], span("Gluon"), true)).toBe(false);
    expect(wordJoined(f, [span("Neutron")], span("Gluon"), true)).toBe(false);
  });
});

describe("factored caller: a dictionary written as a literal", () => {
  const q = "Average the grades using the grade dictionary {'Math': 85, 'English': 90.5} for John.";
  const dict = { type: "object" as const };

  it("is offered whole to an object parameter, read as JSON", () => {
    const v = { ...questionView(q, joiners), dictLiterals: true };
    const found = candidatesFor(v, dict).filter((c) => typeof c.value === "object");
    expect(found.map((c) => c.value)).toEqual([{ Math: 85, English: 90.5 }]);
    const t = v.tokens;
    expect(t[found[0]!.start]!.text).toBe("{");
    expect(t[found[0]!.end - 1]!.text).toBe("}");
  });

  it("is not offered without dictionary literals (the ablation), nor where the braces hold no JSON", () => {
    expect(candidatesFor(questionView(q, joiners), dict).filter((c) => typeof c.value === "object")).toEqual([]);
    const v = { ...questionView("Use {not json here} please.", joiners), dictLiterals: true };
    expect(candidatesFor(v, dict).filter((c) => typeof c.value === "object")).toEqual([]);
  });
});
