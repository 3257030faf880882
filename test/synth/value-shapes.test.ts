import { describe, expect, it } from "vitest";
import { importToolList } from "../../src/catalog/import/jsonl.ts";
import { synthesize } from "../../src/synth/synthesize.ts";
import { SynthRng } from "../../src/synth/rng.ts";
import { shapedValue } from "../../src/synth/value-shapes.ts";
import { validateArguments } from "../../src/tools/validate.ts";
import { missingValue } from "./appears.ts";
import { fixtureCatalog } from "./fixture.ts";

// A tool whose string parameter gives no values of its own: synth makes them up.
const catalog = importToolList(
  [
    {
      type: "function",
      function: {
        name: "find_cases",
        description: "Find court cases of a party.",
        parameters: {
          type: "object",
          properties: {
            party: { type: "string", description: "The party's name" },
            year: { type: "integer", minimum: 1900, maximum: 2030 },
          },
          required: ["party", "year"],
        },
      },
    },
  ],
  "shapes.json",
);
const parties = (items: ReturnType<typeof synthesize>) =>
  items.flatMap((i) => i.calls.map((c) => String(c.arguments.party)));
const words = (v: string) => v.split(" ").length;

describe("synth's value shapes (valueShapeShare, valueFirstShare)", () => {
  it("writes the same questions as without the options when they are 0", () => {
    const base = synthesize(fixtureCatalog(), { seed: 4, perTool: 6, maxCalls: 3, multiCallShare: 0.5 });
    const zero = synthesize(fixtureCatalog(), {
      seed: 4,
      perTool: 6,
      maxCalls: 3,
      multiCallShare: 0.5,
      valueShapeShare: 0,
      valueFirstShare: 0,
    });
    expect(zero).toEqual(base);
  });

  it("writes made-up values as several words, each in its question, every call valid", () => {
    const plain = parties(synthesize(catalog, { seed: 2, perTool: 60 }));
    const items = synthesize(catalog, { seed: 2, perTool: 60, valueShapeShare: 1 });
    const shaped = parties(items);
    const share = (vs: string[]) => vs.filter((v) => words(v) >= 2).length / vs.length;
    expect(share(plain)).toBeLessThan(0.6);
    expect(share(shaped)).toBeGreaterThan(0.9);
    for (const item of items)
      for (const call of item.calls) {
        expect(validateArguments(call.arguments, catalog[0]!.parameters)).toEqual([]);
        expect(missingValue(item.question, call.arguments)).toBeUndefined();
      }
  });

  it("shapes a value by adding words in its own case, a joining word or a number", () => {
    const rng = new SynthRng(9);
    const shapes = Array.from({ length: 200 }, () => shapedValue("Velmora", rng));
    for (const s of shapes) {
      expect(s).toContain("Velmora");
      expect(words(s)).toBeGreaterThanOrEqual(2);
    }
    expect(shapes.some((s) => /^Velmora \d+$/.test(s))).toBe(true);
    expect(shapes.some((s) => / (of|de|and|on) /.test(s))).toBe(true);
    expect(shapedValue("velmora", new SynthRng(1))).toMatch(/^[^A-Z]*$/);
  });

  it("with valueFirstShare 1, every value is followed by words, not the question's end", () => {
    const items = synthesize(catalog, { seed: 3, perTool: 40, valueFirstShare: 1, multiCallShare: 0 });
    for (const item of items) {
      const party = String(item.calls[0]?.arguments.party ?? "");
      if (party === "") continue;
      const after = item.question.slice(item.question.indexOf(party) + party.length);
      expect(after).toMatch(/^['"”]? (as|being|is) /);
    }
  });

  it("rejects a share outside [0, 1]", () => {
    expect(() => synthesize(catalog, { seed: 1, perTool: 1, valueShapeShare: 1.5 })).toThrow(
      /valueShapeShare/,
    );
    expect(() => synthesize(catalog, { seed: 1, perTool: 1, valueFirstShare: -1 })).toThrow(
      /valueFirstShare/,
    );
  });
});
