import { describe, expect, it } from "vitest";
import type { BfclFunctionDoc } from "../../src/catalog/import/bfcl.ts";
import { checkBfclItem, checkCall } from "../../src/eval/bfcl-checker.ts";
import { evaluateBfclOracle } from "../../src/eval/bfcl.ts";
import { sharedData } from "../helpers/shared-data.ts";

const doc: BfclFunctionDoc = {
  name: "geo.area",
  parameters: {
    type: "dict",
    properties: {
      base: { type: "integer" },
      height: { type: "float" },
      unit: { type: "string" },
      tags: { type: "array", items: { type: "string" } },
      opts: { type: "dict", properties: { round: { type: "boolean" } } },
      points: { type: "array", items: { type: "dict" } },
    },
    required: ["base", "height"],
  },
};
const expected = {
  "geo.area": {
    base: [10],
    height: [5.0],
    unit: ["square meters", ""],
    tags: [["A", "b"], ""],
    opts: [{ round: [true, ""] }, ""],
    points: [[{ x: [1] }, { x: [2] }], ""],
  },
};
const check = (args: Record<string, unknown>, name = "geo.area") =>
  checkCall(doc, { name, arguments: args }, expected, "python");

describe("BFCL AST checker", () => {
  it("accepts a correct call, an int for a float and omitted optional parameters", () => {
    expect(check({ base: 10, height: 5 }).valid).toBe(true);
    expect(check({ base: 10, height: 5.0, unit: "Square-Meters" }).valid).toBe(true);
    expect(check({ base: 10, height: 5 }, "geo_area").valid).toBe(true);
  });

  it("rejects wrong names, missing required, unknown parameters and wrong types", () => {
    expect(check({ base: 10, height: 5 }, "geo.volume").errorType).toBe(
      "simple_function_checker:wrong_func_name",
    );
    expect(check({ base: 10 }).errorType).toBe("simple_function_checker:missing_required");
    expect(check({ base: 10, height: 5, color: "red" }).errorType).toBe(
      "simple_function_checker:unexpected_param",
    );
    expect(check({ base: 10.5, height: 5 }).errorType).toBe("type_error:simple");
    expect(check({ base: "10", height: 5 }).errorType).toBe("type_error:simple");
    expect(check({ base: 11, height: 5 }).errorType).toBe("value_error:others");
  });

  it("compares strings after BFCL's normalisation and lists element by element", () => {
    expect(check({ base: 10, height: 5, unit: "square_meters." }).valid).toBe(true);
    expect(check({ base: 10, height: 5, unit: "square feet" }).errorType).toBe("value_error:string");
    expect(check({ base: 10, height: 5, tags: ["a", "B"] }).valid).toBe(true);
    expect(check({ base: 10, height: 5, tags: ["b", "a"] }).valid).toBe(false);
    expect(check({ base: 10, height: 5, tags: [1, 2] }).errorType).toBe("type_error:nested");
  });

  it("checks dicts and lists of dicts key by key", () => {
    expect(check({ base: 10, height: 5, opts: { round: true } }).valid).toBe(true);
    expect(check({ base: 10, height: 5, opts: {} }).valid).toBe(true);
    expect(check({ base: 10, height: 5, opts: { round: false } }).errorType).toBe("value_error:dict_value");
    expect(check({ base: 10, height: 5, opts: { other: 1 } }).errorType).toBe("value_error:dict_key");
    expect(check({ base: 10, height: 5, points: [{ x: 1 }, { x: 2 }] }).valid).toBe(true);
    expect(check({ base: 10, height: 5, points: [{ x: 2 }, { x: 1 }] }).valid).toBe(false);
    expect(check({ base: 10, height: 5, points: [{ x: 1 }] }).valid).toBe(false);
  });

  it("requires parameters whose answers do not allow omission", () => {
    const strict = { "geo.area": { base: [10], height: [5], unit: ["cm"] } };
    expect(
      checkCall(doc, { name: "geo.area", arguments: { base: 10, height: 5 } }, strict, "python").errorType,
    ).toBe("simple_function_checker:missing_optional");
  });

  it("matches parallel calls in any order, counts calls, and wants no call for irrelevance", () => {
    const a = { "geo.area": { base: [1], height: [2] } };
    const b = { "geo.area": { base: [3], height: [4] } };
    const call = (base: number, height: number) => ({ name: "geo.area", arguments: { base, height } });
    expect(checkBfclItem("parallel", [doc], [call(3, 4), call(1, 2)], [a, b]).valid).toBe(true);
    expect(checkBfclItem("parallel", [doc], [call(3, 4), call(3, 4)], [a, b]).valid).toBe(false);
    expect(checkBfclItem("simple_python", [doc], [call(1, 2), call(1, 2)], [a]).errorType).toBe(
      "simple_function_checker:wrong_count",
    );
    expect(checkBfclItem("parallel", [doc], [call(1, 2)], [a, b]).errorType).toBe(
      "parallel_function_checker_no_order:wrong_count",
    );
    expect(checkBfclItem("irrelevance", [doc], [], []).valid).toBe(true);
    expect(checkBfclItem("irrelevance", [doc], [call(1, 2)], []).valid).toBe(false);
  });

  it("reads Java and JavaScript literals and treats variable names as BFCL does", () => {
    const javaDoc: BfclFunctionDoc = {
      name: "f",
      parameters: {
        type: "dict",
        properties: { n: { type: "long" }, ok: { type: "boolean" }, mode: { type: "integer" } },
        required: [],
      },
    };
    const want = { f: { n: [42], ok: [true], mode: ["ResultSet.TYPE_SCROLL_INSENSITIVE"] } };
    const args = { n: "42L", ok: "true", mode: "ResultSet.TYPE_SCROLL_INSENSITIVE" };
    expect(checkCall(javaDoc, { name: "f", arguments: args }, want, "java").valid).toBe(true);
    expect(
      checkCall(javaDoc, { name: "f", arguments: { ...args, mode: "ResultSet.OTHER" } }, want, "java").valid,
    ).toBe(false);
    expect(checkCall(javaDoc, { name: "f", arguments: { ...args, n: "42L" } }, want, "python").valid).toBe(
      false,
    );
  });
});

const bfclDir =
  process.env.TOOLGEN_BFCL_DATA ?? (sharedData("bfcl/BFCL_v4_simple_python.json") && sharedData("bfcl"));
describe.skipIf(!bfclDir)("BFCL oracle on the shared data", () => {
  it("is 100 % in every category and format, and rejects every mutated item", () => {
    const report = evaluateBfclOracle(bfclDir as string);
    expect(report.failures).toEqual([]);
    expect(Object.keys(report.by_category).length).toBeGreaterThanOrEqual(7);
    for (const figures of Object.values(report.by_category)) expect(figures.accuracy).toBe(100);
    for (const figures of Object.values(report.by_format ?? {})) expect(figures.accuracy).toBe(100);
    for (const [name, m] of Object.entries(report.mutations ?? {})) {
      // relevance_flip applies to the 240 irrelevance items only; the others to every AST item.
      expect(m.applied).toBeGreaterThan(name === "relevance_flip" ? 200 : 1000);
      expect(m.rejected).toBe(m.applied);
    }
  });
});
