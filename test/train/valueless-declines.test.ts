import { describe, expect, it } from "vitest";
import type { JsonSchema, ToolJson } from "../../src/tools/types.ts";
import type { CallerExample } from "../../src/train/caller-data.ts";
import { valuelessDeclines, withoutRequiredValues } from "../../src/train/valueless-declines.ts";

const tool = (name: string, properties: Record<string, JsonSchema>, required: string[]): ToolJson => ({
  type: "function",
  function: { name, description: `${name} tool`, parameters: { type: "object", properties, required } },
});

const forecast = tool(
  "get_forecast",
  { city: { type: "string" }, days: { type: "integer" }, units: { type: "string" } },
  ["city", "days"],
);
const words = tool("count_words", { text: { type: "string" } }, ["text"]);

const example = (question: string, args: Record<string, unknown>, t = forecast): CallerExample => ({
  tools: [t, words],
  question,
  calls: [{ name: t.function.name, arguments: args }],
});

describe("valueless declines", () => {
  it("cuts every required value out, leaves optional ones, and tidies what the cut leaves", () => {
    const e = example("Get the forecast for city 'Lyon' over 3 days, in celsius please", {
      city: "Lyon",
      days: 3,
      units: "celsius",
    });
    expect(withoutRequiredValues(e)).toBe("Get the forecast for city over days, in celsius please");
  });

  it("applies only where a required number is cut and no digit is left", () => {
    // no required number: a string parameter finds some span in any question
    expect(
      withoutRequiredValues(example("count the words of hello there", { text: "hello there" }, words)),
    ).toBeUndefined();
    // a number written otherwise than drawn stays in the question: not used
    expect(
      withoutRequiredValues(example("forecast for Lyon over three days", { city: "Lyon", days: 3 })),
    ).toBeUndefined();
    // another number left in the question would still fill the number parameter
    expect(
      withoutRequiredValues(
        example("forecast for Lyon over 3 days at 12 o'clock", { city: "Lyon", days: 3 }),
      ),
    ).toBeUndefined();
  });

  it("makes declines offering the same functions, only from one-call questions, at the share asked", () => {
    const one = example("forecast for Lyon over 3 days", { city: "Lyon", days: 3 });
    const two: CallerExample = { ...one, calls: [...one.calls, ...one.calls] };
    const all = valuelessDeclines([one, two], 1, 7);
    expect(all).toEqual([{ tools: one.tools, question: "forecast for over days", calls: [] }]);
    expect(valuelessDeclines([one, two], 0, 7)).toEqual([]);
    const many = valuelessDeclines(
      Array.from({ length: 400 }, () => one),
      0.25,
      7,
    ).length;
    expect(many).toBeGreaterThan(70);
    expect(many).toBeLessThan(130);
  });
});
