/**
 * The llama.cpp ChatModel on our exported model: grammars from tool schemas and constraints are accepted by
 * llama.cpp and the model's output obeys them; streaming gives the same text as generate.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../../src/chat/messages.ts";
import { exportCheckpointToGguf } from "../../../src/nn/gguf/export.ts";
import { llamaCppAvailable, LlamaCppModel } from "../../../src/models/llamacpp.ts";
import { choiceGrammar, jsonSchemaGrammar } from "../../../src/models/llamacpp/grammar.ts";
import type { StreamEvent } from "../../../src/models/model.ts";
import type { ObjectSchema, ToolJson } from "../../../src/tools/types.ts";
import { trainedFixture, type TrainedFixture } from "../../helpers/gguf-fixture.ts";

const available = await llamaCppAvailable();
if (!available)
  console.warn(
    "SKIP: node-llama-cpp (optional dependency) cannot load here; llama.cpp chat tests are skipped.",
  );

const WEATHER: ToolJson = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        days: { type: "integer" },
      },
      required: ["city"],
    },
  },
};
const FLIGHTS: ToolJson = {
  type: "function",
  function: {
    name: "search_flights",
    description: "Search flights",
    parameters: {
      type: "object",
      properties: {
        from: { type: "string" },
        to: { type: "string" },
        passengers: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, age: { type: "number" } },
            required: ["name"],
          },
        },
        direct: { type: "boolean" },
      },
      required: ["from", "to"],
    },
  },
};
const USER: Message[] = [{ role: "user", content: "Weather in Paris?" }];
const ajv = new Ajv({ strict: false });
const validate = (schema: ObjectSchema, value: unknown) => ajv.validate(schema, value);

describe("JSON Schema to GBNF", () => {
  it("writes rules for every kind of schema", () => {
    const g = jsonSchemaGrammar({
      type: "object",
      properties: {
        a: { const: "x" },
        b: { anyOf: [{ type: "number" }, { type: "null" }] },
        c: { type: ["string", "integer"] },
        d: { $ref: "#/$defs/node" },
      },
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
    });
    expect(g.startsWith("root ::= ")).toBe(true);
    expect(g).toContain('"\\"x\\""');
    expect(g).toMatch(/ref-node-\d+ ::= /);
    expect(() => jsonSchemaGrammar({ $ref: "#/nowhere" })).toThrow(/not a local/);
    expect(choiceGrammar(["yes", 'a "quoted"\n'])).toBe('root ::= "yes" | "a \\"quoted\\"\\n"\n');
  });
});

describe.skipIf(!available)("llama.cpp ChatModel", () => {
  let fx: TrainedFixture;
  let gg: LlamaCppModel;
  beforeAll(async () => {
    fx = await trainedFixture(100, 1024); // trained longer to learn its tool call; room for the tools block
    const file = join(mkdtempSync(join(tmpdir(), "chat-")), "model.gguf");
    exportCheckpointToGguf(fx.dir, file);
    gg = await LlamaCppModel.load(`gguf:${file}`);
  });
  afterAll(async () => {
    await gg?.dispose();
  });

  it("renders the file's chat template and answers in text", async () => {
    const r = await gg.generate(USER, { maxTokens: 12 });
    expect(r.message.role).toBe("assistant");
    expect(typeof r.message.content).toBe("string");
    expect(r.usage.promptTokens).toBeGreaterThan(5);
    expect(["stop", "length"]).toContain(r.finishReason);
    expect((r.raw as { prompt: string }).prompt).toBe(
      "<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("makes a required tool call whose arguments satisfy the schema", async () => {
    for (const temperature of [0, 1.2]) {
      for (const seed of [1, 2, 3]) {
        const r = await gg.generate(USER, {
          tools: [WEATHER, FLIGHTS],
          toolChoice: "required",
          maxTokens: 200,
          temperature,
          seed,
        });
        expect(r.finishReason).toBe("tool_calls");
        const call = r.message.tool_calls![0]!;
        const tool = [WEATHER, FLIGHTS].find((t) => t.function.name === call.function.name)!;
        expect(tool).toBeDefined();
        expect(validate(tool.function.parameters, call.function.arguments), JSON.stringify(call)).toBe(true);
      }
    }
  });

  it("calls the named tool when toolChoice names it", async () => {
    const r = await gg.generate(USER, {
      tools: [FLIGHTS, WEATHER],
      toolChoice: { name: "get_weather" },
      maxTokens: 200,
    });
    const call = r.message.tool_calls![0]!;
    expect(call.function.name).toBe("get_weather");
    expect(validate(WEATHER.function.parameters, call.function.arguments)).toBe(true);
    await expect(gg.generate(USER, { tools: [WEATHER], toolChoice: { name: "nope" } })).rejects.toThrow(
      /not among the tools/,
    );
  });

  it("reports a call cut off by maxTokens as finishReason length, without a call", async () => {
    const r = await gg.generate(USER, { tools: [WEATHER], toolChoice: "required", maxTokens: 4 });
    expect(r.finishReason).toBe("length");
    expect(r.message.tool_calls).toBeUndefined();
    expect(r.message.content.length).toBeGreaterThan(0);
    expect("<tool_call>\n{").toContain(r.message.content.slice(0, 5));
  });

  it("with toolChoice auto, finishes an opened <tool_call> under the grammar", async () => {
    const r = await gg.generate(USER, { tools: [WEATHER], maxTokens: 100 });
    // The fixture was trained to answer this question with a tool call.
    expect(r.message.tool_calls?.[0]?.function.name).toBe("get_weather");
    expect(validate(WEATHER.function.parameters, r.message.tool_calls![0]!.function.arguments)).toBe(true);
  });

  it("obeys choice, json-schema, grammar and tokens constraints", async () => {
    const choice = await gg.generate(USER, {
      constraint: { kind: "choice", options: ["yes", "no", "maybe later"] },
      temperature: 1,
      seed: 4,
    });
    expect(["yes", "no", "maybe later"]).toContain(choice.message.content);
    const schema: ObjectSchema = {
      type: "object",
      properties: { ok: { type: "boolean" }, n: { type: "integer" } },
      required: ["ok", "n"],
    };
    const js = await gg.generate(USER, { constraint: { kind: "json-schema", schema }, maxTokens: 200 });
    expect(validate(schema, JSON.parse(js.message.content))).toBe(true);
    const gr = await gg.generate(USER, { constraint: { kind: "grammar", gbnf: 'root ::= [0-9] [0-9] "!"' } });
    expect(gr.message.content).toMatch(/^[0-9]{2}!$/);
    const ids = TOOL_IDS(fx);
    for (const temperature of [0, 1]) {
      // Unconstrained, this model starts its reply with "<tool_call>"; under the mask only tool tokens remain.
      const tk = await gg.generate(USER, {
        constraint: { kind: "tokens", ids },
        maxTokens: 3,
        temperature,
        seed: 9,
      });
      expect(tk.usage.completionTokens).toBeGreaterThan(0);
      for (const id of gg.tokenize(tk.message.content)) expect(ids).toContain(id);
    }
  });

  it("streams the same text that generate returns", async () => {
    const options = { maxTokens: 20, stop: ["\n\n"] };
    const full = await gg.generate(USER, options);
    let text = "";
    let done: StreamEvent | undefined;
    for await (const e of gg.stream(USER, options)) {
      if (e.type === "text") text += e.delta;
      if (e.type === "done") done = e;
    }
    expect(done?.type).toBe("done");
    expect(text.trim()).toBe(full.message.content);
  });
});

function TOOL_IDS(fx: TrainedFixture): number[] {
  return ["<<Weather&&Get current>>", "<<Flights&&Search>>", "<<Finish>>"].map((t) =>
    fx.tokenizer.tokenToId(t)!,
  );
}
