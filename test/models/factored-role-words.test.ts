import { describe, expect, it } from "vitest";
import { functionView, pairFeatures, questionView } from "../../src/models/factored/features.ts";
import { roleContext, roleScore } from "../../src/models/factored/role-words.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { learnRoleWords, valueSpan } from "../../src/train/role-words.ts";
import type { CallerExample } from "../../src/train/caller-data.ts";
import { tool } from "./factored-fixtures.ts";

const trains = tool("book_train", {
  origin: { type: "string", description: "Where the trip starts." },
  destination: { type: "string", description: "Where the trip ends." },
});
const cities = ["Paris", "Lyon", "Berlin", "Madrid", "Oslo", "Rome", "Vienna", "Porto"];
// people put an origin after "from" and a destination after "to", in either order
const examples: CallerExample[] = cities.map((a, i) => {
  const b = cities[(i + 3) % cities.length]!;
  return {
    tools: [trains],
    question: i % 2 === 0 ? `I need a train from ${a} to ${b} please` : `get me to ${b} from '${a}' tomorrow`,
    calls: [{ name: "book_train", arguments: { origin: a, destination: b } }],
  };
});

describe("factored caller: role words learnt beside values (role-words.ts)", () => {
  it("reads the word beside a span past a quote mark written onto it", () => {
    const t = tokenize("cases in 'New York' about theft");
    const span = valueSpan("cases in 'New York' about theft", t, "New York")!;
    expect(roleContext(t, span[0], span[1], "before")).toBe("in");
    expect(roleContext(t, span[0], span[1], "after")).toBe("about");
    expect(roleContext(t, 0, 1, "before")).toBeUndefined();
  });

  it("learns from the counts which word goes before which parameter's values", () => {
    const table = learnRoleWords([{ examples, weight: 1 }], { minCount: 3 });
    expect(table.before["origi from"]).toBeGreaterThan(1);
    expect(table.before["desti to"]).toBeGreaterThan(1);
    // "to" never stands before an origin: no pair, no entry
    expect(table.before["origi to"]).toBeUndefined();
    expect(roleScore(table.before, new Set(["desti"]), "to")).toBe(table.before["desti to"]);
    expect(roleScore(table.before, new Set(["desti"]), "from")).toBe(0);
    // floor 0: a pair whose word speaks against the parameter (seen, but less often than beside values at large) is
    // left out, one for it kept
    const odd = cities.slice(0, 3).map((a, i): CallerExample => ({ ...examples[i]!, question: `go to ${a} now`, calls: [{ name: "book_train", arguments: { origin: a } }] }));
    const withNegative = learnRoleWords([{ examples: [...examples, ...odd], weight: 1 }], { minCount: 3, baseline: "values" });
    expect(withNegative.before["origi to"]).toBeLessThan(0);
    const floored = learnRoleWords([{ examples: [...examples, ...odd], weight: 1 }], { minCount: 3, baseline: "values", floor: 0 });
    expect(floored.before["origi to"]).toBeUndefined();
    expect(floored.before["origi from"]).toBe(withNegative.before["origi from"]);
    // a source's weight counts its questions that many times: below the minimum once, above it twice
    expect(learnRoleWords([{ examples: examples.slice(0, 2), weight: 1 }], { minCount: 3 }).before["origi from"]).toBeUndefined();
    expect(learnRoleWords([{ examples: examples.slice(0, 2), weight: 2 }], { minCount: 3 }).before["origi from"]).toBeGreaterThan(1);
  });

  it("with the values baseline, a word before values of every parameter tells none of them apart", () => {
    // synth's frames: "=" before every value, whichever the parameter
    const framed = cities.map((a, i): CallerExample => {
      const b = cities[(i + 3) % cities.length]!;
      return { tools: [trains], question: `book_train origin = ${a} , destination = ${b}`, calls: [{ name: "book_train", arguments: { origin: a, destination: b } }] };
    });
    const byTokens = learnRoleWords([{ examples: framed, weight: 1 }], { minCount: 3 });
    const byValues = learnRoleWords([{ examples: framed, weight: 1 }], { minCount: 3, baseline: "values" });
    expect(byTokens.before["origi ="]).toBeGreaterThan(0.3);
    expect(Math.abs(byValues.before["origi ="]!)).toBeLessThan(0.05);
    expect(Math.abs(byValues.before["desti ="]!)).toBeLessThan(0.05);
  });

  it("gives x[49] to the span after the parameter's role word, and nothing without a table (role-words-off)", () => {
    const table = learnRoleWords([{ examples, weight: 1 }], { minCount: 3 });
    const q = "A ticket from Seville to Bruges, please.";
    const x49 = (roleWords: typeof table | undefined, param: string, value: string) => {
      const f = functionView(trains, { ...questionView(q, new Set()), roleWords }, new Map());
      const p = f.params.find((k) => k.name === param)!;
      return pairFeatures(f, p, p.candidates.find((c) => c.value === value)!)[49];
    };
    expect(x49(table, "origin", "Seville")).toBeGreaterThan(1);
    expect(x49(table, "origin", "Bruges")).toBe(0);
    expect(x49(table, "destination", "Bruges")).toBeGreaterThan(1);
    expect(x49(undefined, "origin", "Seville")).toBe(0);
  });
});
