import { describe, expect, it } from "vitest";
import { functionView, nullFeatures, questionView } from "../../src/models/factored/features.ts";
import { looseNameCover, looseSame } from "../../src/models/factored/loose-names.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import type { ToolJson } from "../../src/tools/types.ts";

describe("parameter names matched loosely (loose-names.ts)", () => {
  it("joins a short word and a longer one that share their first four letters, nothing looser", () => {
    expect(looseSame("toll", "tolls")).toBe(true);
    expect(looseSame("stats", "statistics")).toBe(true);
    expect(looseSame("temp", "temperature")).toBe(true);
    expect(looseSame("stateful", "statistics")).toBe(false); // both long: a shared start by chance
    expect(looseSame("tol", "tolls")).toBe(false);
    expect(looseSame("consider", "accounting")).toBe(false);
  });

  it("covers a name by the question's words, a code identifier by its whole stem only", () => {
    expect(looseNameCover("avoid_tolls", tokenize("with toll roads avoided"))).toBe(1);
    expect(looseNameCover("include_stats", tokenize("Include its statistics"))).toBe(1);
    expect(looseNameCover("include_stats", tokenize("read statsHolder"))).toBe(0);
  });

  it("feeds the 'leave it out' features only where the view asks for it", () => {
    const tool: ToolJson = {
      type: "function",
      function: { name: "route", description: "A route.", parameters: { type: "object", properties: { avoid_tolls: { type: "boolean" } } } },
    };
    const v = questionView("a route with toll roads avoided", new Set());
    const strict = functionView(tool, v, new Map());
    const loose = functionView(tool, { ...v, looseNames: true }, new Map());
    expect(nullFeatures(strict, strict.params[0]!)[7]).toBe(0.5);
    expect(nullFeatures(loose, loose.params[0]!)[7]).toBe(1);
  });
});
