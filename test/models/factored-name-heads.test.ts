import { describe, expect, it } from "vitest";
import { commaCode } from "../../src/models/factored/comma-codes.ts";
import { argumentsOf, type FactoredWeights } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { headNamed } from "../../src/models/factored/name-heads.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import type { ToolJson } from "../../src/tools/types.ts";
import { tool, scoredFromTable } from "./factored-fixtures.ts";

const joiners = new Set(["and", "or"]);
const free = () => true;
// argumentsOf with one call (parallel false) reads no learnt weights
const noWeights = {} as FactoredWeights;

function argsFor(t: ToolJson, q: string, table: Record<string, Record<string, number>>, o: { nameHeads?: boolean; commaCodes?: boolean }) {
  const f = functionView(t, questionView(q, joiners), new Map());
  return argumentsOf({ view: f, params: scoredFromTable(f, table), features: new Float32Array(0) }, noWeights, { parallel: false, ...o })[0]!.arguments;
}

describe("factored caller: a lowercase head word stands for the capitalised name it repeats", () => {
  const q = "Find the operational hours for Louvre Museum, then the travel time from my current location to the museum.";

  it("finds the nearest earlier whole name whose last word the value repeats", () => {
    const f = functionView(tool("travel", { destination: { type: "string" } }, ["destination"]), questionView(q, joiners), new Map());
    const cands = f.params[0]!.candidates;
    const museum = cands.find((c) => c.value === "museum")!;
    expect(cands[headNamed(f.view.tokens, museum, cands)]?.value).toBe("Louvre Museum");
    // a capitalised value, or a word no earlier name ends with: none
    const louvre = cands.find((c) => c.value === "Louvre")!;
    expect(headNamed(f.view.tokens, louvre, cands)).toBe(-1);
    const location = cands.find((c) => c.value === "location")!;
    expect(headNamed(f.view.tokens, location, cands)).toBe(-1);
  });

  it("replaces the head word by the name (unless nameHeads is off)", () => {
    const t = tool("location.get_travel_time", { destination: { type: "string" } }, ["destination"]);
    const table = { destination: { museum: 0.6, "Louvre Museum": 0.2 } };
    expect(argsFor(t, q, table, {}).destination).toBe("Louvre Museum");
    expect(argsFor(t, q, table, { nameHeads: false }).destination).toBe("museum");
  });
});

describe("factored caller: a name and the capital code after its comma are one value", () => {
  it("widens a capitalised name over ', XX', not over lists, words or taken codes", () => {
    const t = tokenize("Buy milk from the nearest Walmart in Los Angeles, CA please");
    // "Los Angeles" (7..9), the comma (9), "CA" (10)
    expect(commaCode(t, 7, 9, free)).toEqual([7, 11]);
    expect(commaCode(t, 7, 9, () => false)).toBeUndefined();
    expect(commaCode(t, 8, 9, free)).toEqual([8, 11]);
    const list = tokenize("Offices in CA, NV, AZ");
    expect(commaCode(list, 2, 3, free)).toBeUndefined();
    const word = tokenize("Stores in Los Angeles, California");
    expect(commaCode(word, 2, 4, free)).toBeUndefined();
    const lower = tokenize("the city, CA");
    expect(commaCode(lower, 1, 2, free)).toBeUndefined();
  });

  it("gives a one-call text value its code (unless commaCodes is off)", () => {
    const t = tool("walmart.purchase", { loc: { type: "string" } }, ["loc"]);
    const q = "Check the nearest Walmart in Los Angeles, CA for milk.";
    const table = { loc: { "Los Angeles": 0.7 } };
    expect(argsFor(t, q, table, {}).loc).toBe("Los Angeles, CA");
    expect(argsFor(t, q, table, { commaCodes: false }).loc).toBe("Los Angeles");
  });
});
