import { describe, expect, it } from "vitest";
import { familyOf, functionView, pairFeatures, questionView } from "../../src/models/factored/features.ts";
import { KIN_VALUE_FEATURE, kinTakenValues, takenValue } from "../../src/models/factored/kin-values.ts";
import { tool } from "./factored-fixtures.ts";

describe("factored caller: a value another called function's kin parameter takes (x[49])", () => {
  const weather = tool("get_weather", { city_name: { type: "string", description: "The city." } });
  const hotels = tool("find_hotels", {
    city: { type: "string", description: "Where to stay." },
    guests: { type: "integer", description: "How many people." },
    name: { type: "string", description: "A hotel chain." },
  });
  const q = "What is the weather like, and find hotels for 2 guests, both in Lisbon.";
  const view = questionView(q, new Set());
  const kinOf = (f: ReturnType<typeof functionView>) => ({
    name: f.tool.function.name,
    params: f.params.map((p) => ({ name: p.name, nameStems: p.nameStems, family: familyOf(p.kind) })),
  });

  it("gives a parameter the values that parameters of its family sharing a name word take in the other calls", () => {
    const taken = kinTakenValues([kinOf(functionView(weather, view, new Map())), kinOf(functionView(hotels, view, new Map()))], [
      { city_name: "Lisbon" },
      { city: "Lisbon", guests: 2, name: "Hilton" },
    ]);
    // "name" is a name word of city_name too: the chain's name is a kin value (the learnt weight takes such words'
    // misses into account), the count (another family) is none
    expect(taken.get("get_weather")?.get("city_name")).toEqual(["Lisbon", "Hilton"]);
    expect(taken.get("find_hotels")?.get("city")).toEqual(["Lisbon"]);
    expect(taken.get("find_hotels")?.get("name")).toEqual(["Lisbon"]);
    expect(taken.get("find_hotels")?.has("guests")).toBe(false);
  });

  it("sets x[49] on the span that is such a value, and on no other", () => {
    const f = functionView(weather, view, new Map(), new Map([["city_name", ["lisbon"]]]));
    const p = f.params[0]!;
    const x = (value: string) => pairFeatures(f, p, p.candidates.find((c) => c.value === value)!)[KIN_VALUE_FEATURE];

    expect(x("Lisbon")).toBe(1);
    expect(p.candidates.filter((c) => c.value !== "Lisbon").map((c) => pairFeatures(f, p, c)[KIN_VALUE_FEATURE])).not.toContain(1);
    expect(p.candidates.length).toBeGreaterThan(1);
    // without the other calls' values (one function called, or kin-values-off) it stays 0
    const alone = functionView(weather, view, new Map());
    expect(pairFeatures(alone, alone.params[0]!, alone.params[0]!.candidates.find((c) => c.value === "Lisbon")!)[KIN_VALUE_FEATURE]).toBe(0);
  });

  it("compares texts without case or extra spaces and numbers by value, never lists", () => {
    expect(takenValue(" New  York ", ["new york"])).toBe(true);
    expect(takenValue(2, ["2", 3])).toBe(true);
    expect(takenValue(["a"], [["a"]])).toBe(false);
    expect(takenValue("", [""])).toBe(false);
  });
});
