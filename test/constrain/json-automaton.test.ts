import { describe, expect, it } from "vitest";
import { JsonSchemaAutomaton, orderLikeSchema } from "../../src/constrain/index.ts";
import type { JsonSchema } from "../../src/tools/types.ts";

const accepts = (schema: JsonSchema, text: string, options = {}) =>
  JsonSchemaAutomaton.fromSchema(schema, options).accepts(text);

describe("JsonSchemaAutomaton", () => {
  const tool: JsonSchema = {
    type: "object",
    properties: {
      value: { type: "number" },
      unit: { type: "string", enum: ["km", "mi"] },
      note: { type: "string", maxLength: 5 },
      count: { type: "integer", minimum: 0 },
    },
    required: ["value", "unit"],
  };

  it("accepts compact JSON in schema order with required and optional properties", () => {
    expect(accepts(tool, '{"value":1,"unit":"km"}')).toBe(true);
    expect(accepts(tool, '{"value":-1.25,"unit":"mi","note":"héllo","count":12}')).toBe(true);
    expect(accepts(tool, '{"value":1,"unit":"km","count":0}')).toBe(true);
  });

  it("rejects missing required keys, wrong order, whitespace, bad enums and numbers", () => {
    for (const text of [
      '{"unit":"km"}',
      '{"unit":"km","value":1}',
      '{"value": 1,"unit":"km"}',
      '{"value":1,"unit":"m"}',
      '{"value":01,"unit":"km"}',
      '{"value":1.,"unit":"km"}',
      '{"value":1,"unit":"km","count":-1}',
      '{"value":1,"unit":"km","count":1.5}',
      '{"value":1,"unit":"km","note":"toolong"}',
      '{"value":1,"unit":"km"',
      '{"value":1,"unit":"km"}x',
    ])
      expect(accepts(tool, text), text).toBe(false);
  });

  it("handles escapes, UTF-8 and lengths in characters", () => {
    const s: JsonSchema = { type: "string", minLength: 2, maxLength: 3 };
    expect(accepts(s, '"a\\n"')).toBe(true);
    expect(accepts(s, '"\\u00e9x"')).toBe(true);
    expect(accepts(s, '"日本語"')).toBe(true);
    expect(accepts(s, '"日本語!"')).toBe(false);
    expect(accepts(s, '"a"')).toBe(false);
    expect(accepts(s, '"\\ud800x"')).toBe(false);
    expect(accepts(s, '"a\tb"')).toBe(false);
    expect(accepts(s, '"\\x"')).toBe(false);
  });

  it("follows unions, nullable types, consts, arrays and free values", () => {
    expect(accepts({ type: ["string", "null"] }, "null")).toBe(true);
    expect(accepts({ type: "string", nullable: true }, '"x"')).toBe(true);
    expect(accepts({ const: { a: [1] } }, '{"a":[1]}')).toBe(true);
    expect(accepts({ enum: [1, 12] }, "1")).toBe(true);
    expect(accepts({ enum: [1, 12] }, "12")).toBe(true);
    expect(accepts({ enum: [1, 12] }, "123")).toBe(false);
    const arr: JsonSchema = { type: "array", items: { type: "boolean" }, minItems: 1, maxItems: 2 };
    expect(accepts(arr, "[]")).toBe(false);
    expect(accepts(arr, "[true,false]")).toBe(true);
    expect(accepts(arr, "[true,false,true]")).toBe(false);
    expect(accepts({}, '{"a":[1,{"b":null}],"c":"d"}')).toBe(true);
    expect(accepts({}, "[[[1]]]", { anyDepth: 3 })).toBe(true);
    expect(accepts({}, "[[[[1]]]]", { anyDepth: 3 })).toBe(false);
    const anyOf: JsonSchema = {
      anyOf: [
        { type: "object", properties: { a: { type: "integer" } }, required: ["a"] },
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      ],
    };
    expect(accepts(anyOf, '{"a":1}')).toBe(true);
    expect(accepts(anyOf, '{"a":"1"}')).toBe(true);
    expect(accepts(anyOf, '{"a":true}')).toBe(false);
  });

  it("resolves local $refs, recursive ones too", () => {
    const tree: JsonSchema = {
      $ref: "#/$defs/node",
      $defs: {
        node: {
          type: "object",
          properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } },
          required: ["v"],
        },
      },
    };
    expect(accepts(tree, '{"v":1,"kids":[{"v":2},{"v":3,"kids":[]}]}')).toBe(true);
    expect(accepts(tree, '{"kids":[]}')).toBe(false);
  });

  it("knows the shortest completion and refuses schemas that accept nothing", () => {
    const a = JsonSchemaAutomaton.fromSchema(tool);
    expect(a.minBytesToComplete(a.start())).toBe('{"value":0,"unit":"km"}'.length);
    expect(() => JsonSchemaAutomaton.fromSchema({ type: "string", enum: [1] })).toThrow(/no value/);
    expect(() => JsonSchemaAutomaton.fromSchema({ type: "string", minLength: 3, maxLength: 2 })).toThrow();
    const loop: JsonSchema = {
      $ref: "#/$defs/a",
      $defs: { a: { type: "object", properties: { a: { $ref: "#/$defs/a" } }, required: ["a"] } },
    };
    expect(() => JsonSchemaAutomaton.fromSchema(loop)).toThrow(/no finite/);
  });
});

describe("orderLikeSchema", () => {
  it("orders keys as the constraint writes them, so the text is one the automaton accepts", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        note: { type: "string" },
        value: { type: "number" },
        inner: {
          type: "object",
          properties: { b: { type: "integer" }, a: { type: "integer" } },
          required: ["a"],
        },
        unit: { enum: ["km", "mi"] },
      },
      required: ["value", "unit"],
    };
    const args = { unit: "km", inner: { b: 2, a: 1 }, value: 5, note: "x" };
    const text = JSON.stringify(orderLikeSchema(args, schema));
    expect(text).toBe('{"value":5,"unit":"km","note":"x","inner":{"a":1,"b":2}}');
    expect(JsonSchemaAutomaton.fromSchema(schema).accepts(text)).toBe(true);
    expect(JsonSchemaAutomaton.fromSchema(schema).accepts(JSON.stringify(args))).toBe(false);
  });
});

describe("JsonSchemaAutomaton on objects without listed properties", () => {
  it("takes only {} when no property is listed and additionalProperties is false", () => {
    const closed: JsonSchema = { type: "object", properties: {}, additionalProperties: false };
    expect(accepts(closed, "{}")).toBe(true);
    expect(accepts(closed, '{"page":1}')).toBe(false);
  });

  it("still reads an object without listed properties and without that flag as a free map", () => {
    const open: JsonSchema = { type: "object", properties: {} };
    expect(accepts(open, "{}")).toBe(true);
    expect(accepts(open, '{"page":1}')).toBe(true);
  });
});
