import { describe, expect, it } from "vitest";
import { toToolJson } from "../../src/tools/define.ts";
import { executeToolCall } from "../../src/tools/execute.ts";
import { loadTools } from "../../src/tools/load-module.ts";
import { prettyJson } from "../../src/tools/pretty.ts";
import type { Tool, ToolCall } from "../../src/tools/types.ts";
import { REFERENCE_JSON, REFERENCE_MULTIPLY_TEXT } from "./reference-schemas.ts";

const here = (p: string) => new URL(p, import.meta.url).pathname;
const STYLES: Record<string, string[]> = {
  "a: tool() + zod": [here("fixtures/reference-zod.ts")],
  "b: tool() + JSON Schema / HF dict": [here("fixtures/reference-json.ts")],
  "c: ToolSpec builder": [here("fixtures/reference-spec.ts")],
  "d: decorated class": [here("fixtures/reference-class.ts")],
  "e: JSDoc'd functions": ["examples/multiply.ts", "examples/weather.ts", "examples/time.ts"],
};
const call = (name: string, args: Record<string, unknown>): ToolCall => ({
  id: "c1",
  type: "function",
  function: { name, arguments: args },
});

const loaded = new Map<string, Tool[]>();
async function toolsOf(style: string): Promise<Tool[]> {
  if (!loaded.has(style))
    loaded.set(style, (await Promise.all(STYLES[style]!.map((file) => loadTools(file)))).flat());
  return loaded.get(style)!;
}

describe.each(Object.keys(STYLES))("style %s", (style) => {
  it("gives the reference's four schemas byte for byte (key order included)", async () => {
    const tools = await toolsOf(style);
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(REFERENCE_JSON).sort());
    for (const t of tools) expect(JSON.stringify(toToolJson(t))).toBe(REFERENCE_JSON[t.name]);
    const multiply = tools.find((t) => t.name === "multiply")!;
    expect(prettyJson(toToolJson(multiply)) + "\n").toBe(REFERENCE_MULTIPLY_TEXT);
  });

  it("runs the reference tools: 12, 22, 6 and a time string", async () => {
    const tools = await toolsOf(style);
    expect(await executeToolCall(call("multiply", { a: 3, b: 4 }), tools)).toEqual({
      ok: true,
      content: "12",
    });
    const temp = await executeToolCall(
      call("get_current_temperature", { location: "Paris, France", unit: "celsius" }),
      tools,
    );
    expect(temp).toEqual({ ok: true, content: "22" });
    expect(
      await executeToolCall(call("get_current_wind_speed", { location: "Paris, France" }), tools),
    ).toEqual({
      ok: true,
      content: "6",
    });
    const time = await executeToolCall(call("current_time", {}), tools);
    if (style.startsWith("b")) expect(time).toMatchObject({ ok: false, error: { code: "no_executor" } });
    else expect(time).toMatchObject({ ok: true, content: expect.stringMatching(/\d/) });
  });
});

describe("decorated methods", () => {
  it("pass the caller's memory id to the @memoryId slot, which is not in the schema", async () => {
    const tools = await toolsOf("d: decorated class");
    const temp = tools.find((t) => t.name === "get_current_temperature")!;
    expect(Object.keys(temp.parameters.properties)).toEqual(["location", "unit"]);
    const res = await executeToolCall(call(temp.name, { location: "Oslo, Norway", unit: "celsius" }), tools, {
      memoryId: "user-7",
    });
    expect(res).toEqual({ ok: true, content: "22" });
    expect(tools.map((t) => t.name)).not.toContain("helper");
  });

  it("agree with the other styles on a rejected enum value", async () => {
    for (const style of Object.keys(STYLES)) {
      const res = await executeToolCall(
        call("get_current_temperature", { location: "X", unit: "kelvin" }),
        await toolsOf(style),
      );
      expect(res, style).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
      if (!res.ok) expect(res.error.message).toContain('/unit: must be one of ["celsius","fahrenheit"]');
    }
  });
});
