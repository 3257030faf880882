import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallerChatModel } from "../../src/models/caller-chat.ts";
import { callerPrompt, callerReply, offeredDistinctCalls, parseCallerReply } from "../../src/models/caller-prompt.ts";
import { resolveModel } from "../../src/models/resolve.ts";
import { validateArguments } from "../../src/tools/validate.ts";
import { callerExamples, callerSample, forcedNameRanges, functionName } from "../../src/train/caller-data.ts";
import { trainCaller } from "../../src/train/caller-train.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import type { ToolJson } from "../../src/tools/types.ts";
import { ADD, FIXTURE, TRANSLATE, WEATHER } from "./caller-fixture.ts";

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "caller-test-"));
  // memorises the fixture: a 1-layer, 48-wide model
  await trainCaller({
    examples: FIXTURE,
    out: dir,
    steps: 160,
    batchSize: 6,
    lr: 1e-2,
    seed: 3,
    tokenizerVocab: 420,
    maxTokens: 512,
    config: { hiddenSize: 48, intermediateSize: 128, numLayers: 1, numHeads: 2, maxPositions: 512 },
    log: () => {},
  });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every call names an offered function, its arguments validate, and its free strings are spans of the question. */
function checkCalls(tools: ToolJson[], question: string, calls: { name: string; arguments: Record<string, unknown> }[]): void {
  for (const c of calls) {
    const tool = tools.find((t) => t.function.name === c.name);
    expect(tool, `offered: ${c.name}`).toBeDefined();
    expect(validateArguments(c.arguments, tool!.function.parameters)).toEqual([]);
    for (const [key, value] of Object.entries(c.arguments)) {
      const schema = tool!.function.parameters.properties[key]!;
      if (typeof value === "string" && !schema.enum) expect(question).toContain(value);
    }
  }
}

describe("the function caller's prompt and reply", () => {
  it("lists each function with its parameters, then the question", () => {
    const p = callerPrompt([WEATHER], "weather in Oslo?");
    expect(p).toContain("get_weather: Current weather in a city.");
    expect(p).toContain(" - city (string, required): City name");
    expect(p).toContain(" - unit (string, optional, one of celsius|fahrenheit)");
    expect(p.endsWith("<|question|>weather in Oslo?<|calls|>")).toBe(true);
  });

  it("writes replies in the constraint's key order and parses them back", () => {
    const text = callerReply([TRANSLATE], [{ name: "translate_text", arguments: { target: "fr", text: "hi" } }]);
    expect(text).toBe('[{"name":"translate_text","parameters":{"text":"hi","target":"fr"}}]');
    expect(parseCallerReply(text)).toEqual([{ name: "translate_text", arguments: { text: "hi", target: "fr" } }]);
    expect(parseCallerReply("[]")).toEqual([]);
    expect(parseCallerReply("[{")).toBeUndefined();
  });

  it("makes each distinct call once and only calls to offered functions", () => {
    const oslo = { name: "get_weather", arguments: { city: "Oslo" } };
    const rome = { name: "get_weather", arguments: { city: "Rome" } };
    const other = { name: "book_flight", arguments: {} };
    expect(offeredDistinctCalls([oslo, rome, { ...oslo }, other, rome], [WEATHER])).toEqual([oslo, rome]);
  });

  it("keeps a long question whole up to the default limit (1,200 characters)", () => {
    const long = "word ".repeat(200).trim();
    expect(callerPrompt([WEATHER], long)).toContain(`${long}<|calls|>`);
  });

  it("finds the part of each function name the decoder forces, and can leave it out of the loss", () => {
    const calls = [
      { name: "get_weather", arguments: { city: "Oslo" } },
      { name: "math.add", arguments: { a: 1, b: 2 } },
    ];
    const reply = callerReply([WEATHER, ADD], calls);
    // with get_weather and math.add offered, the first letter decides: the rest of each name is forced
    const ranges = forcedNameRanges([WEATHER, ADD], calls);
    expect(ranges.map(([a, b]) => reply.slice(a, b))).toEqual(["et_weather", "ath.add"]);
    // alone, a name is forced from its first letter; next to a longer name with its prefix, not at all
    expect(forcedNameRanges([ADD], [calls[1]!]).map(([a, b]) => callerReply([ADD], [calls[1]!]).slice(a, b))).toEqual(["math.add"]);
    const longer = { ...ADD, function: { ...ADD.function, name: "math.add_all" } };
    expect(forcedNameRanges([ADD, longer], [calls[1]!])).toEqual([]);
    const tok = Tokenizer.train([reply], 300, { specialTokens: ["<|pad|>", "<|tools|>", "<|question|>", "<|calls|>", "<|end|>"] });
    const ex = { tools: [WEATHER, ADD], question: "weather in Oslo and 1 plus 2", calls };
    const all = callerSample(tok, ex);
    const skipped = callerSample(tok, ex, undefined, { skipForcedNames: true });
    expect(skipped.ids).toEqual(all.ids);
    const predicted = (s: typeof all) => Array.from(s.lossMask!).filter(Boolean).length;
    expect(predicted(skipped)).toBeLessThan(predicted(all));
    expect(predicted(skipped)).toBeGreaterThan(0);
  });

  it("offers StableToolBench-style ids under function names", () => {
    const entry = { id: "suivi-colis&&Health", tool: "suivi-colis", api: "Health", description: "", parameters: { type: "object" as const, properties: {} }, doc: {} };
    expect(functionName(entry)).toBe("suivi_colis.health");
    const ex = callerExamples([{ question: "q", tools: ["suivi-colis&&Health"], calls: [{ name: "suivi-colis&&Health", arguments: {} }] }], [entry]);
    expect(ex[0]!.calls[0]!.name).toBe("suivi_colis.health");
  });
});

describe("the function caller (builtin:DIR with caller.json)", () => {
  it("loads through builtin: as a CallerChatModel", async () => {
    const model = await resolveModel(`builtin:${dir}`);
    expect(model).toBeInstanceOf(CallerChatModel);
    // the copy constraint knows no English by default (src/constrain/policy.ts)
    expect((model as CallerChatModel).policy.name).toBe("neutral");
  });

  it("answers the memorised questions, declines included", async () => {
    const model = CallerChatModel.load(dir);
    for (const ex of FIXTURE) {
      const r = model.calls(ex.tools, ex.question);
      checkCalls(ex.tools, ex.question, r.calls);
      expect(r.calls).toEqual(ex.calls);
    }
    const { message } = await model.generate([{ role: "user", content: "Tell me a joke about cats" }], { tools: [WEATHER] });
    expect(message.tool_calls).toBeUndefined();
    expect(message.content).toBe("");
  });

  it("only ever emits offered names and schema-valid, copied arguments on new questions and tools", () => {
    const model = CallerChatModel.load(dir);
    const other: ToolJson = {
      type: "function",
      function: {
        name: "book_flight",
        description: "Book a flight.",
        parameters: {
          type: "object",
          properties: { from: { type: "string" }, to: { type: "string" }, seats: { type: "integer", minimum: 1 }, class: { enum: ["economy", "business"] } },
          required: ["from", "to"],
        },
      },
    };
    const sets = [[other], [other, ADD], [TRANSLATE, other, WEATHER], [ADD]];
    const questions = ["fly from Paris to Tokyo with 2 seats", "add 7 and 9 please", "weather in Zürich", "nothing to see here", "translate merci into de"];
    for (const tools of sets)
      for (const q of questions) {
        const r = model.calls(tools, q);
        checkCalls(tools, q, r.calls);
      }
  });

  it("the committed models/caller-lm loads through builtin: and makes only offered, valid calls", async () => {
    const model = await resolveModel("builtin:models/caller-lm");
    expect(model).toBeInstanceOf(CallerChatModel);
    for (const ex of FIXTURE) checkCalls(ex.tools, ex.question, (model as CallerChatModel).calls(ex.tools, ex.question).calls);
  });

  it("writes only documented parameters, also for a function whose schema declares none", () => {
    const bare: ToolJson = {
      type: "function",
      function: { name: "video.convert", description: "hls => mp4 converter", parameters: { type: "object", properties: {} } },
    };
    const search: ToolJson = {
      type: "function",
      function: {
        name: "places.search",
        description: "Search places by country code and page.",
        parameters: { type: "object", properties: { country_code: { type: "string" }, page: { type: "string" } } },
      },
    };
    const q = "convert hls to mp4, then search places with country code gogomol, id stolabair, page 3 and q Maistam";
    for (const model of [CallerChatModel.load(dir), CallerChatModel.load("models/caller-lm")])
      for (const tools of [[bare], [bare, search], [search, bare]]) {
        const r = model.calls(tools, q);
        for (const c of r.calls) {
          const documented = Object.keys(tools.find((t) => t.function.name === c.name)!.function.parameters.properties ?? {});
          expect(Object.keys(c.arguments).filter((k) => !documented.includes(k))).toEqual([]);
        }
      }
  });

  it("with the schema alone or no constraint, still makes only offered calls", () => {
    for (const constraint of ["schema", "none"] as const) {
      const model = CallerChatModel.load(dir, { constraint });
      const r = model.calls([WEATHER, ADD], "What is the weather in Lisbon?");
      for (const c of r.calls) expect(["get_weather", "math.add"]).toContain(c.name);
    }
  });

  it("answers a tool's result with that result and writes nothing without tools", async () => {
    const model = CallerChatModel.load(dir);
    const after = await model.generate(
      [
        { role: "user", content: "weather in Oslo" },
        { role: "tool", content: "12 °C", tool_call_id: "call_0" },
      ],
      { tools: [WEATHER] },
    );
    expect(after.message.content).toBe("12 °C");
    const none = await model.generate([{ role: "user", content: "hi" }]);
    expect(none.message.content).toBe("");
  });
});
