import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tool } from "../../src/tools/define.ts";
import { executeToolCall } from "../../src/tools/execute.ts";
import type { JsonSchema, Tool, ToolCall } from "../../src/tools/types.ts";

const call = (name: string, args: unknown): ToolCall =>
  ({ id: "1", type: "function", function: { name, arguments: args } }) as ToolCall;

const echo = (name: string, schema: Record<string, JsonSchema>, required: string[] = []): Tool =>
  tool({
    name,
    description: "echo",
    inputSchema: { type: "object", properties: schema, required },
    execute: (args) => args,
  });

const multiply = echo("multiply", { a: { type: "number" }, b: { type: "number" } }, ["a", "b"]);
const tools = [
  multiply,
  echo("get_current_temperature", {}),
  echo("get_current_wind_speed", {}),
  echo("current_time", {}),
];

describe("unknown tool", () => {
  it("names the closest valid tools", async () => {
    const res = await executeToolCall(call("get_current_temprature", {}), tools);
    expect(res).toEqual({
      ok: false,
      error: {
        code: "unknown_tool",
        message:
          'unknown tool "get_current_temprature"; did you mean "get_current_temperature", "get_current_wind_speed", "current_time"?',
      },
    });
  });
  it("says when there are no tools at all", async () => {
    const res = await executeToolCall(call("x", {}), []);
    expect(res).toEqual({
      ok: false,
      error: { code: "unknown_tool", message: 'unknown tool "x"; no tools are available' },
    });
  });
});

describe("argument validation", () => {
  it("lists every violation by JSON pointer", async () => {
    const t = echo(
      "t",
      {
        n: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
        unit: { type: "string", enum: ["c", "f"] },
        inner: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
        must: { type: "string" },
      },
      ["n", "unit", "inner", "must"],
    );
    const res = await executeToolCall(call("t", { n: 1.5, tags: ["a", {}], unit: "k", inner: {} }), [t]);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe("invalid_arguments");
    expect(res.error.message.split("\n")).toEqual([
      "invalid arguments for t:",
      '- /: missing required property "must"',
      "- /n: must be integer",
      "- /tags/1: must be string",
      '- /unit: must be one of ["c","f"]',
      '- /inner: missing required property "x"',
    ]);
  });

  it("accepts undeclared keys unless rejectUnknownKeys is set", async () => {
    const args = { a: 1, b: 2, c: 3 };
    expect(await executeToolCall(call("multiply", args), tools)).toEqual({
      ok: true,
      content: '{"a":1,"b":2,"c":3}',
    });
    expect(await executeToolCall(call("multiply", args), tools, {}, { rejectUnknownKeys: true })).toEqual({
      ok: false,
      error: {
        code: "invalid_arguments",
        message: 'invalid arguments for multiply:\n- /: unexpected property "c"',
      },
    });
  });

  it("rejects arguments that are not an object", async () => {
    for (const bad of [[1, 2], "a=1", 5, null]) {
      const res = await executeToolCall(call("multiply", bad), tools);
      if (bad === null) expect(res).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
      else
        expect(res).toMatchObject({
          ok: false,
          error: { code: "invalid_arguments", message: expect.stringContaining("must be a JSON object") },
        });
    }
  });

  it.each(["__proto__", "constructor", "prototype"])("rejects the key %s, also nested", async (key) => {
    const top = JSON.parse(`{"a": 1, "b": 2, "${key}": {"x": 1}}`) as Record<string, unknown>;
    const nested = JSON.parse(`{"a": 1, "b": {"deep": {"${key}": 1}}}`) as Record<string, unknown>;
    expect(await executeToolCall(call("multiply", top), tools)).toEqual({
      ok: false,
      error: { code: "forbidden_key", message: `arguments of multiply use reserved keys: /${key}` },
    });
    expect(await executeToolCall(call("multiply", nested), tools)).toMatchObject({
      ok: false,
      error: { code: "forbidden_key", message: expect.stringContaining(`/b/deep/${key}`) },
    });
  });

  it("enforces a configurable size limit", async () => {
    const t = echo("big", { s: { type: "string" } });
    const args = { s: "x".repeat(2000) };
    expect(await executeToolCall(call("big", args), [t], {}, { maxArgumentBytes: 1000 })).toEqual({
      ok: false,
      error: { code: "arguments_too_large", message: "arguments of big are 2008 bytes; the limit is 1000" },
    });
    expect((await executeToolCall(call("big", args), [t], {}, { maxArgumentBytes: 5000 })).ok).toBe(true);
  });

  it("does not change the caller's arguments object", async () => {
    const args = { a: "3", b: "4" };
    await executeToolCall(call("multiply", args), tools);
    expect(args).toEqual({ a: "3", b: "4" });
  });

  it("maps a zod refinement failure to invalid_arguments", async () => {
    const t = tool({
      name: "even",
      description: "takes an even number",
      inputSchema: z.object({ n: z.number().refine((n) => n % 2 === 0, "must be even") }),
      execute: ({ n }) => n / 2,
    });
    expect(await executeToolCall(call("even", { n: 4 }), [t])).toEqual({ ok: true, content: "2" });
    expect(await executeToolCall(call("even", { n: 3 }), [t])).toEqual({
      ok: false,
      error: { code: "invalid_arguments", message: "invalid arguments for even: /n: must be even" },
    });
  });
});

describe("coercion table", () => {
  const t = echo("c", {
    num: { type: "number" },
    int: { type: "integer" },
    flag: { type: "boolean" },
    str: { type: "string" },
    list: { type: "array", items: { type: "number" } },
    opt: { type: "string", nullable: true },
  });
  const cases: [string, unknown, unknown][] = [
    ["num", "5", 5],
    ["num", " -2.5e3 ", -2500],
    ["num", ".5", 0.5],
    ["int", "42", 42],
    ["flag", "true", true],
    ["flag", "false", false],
    ["str", 5, "5"],
    ["str", true, "true"],
  ];
  it.each(cases)("%s: %j → %j, reported", async (key, from, to) => {
    const res = await executeToolCall(call("c", { [key]: from }), [t]);
    expect(res).toEqual({
      ok: true,
      content: JSON.stringify({ [key]: to }),
      coercions: [{ pointer: `/${key}`, from, to }],
    });
  });
  it("coerces inside arrays with the item pointer", async () => {
    const res = await executeToolCall(call("c", { list: [1, "2"] }), [t]);
    expect(res).toEqual({
      ok: true,
      content: '{"list":[1,2]}',
      coercions: [{ pointer: "/list/1", from: "2", to: 2 }],
    });
  });
  const refused: [string, unknown][] = [
    ["num", "5 apples"],
    ["num", ""],
    ["num", "0x10"],
    ["num", "Infinity"],
    ["int", "4.5"],
    ["flag", "yes"],
    ["flag", "1"],
    ["flag", 1],
    ["str", null],
    ["str", { a: 1 }],
  ];
  it.each(refused)("%s: %j is not coerced and fails validation", async (key, from) => {
    const res = await executeToolCall(call("c", { [key]: from }), [t]);
    expect(res).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
  });
  it("keeps valid values and null for nullable as they are", async () => {
    expect(await executeToolCall(call("c", { num: 1, opt: null }), [t])).toEqual({
      ok: true,
      content: '{"num":1,"opt":null}',
    });
  });
  it("can be switched off", async () => {
    const res = await executeToolCall(call("c", { num: "5" }), [t], {}, { coerce: false });
    expect(res).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments", message: expect.stringContaining("/num: must be number") },
    });
  });
});

describe("running the tool", () => {
  const slow = tool({
    name: "slow",
    description: "waits for the signal",
    inputSchema: { type: "object", properties: {} },
    execute: (_args, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal?.addEventListener("abort", () => reject(new Error("stopped"))),
      ),
  });

  it("times out and aborts the tool's signal", async () => {
    let seen: AbortSignal | undefined;
    const t = {
      ...slow,
      execute: (a: Record<string, unknown>, c: { signal?: AbortSignal }) => (
        (seen = c.signal),
        slow.execute!(a, c)
      ),
    };
    const res = await executeToolCall(call("slow", {}), [t], {}, { timeoutMs: 30 });
    expect(res).toEqual({
      ok: false,
      error: { code: "timeout", message: "tool slow did not finish within 30 ms" },
    });
    expect(seen?.aborted).toBe(true);
  });

  it("stops when the caller aborts, before or during the call", async () => {
    const before = new AbortController();
    before.abort();
    expect(await executeToolCall(call("slow", {}), [slow], { signal: before.signal })).toMatchObject({
      ok: false,
      error: { code: "aborted" },
    });
    const during = new AbortController();
    setTimeout(() => during.abort(), 20);
    expect(await executeToolCall(call("slow", {}), [slow], { signal: during.signal })).toEqual({
      ok: false,
      error: { code: "aborted", message: "tool slow was aborted by the caller" },
    });
  });

  it("reports a throwing tool's message without its stack unless asked", async () => {
    const boom = tool({
      name: "boom",
      description: "throws",
      inputSchema: { type: "object", properties: {} },
      execute: () => {
        throw new Error("disk full");
      },
    });
    const res = await executeToolCall(call("boom", {}), [boom]);
    expect(res).toEqual({ ok: false, error: { code: "tool_error", message: "tool boom failed: disk full" } });
    const withStack = await executeToolCall(call("boom", {}), [boom], {}, { includeStack: true });
    expect(withStack.ok === false && withStack.error.message).toMatch(/disk full\nError: disk full\n\s+at /);
    const rejects = { ...boom, execute: () => Promise.reject("plain string") };
    expect(await executeToolCall(call("boom", {}), [rejects])).toEqual({
      ok: false,
      error: { code: "tool_error", message: "tool boom failed: plain string" },
    });
  });

  it("says when a tool has no code", async () => {
    const bare = { name: "bare", description: "", parameters: { type: "object" as const, properties: {} } };
    expect(await executeToolCall(call("bare", {}), [bare])).toEqual({
      ok: false,
      error: { code: "no_executor", message: "tool bare has a description but no code to run" },
    });
  });

  it("accepts a Map of tools and passes the context", async () => {
    const who = tool({
      name: "who",
      description: "",
      inputSchema: { type: "object", properties: {} },
      execute: (_a, ctx) => ctx.memoryId,
    });
    expect(await executeToolCall(call("who", {}), new Map([["who", who]]), { memoryId: "m-1" })).toEqual({
      ok: true,
      content: "m-1",
    });
  });
});

describe("return conversion (LangChain4j rules)", () => {
  const returning = (value: () => unknown) =>
    tool({ name: "r", description: "", inputSchema: { type: "object", properties: {} }, execute: value });
  const run = (value: () => unknown) => executeToolCall(call("r", {}), [returning(value)]);
  const circular: Record<string, unknown> = { a: 1 };
  circular.self = { back: circular };
  const table: [string, () => unknown, string][] = [
    ["undefined → success", () => undefined, "success"],
    ["async void → success", async () => {}, "success"],
    ["string as is", () => 'plain "text"', 'plain "text"'],
    ["number", () => 22, "22"],
    ["null", () => null, "null"],
    ["object", () => ({ a: [1, "x"], skip: undefined }), '{"a":[1,"x"]}'],
    ["BigInt", () => ({ big: 12345678901234567890n }), '{"big":"12345678901234567890"}'],
    ["Date", () => new Date(Date.UTC(2024, 4, 27)), '"2024-05-27T00:00:00.000Z"'],
    ["Map with string keys", () => new Map([["k", new Set([1, 2])]]), '{"k":[1,2]}'],
    ["Map with other keys", () => new Map([[1, "one"]]), '[[1,"one"]]'],
    ["Set", () => new Set(["a", "b"]), '["a","b"]'],
    ["NaN", () => [NaN], '["NaN"]'],
    ["own __proto__ key kept as data", () => JSON.parse('{"__proto__": {"x": 1}}'), '{"__proto__":{"x":1}}'],
    ["shared, not circular", () => ((s) => ({ x: s, y: s }))({ v: 1 }), '{"x":{"v":1},"y":{"v":1}}'],
  ];
  it.each(table)("%s", async (_name, value, content) => {
    expect(await run(value)).toEqual({ ok: true, content });
  });
  it("a circular value is a clear error", async () => {
    expect(await run(() => circular)).toEqual({
      ok: false,
      error: {
        code: "unserializable_result",
        message: "tool result is circular: $.self.back refers back to an enclosing value",
      },
    });
  });
  it("a function result is a clear error", async () => {
    expect(await run(() => ({ f: () => 1, g: [Symbol("s")] }))).toMatchObject({
      ok: false,
      error: {
        code: "unserializable_result",
        message: "tool result at $.g[0] is a symbol, which has no JSON form",
      },
    });
  });
});
