import { describe, expect, it } from "vitest";
import { importToolList } from "../../src/catalog/import/jsonl.ts";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { REFERENCES } from "../../src/synth/english.ts";
import { shapedCalls, type MultiShape } from "../../src/synth/multi-shapes.ts";
import { segmentsText } from "../../src/synth/phrase.ts";
import { SynthRng } from "../../src/synth/rng.ts";
import { synthesize } from "../../src/synth/synthesize.ts";
import type { SynthCall } from "../../src/synth/types.ts";
import { drawProperties } from "../../src/synth/values.ts";
import { validateArguments } from "../../src/tools/validate.ts";
import { missingValue } from "./appears.ts";

const CITIES = ["Oslo", "Lima", "Quito", "Hanoi", "Perth", "Turin"];
/** Three tools whose mentions are told by one word each (weather, time, convert), two sharing a `city`. */
const TOOLS = [
  {
    name: "get_weather",
    description: "Get the weather forecast for a city.",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", enum: CITIES },
        days: { type: "integer", minimum: 1, maximum: 7 },
      },
      required: ["city", "days"],
    },
  },
  {
    name: "get_local_time",
    description: "Get the local time in a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", enum: CITIES }, clock: { type: "string", enum: ["12h", "24h"] } },
      required: ["city", "clock"],
    },
  },
  {
    name: "convert_amount",
    description: "Convert an amount of money into a currency.",
    parameters: {
      type: "object",
      properties: {
        amount: { type: "integer", minimum: 100, maximum: 999 },
        currency: { type: "string", enum: ["EUR", "JPY", "GBP"] },
      },
      required: ["amount", "currency"],
    },
  },
].map((f) => ({ type: "function", function: f }));
const MENTION: Record<string, string> = {
  get_weather: "weather",
  get_local_time: "time",
  convert_amount: "convert",
};

const catalog: CatalogEntry[] = importToolList(TOOLS, "shapes.json");

interface Made {
  question: string;
  calls: SynthCall[];
}

function made(shape: MultiShape, n = 300): Made[] {
  const out: Made[] = [];
  const rng = new SynthRng(7);
  const draw = (e: CatalogEntry) => {
    const d = drawProperties(e.parameters, rng, 0);
    return d && { call: { name: e.id, arguments: d.value as Record<string, unknown> }, parts: d.parts };
  };
  for (let i = 0; i < n; i++) {
    const first = catalog[rng.int(catalog.length)]!;
    const a = draw(first);
    if (a === undefined) continue;
    const m = shapedCalls(shape, catalog, first, a, rng, draw);
    if (m !== undefined) out.push({ question: segmentsText(m.segments), calls: m.calls });
  }
  return out;
}

const occurrences = (q: string, text: string) => q.split(text).length - 1;
/** Where the question first mentions a call's tool. */
const mentionAt = (q: string, call: SynthCall) => q.toLowerCase().indexOf(MENTION[call.name]!);
/** The string values of a call (enum members and the like, whose text is the value itself). */
const strings = (call: SynthCall) =>
  Object.values(call.arguments).filter((v): v is string => typeof v === "string");

function checkAll(items: readonly Made[]): void {
  expect(items.length).toBeGreaterThan(30);
  for (const m of items) {
    expect(m.calls).toHaveLength(2);
    expect(m.calls[0]!.name).not.toBe(m.calls[1]!.name);
    for (const call of m.calls) {
      const entry = catalog.find((e) => e.id === call.name)!;
      expect(validateArguments(call.arguments, entry.parameters), m.question).toEqual([]);
      // every value labelled is in the question: a call given a value the question never says fails here
      expect(missingValue(m.question, call.arguments), m.question).toBeUndefined();
    }
  }
}

/** Values the two calls hold alike. */
const sharedValues = (m: Made) => strings(m.calls[0]!).filter((v) => strings(m.calls[1]!).includes(v));

describe("multi-call shapes (synth multi-shapes.ts)", () => {
  it("shared: one value said once is the gold of both calls", () => {
    const items = made("shared");
    checkAll(items);
    let once = 0;
    for (const m of items) {
      const shared = sharedValues(m).filter((v) => occurrences(m.question, v) === 1);
      if (shared.length > 0) once++;
    }
    // numbers may be the shared value too (days and amount) but cities are the common case
    expect(once / items.length, items.map((m) => m.question).join("\n")).toBeGreaterThan(0.6);
  });

  it("before: the first call's values come before its tool's mention and are its gold", () => {
    const items = made("before");
    checkAll(items);
    for (const m of items) {
      const first = m.calls[0]!;
      for (const v of strings(first))
        expect(m.question.indexOf(v), m.question).toBeLessThan(mentionAt(m.question, first));
    }
  });

  it("refer: the second call points back, and the first call's value is its gold", () => {
    const items = made("refer");
    checkAll(items);
    let pointing = 0;
    for (const m of items) {
      expect(
        REFERENCES.some((r) => m.question.toLowerCase().includes(r)),
        m.question,
      ).toBe(true);
      const shared = sharedValues(m);
      // the shared value is said once, before the second tool's mention: in the first call's part
      for (const v of shared)
        if (occurrences(m.question, v) === 1 && m.question.indexOf(v) < mentionAt(m.question, m.calls[1]!))
          pointing++;
    }
    expect(pointing / items.length).toBeGreaterThan(0.6);
  });

  it("synthesize writes them at shapeShare and none at 0 (the questions then as before)", () => {
    const base = { seed: 3, perTool: 20, multiCallShare: 0.5, distractors: 1 };
    const without = synthesize(catalog, base);
    expect(synthesize(catalog, { ...base, shapeShare: 0 })).toEqual(without);
    const shaped = synthesize(catalog, { ...base, shapeShare: 1 }).filter((i) => i.calls.length > 1);
    expect(shaped.length).toBeGreaterThan(10);
    for (const i of shaped) expect(new Set(i.calls.map((c) => c.name)).size).toBe(2);
    for (const i of shaped)
      for (const c of i.calls) expect(missingValue(i.question, c.arguments)).toBeUndefined();
  });
});
