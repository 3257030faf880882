import { describe, expect, it } from "vitest";
import { z } from "zod";
import { P, toolMethod } from "../../src/tools/decorators.ts";
import { tool, toToolJson } from "../../src/tools/define.ts";
import { loadTools } from "../../src/tools/load-module.ts";
import { toolSpec } from "../../src/tools/spec-builder.ts";

describe("definition errors are clear", () => {
  it("rejects bad names, non-object schemas and stray required names", () => {
    const base = { description: "d", inputSchema: { type: "object", properties: {} } };
    expect(() => tool({ name: "has space", ...base })).toThrow(
      'tool: invalid tool name "has space"; use 1-64 characters from A-Z a-z 0-9 _ . -',
    );
    expect(() => tool({ name: "x", description: "d", inputSchema: { type: "string" } })).toThrow(
      'tool x: parameters must have type "object" (got "string")',
    );
    expect(() =>
      tool({ name: "x", description: "d", inputSchema: { type: "object", properties: {}, required: ["q"] } }),
    ).toThrow("tool x: required names not in properties: q");
    expect(() => tool({ name: "x", description: "d", inputSchema: z.string() })).toThrow(
      /parameters must have type "object"/,
    );
  });

  it("builder: name first, no duplicate parameters", () => {
    expect(() => toolSpec().description("d").build()).toThrow("ToolSpec.build: call name(...) first");
    expect(() => toolSpec().name("x").param("a", "string").param("a", "number")).toThrow(
      'parameter "a" declared twice',
    );
  });

  it("decorator: no duplicate parameters", () => {
    expect(() => toolMethod("d", P("a", "string"), P("a", "number"))).toThrow('parameter "a" declared twice');
  });

  it("loadTools: missing files and modules without tools", async () => {
    await expect(loadTools("no/such/file.ts")).rejects.toThrow("tools file not found: no/such/file.ts");
    await expect(loadTools(new URL("reference-schemas.ts", import.meta.url).pathname)).rejects.toThrow(
      /exports no tools/,
    );
  });
});

describe("zod specifics", () => {
  it("optional and defaulted keys are not required; defaults reach execute", async () => {
    const t = tool({
      name: "greet",
      description: "Greets",
      inputSchema: z.object({
        name: z.string().describe("Who"),
        times: z.number().int().default(1).describe("How often"),
        loud: z.boolean().optional(),
      }),
      execute: ({ name, times }) => `${"hi ".repeat(times)}${name}`,
    });
    expect(toToolJson(t).function.parameters).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: "Who" },
        times: {
          type: "integer",
          minimum: -9007199254740991,
          maximum: 9007199254740991,
          description: "How often",
          default: 1,
        },
        loud: { type: "boolean" },
      },
      required: ["name"],
    });
    expect(await t.execute!({ name: "Ada" }, {})).toBe("hi Ada");
  });

  it("the builder's array items and optional parameters", () => {
    const t = toolSpec()
      .name("tag")
      .description("Tags things")
      .param("tags", "array", "The tags", { items: "string" })
      .param("limit", "integer", "At most", { required: false, default: 5 })
      .build();
    expect(JSON.stringify(t.parameters)).toBe(
      '{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"},"description":"The tags"},"limit":{"type":"integer","description":"At most","default":5}},"required":["tags"]}',
    );
  });
});
