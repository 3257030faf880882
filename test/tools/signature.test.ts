import { describe, expect, it } from "vitest";
import { executeToolCall } from "../../src/tools/execute.ts";
import { loadTools } from "../../src/tools/load-module.ts";
import { functionSignatures, getJsonSchema } from "../../src/tools/signature.ts";
import { REFERENCE_JSON } from "./reference-schemas.ts";

const fixture = (name: string) => new URL(`fixtures/${name}`, import.meta.url).pathname;

describe("functionSignatures (TS analogue of HF get_json_schema)", () => {
  const sigs = functionSignatures(fixture("signatures.ts"));

  it("reads types, JSDoc, optional parameters, enums, arrays, nested objects and defaults", () => {
    const flights = sigs.find((s) => s.exportName === "search_flights")!;
    expect(flights.paramNames).toEqual([
      "from",
      "cabin",
      "passengers",
      "dates",
      "nonstop",
      "note",
      "address",
      "loyalty",
      "extra",
    ]);
    expect(JSON.stringify(flights.json)).toBe(
      JSON.stringify({
        type: "function",
        function: {
          name: "search_flights",
          description: "Search for flights.",
          parameters: {
            type: "object",
            properties: {
              from: { type: "string", description: "Departure airport code" },
              cabin: { type: "string", enum: ["economy", "business", "first"], description: "Cabin class" },
              passengers: { type: "number", description: "Number of travellers", default: 1 },
              dates: {
                type: "array",
                items: { type: "string" },
                description: "Travel dates, ISO format",
                default: [],
              },
              nonstop: { type: "boolean", description: "Only direct flights" },
              note: { type: "string", enum: ["window", "aisle"], description: "Free text" },
              address: {
                type: "object",
                properties: {
                  street: { type: "string", description: "Street and number" },
                  zip: { type: "string" },
                },
                required: ["street"],
                description: "Billing address",
              },
              loyalty: {
                type: "string",
                nullable: true,
                description: "Loyalty number, if any",
                default: null,
              },
              extra: {
                type: "object",
                properties: {},
                additionalProperties: { type: "number" },
                description: "Anything else",
              },
            },
            required: ["from", "cabin"],
          },
        },
      }),
    );
  });

  it("reads exported arrow functions and primitive unions", () => {
    expect(getJsonSchema(fixture("signatures.ts"), "add").function.parameters).toEqual({
      type: "object",
      properties: {
        x: { type: "number", description: "first" },
        y: { type: "number", description: "second" },
      },
      required: ["x", "y"],
    });
    expect(getJsonSchema(fixture("signatures.ts"), "mixed").function.parameters.properties.v).toEqual({
      type: ["string", "number", "boolean"],
      description: "a string or a number",
    });
  });

  it("reads JSDoc types in plain .js files too (seed multiply, byte-equal)", () => {
    expect(JSON.stringify(getJsonSchema(fixture("multiply.js"), "multiply"))).toBe(REFERENCE_JSON.multiply);
  });

  it("says clearly what it cannot read", () => {
    expect(() => functionSignatures(fixture("no-jsdoc.ts"))).toThrow(
      "function undocumented: no JSDoc summary; add /** what it does */ above it",
    );
    expect(() => functionSignatures(fixture("destructured.ts"))).toThrow(
      /destructured parameters are not supported/,
    );
    expect(() => getJsonSchema(fixture("signatures.ts"), "nope")).toThrow(/exports no function named nope/);
  });

  it("runs a plain function by mapping the argument object onto its positional parameters", async () => {
    const tools = await loadTools(fixture("signatures.ts"));
    const res = await executeToolCall(
      {
        id: "1",
        type: "function",
        function: { name: "search_flights", arguments: { cabin: "first", from: "OSL", nonstop: "true" } },
      },
      tools,
    );
    expect(res).toEqual({
      ok: true,
      content: '{"from":"OSL","cabin":"first","passengers":1,"dates":[],"nonstop":true,"loyalty":null}',
      coercions: [{ pointer: "/nonstop", from: "true", to: true }],
    });
  });
});
