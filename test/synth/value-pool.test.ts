import { describe, expect, it } from "vitest";
import { importToolList } from "../../src/catalog/import/jsonl.ts";
import { catalogValuePool } from "../../src/synth/catalog-values.ts";
import { synthesize } from "../../src/synth/synthesize.ts";
import { validateArguments } from "../../src/tools/validate.ts";
import { missingValue } from "./appears.ts";
import { fixtureCatalog } from "./fixture.ts";

// Two tools: one gives real values for its parameters, the other has a parameter sharing a name word and none.
const giver = {
  type: "function",
  function: {
    name: "weather",
    description: "Weather for a city.",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", examples: ["Lisbon", "Osaka"], description: "a city, e.g. Quito" },
        units: { type: "string", enum: ["metric", "imperial"] },
      },
      required: ["city"],
    },
  },
};
const taker = {
  type: "function",
  function: {
    name: "hotels",
    description: "Hotels in a place.",
    parameters: {
      type: "object",
      properties: { city_name: { type: "string" } },
      required: ["city_name"],
    },
  },
};

describe("the catalog value pool (synth's optional real values)", () => {
  const catalog = importToolList([giver, taker], "pool.json");

  it("collects examples, enum members and described examples, keyed by name words", () => {
    const pool = catalogValuePool([catalog], 1);
    expect(pool.byWord.get("city")).toEqual(["Lisbon", "Osaka", "Quito"]);
    expect(pool.byWord.get("units")).toEqual(["imperial", "metric"]);
    expect(pool.all).toHaveLength(5);
  });

  it("gives a parameter without values one of a parameter that shares a name word; calls validate", () => {
    const items = synthesize(catalog, { seed: 5, perTool: 20, valuePool: catalogValuePool([catalog], 1) });
    const taken = items.flatMap((i) => i.calls.filter((c) => c.name === "hotels"));
    expect(taken.length).toBeGreaterThan(5);
    for (const c of taken) expect(["Lisbon", "Osaka", "Quito"]).toContain(c.arguments.city_name);
    for (const item of items)
      for (const call of item.calls) {
        const entry = catalog.find((e) => e.id === call.name)!;
        expect(validateArguments(call.arguments, entry.parameters)).toEqual([]);
        expect(missingValue(item.question, call.arguments)).toBeUndefined();
      }
  });

  it("leaves synth's output as it was without a pool or with share 0", () => {
    const fixture = fixtureCatalog();
    const plain = synthesize(fixture, { seed: 9, perTool: 6, multiCallShare: 0.4, maxCalls: 3 });
    const zero = synthesize(fixture, {
      seed: 9,
      perTool: 6,
      multiCallShare: 0.4,
      maxCalls: 3,
      valuePool: catalogValuePool([catalog], 0),
    });
    expect(zero).toEqual(plain);
    const some = synthesize(fixture, {
      seed: 9,
      perTool: 6,
      multiCallShare: 0.4,
      maxCalls: 3,
      valuePool: catalogValuePool([catalog], 1),
    });
    expect(some).not.toEqual(plain);
  });
});
