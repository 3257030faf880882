import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoCatalog, demoTools } from "../../src/demo/catalog.ts";
import { generateSamples, trajectoriesFor } from "../../src/demo/generator.ts";
import { SHOWN_QUESTIONS } from "../../src/demo/questions.ts";
import { TEMPLATES } from "../../src/demo/templates.ts";
import { evaluateExpression } from "../../src/demo/tools/expression.ts";
import { mathTools } from "../../src/demo/tools/math.ts";
import { textTools } from "../../src/demo/tools/text.ts";
import { isSameCall } from "../../src/demo/grading.ts";
import { namesOf, valuesOf } from "../../src/demo/tools/names.ts";
import { unitTools } from "../../src/demo/tools/units.ts";
import { executeToolCall } from "../../src/tools/execute.ts";
import { loadTools } from "../../src/tools/load-module.ts";
import type { Tool } from "../../src/tools/types.ts";

let tools: Tool[];
const before = process.env.TOOLGEN_DEMO_SANDBOX;
beforeAll(async () => {
  process.env.TOOLGEN_DEMO_SANDBOX = join(mkdtempSync(join(tmpdir(), "toolgen-demo-test-")), "files");
  tools = await demoTools();
}, 60_000);
afterAll(() => {
  if (before === undefined) delete process.env.TOOLGEN_DEMO_SANDBOX;
  else process.env.TOOLGEN_DEMO_SANDBOX = before;
});

const call = (name: string, args: Record<string, unknown>) =>
  executeToolCall({ id: "t", type: "function", function: { name, arguments: args } }, tools);

describe("demo catalog", () => {
  it("has at least 60 uniquely named, described tools from all five definition styles", async () => {
    expect(tools.length).toBeGreaterThanOrEqual(60);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    for (const t of tools) expect(t.description.length).toBeGreaterThan(10);
    const codec = await loadTools(fileURLToPath(new URL("../../src/demo/tools/codec.ts", import.meta.url)));
    expect(codec.map((t) => t.name)).toContain("sha256_hash"); // decorated class methods
    const direct = [...mathTools, ...unitTools, ...textTools, ...codec].map((t) => t.name);
    const jsdoc = tools.filter((t) => !direct.includes(t.name));
    expect(jsdoc.length).toBeGreaterThanOrEqual(10); // plain JSDoc'd functions read by loadTools
    for (const group of [mathTools, unitTools, textTools, codec])
      expect(group.length).toBeGreaterThanOrEqual(10);
    expect((await demoCatalog()).map((e) => e.id)).toEqual(tools.map((t) => t.name));
    for (const t of tools) expect(TEMPLATES[t.name]?.length ?? 0).toBeGreaterThanOrEqual(1);
  });

  it("every tool really runs on generated questions' arguments", async () => {
    const samples = generateSamples(tools, { perTool: 2, seed: 7 });
    const { trajectories, failed } = await trajectoriesFor(samples, tools);
    expect(failed).toEqual([]);
    expect(trajectories).toHaveLength(tools.length * 2);
  });

  it("gives the answers an independent computation gives", async () => {
    const content = async (name: string, args: Record<string, unknown>) => {
      const r = await call(name, args);
      if (!r.ok) throw new Error(r.error.message);
      return r.content;
    };
    expect(await content("convert_length", { value: 42, from_unit: "km", to_unit: "mi" })).toBe(
      `42 km = ${Number((42000 / 1609.344).toFixed(6))} mi`,
    );
    expect(await content("day_of_week", { date: "1969-07-20" })).toBe("1969-07-20 is a Sunday");
    expect(await content("sha256_hash", { text: "hello toolgen" })).toBe(
      createHash("sha256").update("hello toolgen").digest("hex"),
    );
    expect(await content("evaluate_expression", { expression: "(17 + 25) * 3" })).toBe("(17 + 25) * 3 = 126");
    expect(await content("word_count", { text: "small tools answer big questions" })).toBe("5 words");
    expect(await content("csv_column_sum", { path: "sales.csv", column: "revenue" })).toBe(
      "sum of revenue = 10170",
    );
    expect(
      await content("convert_timezone", {
        datetime: "2025-06-01T09:30",
        from_zone: "Europe/Lisbon",
        to_zone: "Asia/Tokyo",
      }),
    ).toBe("2025-06-01T09:30 Europe/Lisbon = 2025-06-01T17:30 Asia/Tokyo");
    expect(
      await content("convert_timezone", {
        datetime: "2025-01-15T12:00",
        from_zone: "America/New_York",
        to_zone: "UTC",
      }),
    ).toBe("2025-01-15T12:00 America/New_York = 2025-01-15T17:00 UTC");
    expect(await content("week_number", { date: "2021-01-03" })).toBe("2021-01-03 is in ISO week 53 of 2020");
    expect(await content("distance_between_cities", { from_city: "Paris", to_city: "London" })).toMatch(
      /: 34\d km$/,
    );
    expect(await content("random_integer", { min: 1, max: 6, seed: 3 })).toBe(
      await content("random_integer", { min: 1, max: 6, seed: 3 }),
    );
    for (const { truth } of SHOWN_QUESTIONS) {
      if (!truth) continue;
      const r = await call(truth.tool, truth.arguments);
      expect(r.ok && r.content).toBe(truth.answer);
    }
  });

  it("reads a unit, city, time zone or locale by any of its names, and lists every name in its enum", async () => {
    const byName = await Promise.all([
      call("convert_length", { value: 5, from_unit: "kilometers", to_unit: "miles" }),
      call("convert_length", { value: 5, from_unit: "km", to_unit: "mi" }),
      call("convert_temperature", { value: 25, from_unit: "degrees Celsius", to_unit: "°F" }),
      call("distance_between_cities", { from_city: "NYC", to_city: "LA" }),
      call("convert_timezone", { datetime: "2024-06-01T09:00", from_zone: "New York", to_zone: "Japan" }),
      call("format_date", { date: "2024-07-14", locale: "French" }),
    ]);
    expect(byName.map((r) => (r.ok ? r.content : r.error.message))).toEqual([
      "5 km = 3.106856 mi",
      "5 km = 3.106856 mi",
      "25 °C = 77 °F",
      "New York to Los Angeles: 3936 km",
      "2024-06-01T09:00 America/New_York = 2024-06-01T22:00 Asia/Tokyo",
      "dimanche 14 juillet 2024",
    ]);
    // every enum that holds a value with names holds all of them (the JSDoc choices included), once each
    for (const t of tools)
      for (const [param, schema] of Object.entries(t.parameters.properties)) {
        const names = (schema.enum ?? []).map(String);
        if (names.length === 0) continue;
        expect(namesOf(valuesOf(names)), `${t.name}.${param}`).toEqual(names);
      }
    const bad = await call("convert_length", { value: 1, from_unit: "parsecs", to_unit: "m" });
    expect(bad.ok).toBe(false);
    // a call that names a unit is the call with its value; another unit is another call
    const want = { tool: "convert_length", arguments: { value: 5, from_unit: "km", to_unit: "mi" } };
    const named = {
      tool: "convert_length",
      arguments: { value: 5, from_unit: "kilometers", to_unit: "miles" },
    };
    expect(isSameCall(tools, named, want)).toBe(true);
    expect(isSameCall(tools, { ...named, arguments: { ...named.arguments, to_unit: "inches" } }, want)).toBe(
      false,
    );
    expect(isSameCall(tools, { ...named, tool: "convert_speed" }, want)).toBe(false);
  });

  it("refuses paths outside the sandbox and bad input with clear errors", async () => {
    const outside = await call("read_file", { path: "../../etc/passwd" });
    expect(outside.ok).toBe(false);
    expect(!outside.ok && outside.error.message).toMatch(/outside the sandbox/);
    const missing = await call("read_file", { path: "nope.txt" });
    expect(!missing.ok && missing.error.message).toMatch(/list_files/);
    expect(() => evaluateExpression("2 + process.exit()")).toThrow(/unknown symbol/);
    const date = await call("day_of_week", { date: "2023-02-30" });
    expect(!date.ok && date.error.message).toMatch(/expected a date such as/);
    const zero = await call("divide_numbers", { a: 1, b: 0 });
    expect(!zero.ok && zero.error.message).toMatch(/division by zero/);
  });
});
