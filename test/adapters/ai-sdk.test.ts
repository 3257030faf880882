// Tools to and from the Vercel AI SDK's tools record, by shape (toolgen does not depend on `ai`). The records
// built here are what `tool({ description, inputSchema: jsonSchema(...) | z.object(...), execute })` returns.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fromAiSdkTools, toAiSdkTools, type AiSdkToolSet } from "../../src/adapters/ai-sdk.ts";
import { tool } from "../../src/tools/define.ts";
import { executeToolCall } from "../../src/tools/execute.ts";

const SCHEMA = Symbol.for("vercel.ai.schema");
/** What the AI SDK's `jsonSchema(schema)` returns, reduced to the fields it reads. */
const jsonSchema = (schema: object) => ({
  [SCHEMA]: true,
  jsonSchema: schema,
  validate: (value: unknown) => ({ success: true, value }),
});
const call = (name: string, args: Record<string, unknown>) =>
  ({ id: "c1", type: "function", function: { name, arguments: args } }) as const;

const add = tool({
  name: "add",
  description: "Add two numbers",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe("toAiSdkTools", () => {
  it("writes one record entry per tool, the schema wrapped as the AI SDK's jsonSchema() wraps it", () => {
    const record = toAiSdkTools([add]);
    expect(Object.keys(record)).toEqual(["add"]);
    const entry = record.add!;
    expect(entry.description).toBe("Add two numbers");
    const schema = entry.inputSchema as Record<string | symbol, unknown>;
    expect(schema[SCHEMA]).toBe(true);
    expect(schema.jsonSchema).toEqual(add.parameters);
    expect(entry.parameters).toBe(entry.inputSchema); // AI SDK 4 reads `parameters`
  });

  it("executes through toolgen (coercion, validation) and throws the tool's error for the AI SDK to report", async () => {
    const execute = toAiSdkTools([add]).add!.execute as (input: unknown, options: object) => Promise<unknown>;
    expect(await execute({ a: 2, b: "3" }, { toolCallId: "t1", messages: [] })).toBe("5");
    await expect(execute({ a: 2 }, { toolCallId: "t2", messages: [] })).rejects.toThrow(
      /invalid arguments for add[\s\S]*"b"/,
    );
  });

  it("passes the AI SDK's abort signal to the tool", async () => {
    const waits = tool({
      name: "waits",
      description: "Waits until aborted",
      inputSchema: { type: "object", properties: {} },
      execute: (_args, context) =>
        new Promise((done) => context.signal?.addEventListener("abort", () => done("stopped"))),
    });
    const controller = new AbortController();
    const execute = toAiSdkTools([waits]).waits!.execute as (
      input: unknown,
      options: object,
    ) => Promise<unknown>;
    const pending = execute({}, { toolCallId: "t", messages: [], abortSignal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it("leaves tools without execute for the caller, and refuses two tools of one name", () => {
    const spec = tool({
      name: "spec",
      description: "No code",
      inputSchema: { type: "object", properties: {} },
    });
    expect(toAiSdkTools([spec]).spec!.execute).toBeUndefined();
    expect(() => toAiSdkTools([add, add])).toThrow("two tools are named add");
  });
});

describe("fromAiSdkTools", () => {
  const calls: unknown[] = [];
  const record: AiSdkToolSet = {
    weather: {
      description: "Weather in a city",
      inputSchema: jsonSchema({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
      execute: (async (input: { city: string }, options: unknown) => {
        calls.push(options);
        return { city: input.city, celsius: 21 };
      }) as never,
    },
    shout: {
      description: "Upper-case a text",
      inputSchema: z.object({ text: z.string() }),
      execute: ((input: { text: string }) => input.text.toUpperCase()) as never,
    },
    legacy: {
      description: "AI SDK 4 style, a plain JSON Schema under `parameters`",
      parameters: { type: "object", properties: { n: { type: "integer" } } },
    },
  };

  it("reads names, descriptions and schemas from jsonSchema() wrappers, zod schemas and plain JSON Schema", () => {
    const tools = fromAiSdkTools(record);
    expect(tools.map((t) => t.name)).toEqual(["weather", "shout", "legacy"]);
    expect(tools[0]!.parameters).toEqual({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
    expect(tools[1]!.parameters.properties).toEqual({ text: { type: "string" } });
    expect(tools[2]!.parameters.properties).toEqual({ n: { type: "integer" } });
    expect(tools[2]!.execute).toBeUndefined();
  });

  it("runs the AI SDK execute with toolgen's validation, and the AI SDK's second argument", async () => {
    const tools = fromAiSdkTools(record);
    expect(await executeToolCall(call("weather", { city: "Oslo" }), tools)).toEqual({
      ok: true,
      content: JSON.stringify({ city: "Oslo", celsius: 21 }),
    });
    expect(calls[0]).toMatchObject({ toolCallId: "weather-1", messages: [] });
    expect(await executeToolCall(call("weather", {}), tools)).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments" },
    });
    expect(await executeToolCall(call("shout", { text: "hi" }), tools)).toEqual({ ok: true, content: "HI" });
  });

  it("round-trips: toolgen → AI SDK → toolgen keeps the tool", async () => {
    const [back] = fromAiSdkTools(toAiSdkTools([add]));
    expect(back!.name).toBe("add");
    expect(back!.parameters).toEqual(add.parameters);
    expect(await executeToolCall(call("add", { a: 1, b: 2 }), [back!])).toEqual({ ok: true, content: "3" });
  });

  it("rejects names the chat templates cannot carry and non-object schemas, naming the tool", () => {
    expect(() => fromAiSdkTools({ "bad name": { description: "x" } })).toThrow(/invalid tool name/);
    expect(() => fromAiSdkTools({ s: { inputSchema: jsonSchema({ type: "string" }) } })).toThrow(
      /AI SDK tool s: parameters must have type "object"/,
    );
  });
});
