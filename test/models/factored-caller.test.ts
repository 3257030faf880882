import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { FactoredCallerModel } from "../../src/models/caller-factored.ts";
import { candidatesFor, paramKind } from "../../src/models/factored/candidates.ts";
import { argumentsOf, assignLearned, callsOf, MORE_DIM, placesOf, type ScoredParam } from "../../src/models/factored/decide.ts";
import { functionView, pairFeatures, questionView } from "../../src/models/factored/features.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { synthesize } from "../../src/synth/index.ts";
import { callerExamples } from "../../src/train/caller-data.ts";
import { callsKey, mentionedBooleans, multiWordValues, percentValues, trainFactored, withoutNameCues, withoutValues } from "../../src/train/factored-train.ts";
import type { JsonSchema, ToolJson } from "../../src/tools/types.ts";

const entry = (id: string, description: string, properties: Record<string, JsonSchema>, required: string[]): CatalogEntry => ({
  id,
  tool: id,
  api: "",
  description,
  parameters: { type: "object", properties, required },
  doc: {},
});

const catalog: CatalogEntry[] = [
  entry("get_forecast", "Weather forecast for a city over some days.", { city: { type: "string", description: "The city" }, days: { type: "integer", description: "How many days" } }, ["city", "days"]),
  entry("convert_currency", "Convert an amount of money from one currency to another.", { amount: { type: "number", description: "The amount" }, target: { type: "string", enum: ["USD", "EUR", "JPY"], description: "Target currency" } }, ["amount", "target"]),
  entry("count_words", "Count the words of a text.", { text: { type: "string", description: "The text to count" } }, ["text"]),
  entry("book_table", "Book a table at a restaurant.", { restaurant: { type: "string", description: "Restaurant name" }, people: { type: "integer", description: "Number of guests" }, outdoor: { type: "boolean", description: "Sit outside" } }, ["restaurant", "people"]),
];

describe("factored caller parts", () => {
  it("reads numbers with units, exponents and signs, and quoted text", () => {
    const t = tokenize("mix 100g at -2 and 1e-9, then 'data-active' m/s^2");
    expect(t.filter((k) => k.kind === "number").map((k) => k.value)).toEqual([100, -2, 1e-9, 2]);
    const v = questionView("mix 100g at -2 and 1e-9, then 'data-active' m/s^2", new Set());
    expect(v.quoted.map((q) => q.text)).toEqual(["data-active"]);
    // the exponent of m/s^2 is no value
    expect(candidatesFor(v, paramKind({ type: "integer" })).map((c) => c.value)).toEqual([100, -2]);
  });

  it("offers an array of enum members the members the question mentions, each alone and all together", () => {
    const kind = paramKind({ type: "array", items: { type: "string", enum: ["Tennis Court", "tolls", "Wi-Fi", "A", "Picnic Area"] } });
    const v = questionView("a park with a tennis court, free Wi-Fi and no toll roads", new Set());
    const values = candidatesFor(v, kind).map((c) => c.value);
    // the whole list first (the scorer reads every list of members alike), then each member; "a" is not "A"
    expect(values).toEqual([["Tennis Court", "Wi-Fi", "tolls"], ["Tennis Court"], ["Wi-Fi"], ["tolls"]]);
    expect(candidatesFor({ ...v, enumLists: false }, kind).every((c) => !c.members)).toBe(true);
    // scored as one enum member is: the enum weights, its mention as evidence
    const tool: ToolJson = { type: "function", function: { name: "find_park", description: "", parameters: { type: "object", properties: { amenities: { type: "array", items: { type: "string", enum: ["Tennis Court", "Patio"] } } } } } };
    const f = functionView(tool, questionView("a park with a tennis court", new Set()), new Map());
    const [tennis] = f.params[0]!.candidates;
    expect(tennis!.value).toEqual(["Tennis Court"]);
    const x = pairFeatures(f, f.params[0]!, tennis!);
    expect([x[26], x[27]]).toEqual([1, 1]);
  });

  it("gives a list parameter one variable's name, not a list of one name (unless variables are off)", () => {
    const kind = paramKind({ type: "array", items: { type: "string" } });
    const v = questionView("sort the items myItemList and the array 'shapeStatements' with 'Bob' and 'Ann'", new Set(["and"]));
    const values = candidatesFor(v, kind).map((c) => c.value);
    expect(values).toContain("myItemList");
    expect(values).toContain("shapeStatements");
    expect(values).not.toContainEqual(["shapeStatements"]);
    expect(values).toContainEqual(["Bob", "Ann"]);
    const off = candidatesFor({ ...v, variables: false }, kind).map((c) => c.value);
    expect(off).toContainEqual(["shapeStatements"]);
    expect(off).not.toContain("myItemList");
  });

  it("gives an object parameter a variable's name the question writes (unless variables are off)", () => {
    const v = questionView("analyze a JSON payload `responseData` for Bob", new Set());
    expect(candidatesFor(v, paramKind({ type: "object" })).map((c) => [c.value, c.quoted])).toEqual([["responseData", true]]);
    expect(candidatesFor({ ...v, variables: false }, paramKind({ type: "object" }))).toEqual([]);
  });

  it("reads a bracketed list literal as a list, when no other candidate gives it", () => {
    const nums = paramKind({ type: "array", items: { type: "number" } });
    const v = questionView("cash flows [200,300,400,500] and the table [ [10, 20], [30, 40] ]", new Set());
    const values = candidatesFor(v, nums).map((c) => c.value);
    expect(values).toContainEqual([200, 300, 400, 500]);
    expect(values).toContainEqual([[10, 20], [30, 40]]);
    expect(candidatesFor({ ...v, literals: false }, nums).map((c) => c.value)).not.toContainEqual([200, 300, 400, 500]);
    const mixed = questionView("decode the list `['userID', 42, 'isActive', true]`", new Set());
    expect(candidatesFor(mixed, paramKind({ type: "array" })).map((c) => c.value)).toContainEqual(["userID", 42, "isActive", true]);
    // items of another type than the parameter's are no list of it
    expect(candidatesFor(mixed, nums).map((c) => c.value)).not.toContainEqual(["userID", 42, "isActive", true]);
  });

  it("reads a parameter's name past a symbol written onto the value ('$3000'), unless symbols are off", () => {
    const tool: ToolJson = { type: "function", function: { name: "cagr", description: "", parameters: { type: "object", properties: { final_value: { type: "integer" } } } } };
    const q = "final value of $3000 in 4 years";
    const on = functionView(tool, questionView(q, new Set()), new Map());
    const c = on.params[0]!.candidates.find((k) => k.value === 3000)!;
    expect(pairFeatures(on, on.params[0]!, c)[2]).toBeCloseTo(0.6);
    const off = functionView(tool, { ...questionView(q, new Set()), symbols: false }, new Map());
    expect(pairFeatures(off, off.params[0]!, c)[2]).toBeCloseTo(0.35);
  });

  it("reads a code identifier a description writes as a type's name, not as a value it names (unless typeNames is off)", () => {
    const tool: ToolJson = { type: "function", function: { name: "format", description: "", parameters: { type: "object", properties: { toAppendTo: { description: "The StringBuilder to which the ID is appended, such as Boston" } } } } };
    const q = "append it to the StringBuilder `logBuilder` in Boston";
    const on = functionView(tool, questionView(q, new Set()), new Map());
    const at = (f: typeof on, text: string) => pairFeatures(f, f.params[0]!, f.params[0]!.candidates.find((c) => c.value === text)!)[44];
    expect([at(on, "StringBuilder"), at(on, "Boston")]).toEqual([0, 1]);
    const off = functionView(tool, { ...questionView(q, new Set()), typeNames: false }, new Map());
    expect([at(off, "StringBuilder"), at(off, "Boston")]).toEqual([1, 1]);
  });

  it("never gives one span of the question to two parameters", () => {
    const tool: ToolJson = { type: "function", function: { name: "f", description: "", parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] } } };
    const f = functionView(tool, questionView("use 4 and 5", new Set()), new Map());
    // both parameters prefer the first number most
    const params: ScoredParam[] = f.params.map((info) => ({ info, probs: [0.9, 0.1], pNull: 0 }));
    const picked = assignLearned(f, params, undefined);
    const values = picked.map((p) => p.values[0]!.value);
    expect(values.sort()).toEqual([4, 5]);
  });

  it("offers spans across one comma only to a parameter whose description writes its values so", () => {
    const v = questionView("Find a hospital around Denver, Colorado with pediatrics.", new Set());
    const shown = paramKind({ type: "string", description: "The city and state, e.g. Boston, MA" });
    expect(shown.commaJoined).toBe(true);
    expect(candidatesFor(v, shown).map((c) => c.value)).toContain("Denver, Colorado");
    expect(candidatesFor({ ...v, commaJoined: false }, shown).map((c) => c.value)).not.toContain("Denver, Colorado");
    const plain = paramKind({ type: "string", description: "The city of the search." });
    expect(plain.commaJoined).toBeUndefined();
    expect(candidatesFor(v, plain).map((c) => c.value)).not.toContain("Denver, Colorado");
  });

  it("offers a percent as a fraction only to a parameter that takes fractions", () => {
    const v = questionView("at a rate of 5% over 10 years", new Set());
    expect(candidatesFor(v, paramKind({ type: "number" })).map((c) => c.value)).toEqual([5, 0.05, 10]);
    expect(candidatesFor(v, paramKind({ type: "integer" })).map((c) => c.value)).toEqual([5, 10]);
  });

  it("offers a run written without spaces whole, and no span that cuts it (unless glued runs are off)", () => {
    const q = "born 01-01-1980, docket 2022/AL2562 at 10:00AM.";
    const strings = (glued: boolean) =>
      candidatesFor(questionView(q, new Set(), true, glued), paramKind({ type: "string" })).map((c) => c.value);
    const on = strings(true);
    expect(on).toEqual(expect.arrayContaining(["01-01-1980", "2022/AL2562", "10:00AM", "born"]));
    expect(on).not.toContain("01");
    expect(on).not.toContain("1980");
    expect(on).not.toContain("AL2562");
    const off = strings(false);
    expect(off).toContain("01");
    expect(off).not.toContain("01-01-1980");
    // number parameters still read the numbers inside a run
    expect(candidatesFor(questionView(q, new Set()), paramKind({ type: "integer" })).map((c) => c.value)).toContain(1980);
  });

  it("counts another parameter's name as a cue only when that parameter takes values of the same family", () => {
    const tool: ToolJson = {
      type: "function",
      function: {
        name: "weather",
        description: "",
        parameters: {
          type: "object",
          properties: { location: { type: "string" }, include_humidity: { type: "boolean" }, unit: { type: "string" } },
          required: ["location"],
        },
      },
    };
    const q = "humidity in Seattle, unit Kelvin";
    const x9 = (kin: boolean, value: string) => {
      const f = functionView(tool, questionView(q, new Set(), true, true, kin), new Map());
      const p = f.params.find((k) => k.name === "location")!;
      return pairFeatures(f, p, p.candidates.find((c) => c.value === value)!)[9];
    };
    // the flag's name before "Seattle" is no cue against it; the other string parameter's name before "Kelvin" is
    expect(x9(true, "Seattle")).toBe(0);
    expect(x9(false, "Seattle")).toBeGreaterThan(0);
    expect(x9(true, "Kelvin")).toBeGreaterThan(0);
  });

  it("reads the values a description names (capitalised or quoted) for text values, not for numbers", () => {
    const tool: ToolJson = {
      type: "function",
      function: {
        name: "find_show",
        description: "",
        parameters: {
          type: "object",
          properties: {
            city: { type: "string", description: "The city, such as Boston." },
            genre: { type: "string", description: "The genre, e.g. 'jazz'." },
            seats: { type: "integer", description: "How many seats in the hall" },
          },
          required: ["city", "genre"],
        },
      },
    };
    const f = functionView(tool, questionView("jazz in Boston for 3 seats in the hall", new Set()), new Map());
    const x = (param: string, value: unknown) => {
      const p = f.params.find((k) => k.name === param)!;
      return pairFeatures(f, p, p.candidates.find((c) => c.value === value)!);
    };
    expect(x("city", "Boston")[44]).toBe(1);
    expect(x("city", "jazz")[44]).toBe(0);
    expect(x("city", "jazz")[45]).toBe(1); // genre's example
    expect(x("genre", "jazz")[44]).toBe(1);
    expect(x("genre", "Boston")[45]).toBe(1);
    // "hall" of the seats description stands just after "3"; the number is read as before
    expect([...x("seats", 3).slice(44)].every((v) => v === 0)).toBe(true);
    expect(x("city", "seats")[47]).toBeGreaterThan(0);
  });

  it("writes training copies with one-word string values made two words, in the value's case", () => {
    const e = {
      question: "search movies with genre Dastar and type nalul, imdb 5",
      tools: [],
      calls: [{ name: "f", arguments: { genre: "Dastar", type: "nalul", imdb: 5 } }],
    } as unknown as Parameters<typeof multiWordValues>[0];
    const two = multiWordValues(e, ["vonimais", "Stetheam"], 0);
    expect(two.question).toBe("search movies with genre Dastar Vonimais and type nalul stetheam, imdb 5");
    expect(two.calls[0]!.arguments).toEqual({ genre: "Dastar Vonimais", type: "nalul stetheam", imdb: 5 });
  });

  it("stems a code identifier as a whole, a plain word by its first letters", () => {
    expect(tokenize("use searchHitParser and max_results for searching").map((t) => t.stem)).toEqual(["use", "searchhitparser", "and", "max_results", "for", "searc"]);
  });

  it("writes training copies: a number as a percent, a true flag by its name alone, a question without its values", () => {
    const tools: ToolJson[] = [{ type: "function", function: { name: "grow", description: "", parameters: { type: "object", properties: { rate: { type: "number" }, verbose: { type: "boolean" }, city: { type: "string" } } } } }];
    const e = { tools, question: "grow with rate 2.5, verbose true and city Lima", calls: [{ name: "grow", arguments: { rate: 2.5, verbose: true, city: "Lima" } }] };
    const p = percentValues(e, 7);
    expect(p.question).toBe("grow with rate 8%, verbose true and city Lima");
    expect(p.calls[0]!.arguments.rate).toBe(0.08);
    expect(mentionedBooleans(e).question).toBe("grow with rate 2.5, verbose and city Lima");
    expect(withoutValues(e).replace(/\s+/g, " ")).toBe("grow with rate , verbose true and city ");
  });

  it("reads two values joined by a comma alone as one value in two parts, unless a joiner word lists them", () => {
    const tool: ToolJson = { type: "function", function: { name: "f", description: "", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };
    const yes = { weights: [10, ...new Array<number>(MORE_DIM - 1).fill(0)], threshold: 0.5 };
    const values = (question: string, commas?: boolean) => {
      const f = functionView(tool, questionView(question, new Set(["and"])), new Map());
      const info = f.params[0]!;
      // the scorer likes the first city most, the second next
      const probs = info.candidates.map((c) => (c.value === "Miami" ? 0.5 : ["Florida", "Boston", "Paris"].includes(String(c.value)) ? 0.3 : 0.001));
      return assignLearned(f, [{ info, probs, pNull: 0 }], { ...yes, commas })[0]!.values.map((c) => c.value);
    };
    expect(values("weather in Miami, Florida today")).toEqual(["Miami"]);
    expect(values("weather in Miami, Florida today", false)).toEqual(["Miami", "Florida"]);
    expect(values("weather in Miami and Boston today")).toEqual(["Miami", "Boston"]);
    expect(values("weather in Miami, Boston and Paris today")).toEqual(["Miami", "Boston", "Paris"]);
  });

  it("takes a further value in a near frame of a taken one, and lets the learnt 'more' weigh another parameter's claim", () => {
    const tool: ToolJson = { type: "function", function: { name: "f", description: "", parameters: { type: "object", properties: { city: { type: "string" }, region: { type: "string" } }, required: ["city"] } } };
    const yes = { weights: [10, ...new Array<number>(MORE_DIM - 1).fill(0)], threshold: 0.5 };
    const values = (question: string, o: { frames?: boolean; preferOther?: boolean; reserved?: [number, number][] } = {}) => {
      const f = functionView(tool, questionView(question, new Set(["and"])), new Map());
      const scored = f.params.map((info) => ({
        info,
        // the city likes Lima most, Quito next; the region wants Quito a little more than the city does
        probs: info.candidates.map((c) => (c.value === "Lima" ? (info.name === "city" ? 0.6 : 0) : c.value === "Quito" ? (info.name === "city" ? 0.2 : 0.25) : 0)),
        pNull: info.name === "city" ? 0 : 0.9,
      }));
      return assignLearned(f, scored, { ...yes, ...o }).find((p) => p.param.info.name === "city")!.values.map((c) => c.value);
    };
    // "in location Lima" and "one in Quito": no joiner, no same word right beside both, but "in" within two words
    const q = "a house in location Lima, and another one in Quito";
    expect(values(q)).toEqual(["Lima", "Quito"]);
    expect(values(q, { frames: false })).toEqual(["Lima"]);
    expect(values(q, { preferOther: true })).toEqual(["Lima"]);
    // side by side, the two see the same "in": no frame
    expect(values("a house in Lima Quito")).toEqual(["Lima"]);
    // a span another function called with this one took as a first value is no further value here
    const at = questionView(q, new Set()).tokens.findIndex((t) => t.text === "Quito");
    expect(values(q, { reserved: [[at, at + 1]] })).toEqual(["Lima"]);
  });

  it("places an enum member where its name is written, so that several written members make several calls", () => {
    const tool: ToolJson = { type: "function", function: { name: "f", description: "", parameters: { type: "object", properties: { period: { type: "string", enum: ["six_months", "year", "five_years"] } }, required: ["period"] } } };
    const yes = { weights: [10, ...new Array<number>(MORE_DIM - 1).fill(0)], threshold: 0.5 };
    const values = (question: string, enumPlaces?: boolean) => {
      const f = functionView(tool, questionView(question, new Set(["and"])), new Map());
      const info = f.params[0]!;
      const probs = info.candidates.map((c) => (c.value === "year" ? 0.4 : 0.3));
      return assignLearned(f, [{ info, probs, pNull: 0 }], { ...yes, enumPlaces })[0]!.values.map((c) => c.value);
    };
    const q = "rain over the last six months, the last year and the last five years";
    // in question order, joined or in the same frame ("the last")
    expect(values(q)).toEqual(["six_months", "year", "five_years"]);
    expect(values(q, false)).toEqual(["year"]);
    // a member whose name the question does not write is no further value
    expect(values("rain over the last year and more")).toEqual(["year"]);
    const f = functionView(tool, questionView(q, new Set()), new Map());
    const five = f.params[0]!.candidates.find((c) => c.value === "five_years")!;
    expect(placesOf(f, five)).toEqual([[13, 15]]);
    expect(placesOf(f, five, false)).toEqual([]);
  });

  it("calls every combination when two parameters' values stand as separate lists (cross), else pairs them in order", () => {
    const tool: ToolJson = { type: "function", function: { name: "f", description: "", parameters: { type: "object", properties: { team: { type: "string" }, season: { type: "integer" } }, required: ["team", "season"] } } };
    const calls = (question: string, cross: boolean) => {
      const f = functionView(tool, questionView(question, new Set(["and"])), new Map());
      const [team, season] = f.params;
      const pick = (info: typeof team, values: unknown[]) => ({ param: { info: info!, probs: [], pNull: 0 }, values: values.map((v) => info!.candidates.find((c) => c.value === v)!) });
      return callsOf("f", [pick(team, ["Lakers", "Bulls"]), pick(season, [2018, 2020])], 6, cross).map((c) => c.arguments);
    };
    const lists = "Lakers and Bulls in seasons 2018 and 2020";
    expect(calls(lists, true)).toHaveLength(4);
    expect(calls(lists, false)).toEqual([{ team: "Lakers", season: 2018 }, { team: "Bulls", season: 2020 }]);
    // values that take turns pair in order, cross or not
    expect(calls("Lakers in 2018 and Bulls in 2020", true)).toEqual([{ team: "Lakers", season: 2018 }, { team: "Bulls", season: 2020 }]);
  });

  it("lets a parameter take a value outside its function's segment when that one is far likelier (widenWeak)", () => {
    const tool: ToolJson = { type: "function", function: { name: "coverage", description: "", parameters: { type: "object", properties: { company: { type: "string" } }, required: ["company"] } } };
    const f = functionView(tool, questionView("the sales growth of XYZ and the coverage ratio for the same duration", new Set(["and"])), new Map());
    const info = f.params[0]!;
    const probs = info.candidates.map((c) => (c.value === "XYZ" ? 0.8 : c.value === "duration" ? 0.04 : 0));
    const scored = { view: f, params: [{ info, probs, pNull: 0 }], features: new Float32Array(0) };
    const w = { argument: [], function: [], callThreshold: 0.5, more: new Array<number>(MORE_DIM).fill(0), moreThreshold: 0.9, maxCalls: 6 };
    // this function's segment starts at its name word "coverage"
    const from = f.view.tokens.findIndex((t) => t.lower === "coverage");
    const allowed = (c: { start: number }) => c.start < 0 || c.start >= from;
    const company = (widenWeak?: number) => argumentsOf(scored, w, { widenWeak }, allowed)[0]!.arguments.company;
    expect(company()).toBe("XYZ");
    expect(company(Infinity)).toBe("duration");
    // 0.8 is under 32 times 0.04: the value in the segment stays
    expect(company(32)).toBe("duration");
  });

  it("drops parameter-name cues but keeps the values", () => {
    const e = { tools: [{ type: "function" as const, function: { name: "get_forecast", description: "", parameters: catalog[0]!.parameters } }], question: "forecast for city Paris for 3 days", calls: [{ name: "get_forecast", arguments: { city: "Paris", days: 3 } }] };
    expect(withoutNameCues(e).question).toBe("forecast for Paris for 3");
  });

  it("learns from synth questions to fill held-out ones", () => {
    const train = callerExamples(synthesize(catalog, { seed: 1, perTool: 120, declineShare: 0.2, distractors: 1, multiCallShare: 0.2 }), catalog);
    const file = trainFactored(train, { epochs: 3 });
    const model = new FactoredCallerModel(file);
    const held = callerExamples(synthesize(catalog, { seed: 77, perTool: 15, declineShare: 0, distractors: 1, multiCallShare: 0 }), catalog);
    const right = held.filter((e) => callsKey(model.calls(e.tools, e.question)) === callsKey(e.calls)).length;
    expect(right / held.length).toBeGreaterThan(0.6);
    // a question with values the training never drew
    const tools = catalog.map((c) => ({ type: "function" as const, function: { name: c.id, description: c.description, parameters: c.parameters } }));
    expect(model.calls(tools, "what is the weather forecast in Zorbalin for 6 days?")).toEqual([{ name: "get_forecast", arguments: { city: "Zorbalin", days: 6 } }]);
  }, 60_000);
});

describe("the committed models/caller", () => {
  it("loads through builtin: as the factored caller, calls an offered function and declines an unrelated question", async () => {
    const { resolveModel } = await import("../../src/models/resolve.ts");
    const model = await resolveModel("builtin:models/caller");
    expect(model).toBeInstanceOf(FactoredCallerModel);
    const tools = catalog.slice(0, 2).map((c) => ({ type: "function" as const, function: { name: c.id, description: c.description, parameters: c.parameters } }));
    const r = await model.generate([{ role: "user", content: "Convert 250 dollars to EUR" }], { tools });
    expect(r.message.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([["convert_currency", { amount: 250, target: "EUR" }]]);
    const none = await model.generate([{ role: "user", content: "Who painted the Mona Lisa?" }], { tools: [tools[0]!] });
    expect(none.message.tool_calls).toBeUndefined();
  });
});
