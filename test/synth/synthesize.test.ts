import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/load.ts";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import {
  notOfferedDeclines,
  synthesize,
  synthQueries,
  synthTrajectories,
  type SynthItem,
} from "../../src/synth/index.ts";
import { synthesizeWithReport } from "../../src/synth/synthesize.ts";
import { validateArguments } from "../../src/tools/validate.ts";
import { agentSamples, type Trajectory } from "../../src/train/datasets.ts";
import { buildToolIndex } from "../../src/toolgen/ids.ts";
import { nameWords } from "../../src/synth/words.ts";
import { examplesIn } from "../../src/synth/values.ts";
import { sharedData } from "../helpers/shared-data.ts";
import { missingValue } from "./appears.ts";
import { fixtureCatalog } from "./fixture.ts";

function invalidCalls(items: readonly SynthItem[], catalog: readonly CatalogEntry[]): string[] {
  const byId = new Map(catalog.map((e) => [e.id, e]));
  return items.flatMap((item) =>
    item.calls.flatMap((call) => {
      const entry = byId.get(call.name);
      if (!entry) return [`${item.id}: ${call.name} is not in the catalog`];
      const errors = validateArguments(call.arguments, entry.parameters);
      return errors.length > 0
        ? [`${item.id} ${call.name} ${JSON.stringify(call.arguments)}: ${errors[0]}`]
        : [];
    }),
  );
}

function valuesNotShown(items: readonly SynthItem[]): string[] {
  return items.flatMap((item) =>
    item.calls.flatMap((call) => {
      const missing = missingValue(item.question, call.arguments);
      return missing === undefined ? [] : [`${JSON.stringify(item.question)}: ${missing}`];
    }),
  );
}

/** The catalog's tool and API names (as words, four letters or more) that a question contains. */
function namedTools(question: string, catalog: readonly CatalogEntry[]): string[] {
  const q = ` ${nameWords(question).replace(/[^a-z0-9 ]+/g, " ")} `.replace(/\s+/g, " ");
  return catalog.flatMap((e) =>
    [e.tool, e.api]
      .map((n) =>
        nameWords(n)
          .replace(/[^a-z0-9 ]+/g, " ")
          .replace(/\s+/g, " ")
          .trim(),
      )
      .filter((n) => n.length >= 4 && q.includes(` ${n} `)),
  );
}

function checkCatalog(catalog: CatalogEntry[], perTool: number) {
  const { items, unusable } = synthesizeWithReport(catalog, {
    seed: 3,
    perTool,
    multiCallShare: 0.3,
    declineShare: 0.2,
  });
  expect(invalidCalls(items, catalog)).toEqual([]);
  expect(valuesNotShown(items)).toEqual([]);
  const declines = items.filter((i) => i.calls.length === 0);
  expect(declines.length).toBeGreaterThan(0);
  expect(declines.flatMap((i) => namedTools(i.question, catalog).map((n) => `${i.question}: ${n}`))).toEqual(
    [],
  );
  expect(items.some((i) => i.calls.length === 2)).toBe(true);
  return { items, unusable };
}

describe("synthesize on a catalog written for the test", () => {
  const catalog = fixtureCatalog();
  const items = synthesize(catalog, {
    seed: 7,
    perTool: 30,
    multiCallShare: 0.3,
    declineShare: 0.2,
    distractors: 2,
  });

  it("gives every tool perTool one-call questions, plus two-call and decline ones", () => {
    for (const entry of catalog)
      expect(items.filter((i) => i.calls.length === 1 && i.calls[0]!.name === entry.id)).toHaveLength(30);
    expect(items.filter((i) => i.calls.length === 2)).toHaveLength(45);
    expect(items.filter((i) => i.calls.length === 0)).toHaveLength(30);
  });

  it("writes arguments that validate against each tool's JSON Schema", () => {
    expect(invalidCalls(items, catalog)).toEqual([]);
  });

  it("writes every argument's value in the question", () => {
    expect(valuesNotShown(items)).toEqual([]);
    // and in more than one way: numbers as words somewhere, dates not only as ISO
    const sizes = items.flatMap((i) =>
      i.calls.filter((c) => c.name === "book_table").map((c) => [i.question, c.arguments.party_size]),
    );
    expect(sizes.some(([q, n]) => !(q as string).includes(String(n)))).toBe(true);
    const dates = items.flatMap((i) =>
      i.calls.filter((c) => c.name === "book_table").map((c) => [i.question, c.arguments.date]),
    );
    expect(dates.some(([q, d]) => !(q as string).includes(d as string))).toBe(true);
    expect(dates.some(([q, d]) => (q as string).includes(d as string))).toBe(true);
  });

  it("has checks that fail on a wrong value or a value not in the question", () => {
    const item = items.find((i) => i.calls[0]?.name === "book_table")!;
    const wrong = {
      ...item,
      calls: [{ name: "book_table", arguments: { ...item.calls[0]!.arguments, party_size: 13 } }],
    };
    expect(invalidCalls([wrong], catalog)).toHaveLength(1);
    const absent = {
      ...item,
      calls: [{ name: "book_table", arguments: { ...item.calls[0]!.arguments, restaurant: "Zzqx" } }],
    };
    expect(valuesNotShown([absent])).toHaveLength(1);
    expect(namedTools("please convert currency for me", catalog)).toEqual(["convert currency"]);
  });

  it("offers the called tools plus distractors, all from the catalog", () => {
    const ids = new Set(catalog.map((e) => e.id));
    for (const item of items) {
      for (const call of item.calls) expect(item.tools).toContain(call.name);
      expect(item.tools.every((t) => ids.has(t))).toBe(true);
      expect(item.tools).toHaveLength(new Set(item.calls.map((c) => c.name)).size + 2);
    }
  });

  it("never repeats a question", () => {
    const norm = items.map((i) =>
      i.question
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, " ")
        .trim(),
    );
    expect(new Set(norm).size).toBe(items.length);
  });

  it("gives the same items for the same seed and others for another seed", () => {
    const options = { seed: 11, perTool: 5 };
    expect(synthesize(catalog, options)).toEqual(synthesize(catalog, options));
    expect(synthesize(catalog, { ...options, seed: 12 })).not.toEqual(synthesize(catalog, options));
  });

  it("writes trajectories the agent stage trains on, and retrieval queries without the declines", () => {
    const trajectories: Trajectory[] = synthTrajectories(items);
    const samples = agentSamples(trajectories, catalog, buildToolIndex(catalog, "atomic"));
    expect(samples).toHaveLength(items.length);
    const decline = trajectories[items.findIndex((i) => i.calls.length === 0)]!;
    expect(decline.steps.map((s) => s.arguments.return_type)).toEqual(["give_up_and_restart"]);
    const two = trajectories[items.findIndex((i) => i.calls.length === 2)]!;
    expect(two.steps.map((s) => s.action).slice(-1)).toEqual(["Finish"]);
    expect(two.steps).toHaveLength(3);
    const queries = synthQueries(items);
    expect(queries).toHaveLength(items.filter((i) => i.calls.length > 0).length);
  });

  it("writes not-offered declines: the question of an answerable item, offered only tools that do not answer it", () => {
    const declines = notOfferedDeclines(items, catalog, { share: 0.5, seed: 1, offered: 2 });
    expect(declines.length).toBeGreaterThan(20);
    const byId = new Map(items.map((i) => [i.id, i]));
    for (const d of declines) {
      const source = byId.get(d.id.replace(/-not-offered$/, ""))!;
      expect(d.question).toBe(source.question);
      expect(d.calls).toEqual([]);
      expect(d.tools.length).toBeGreaterThan(0);
      for (const call of source.calls) expect(d.tools).not.toContain(call.name);
    }
  });

  it("rejects bad options with one clear error", () => {
    expect(() => synthesize(catalog, { seed: 1, perTool: 0 })).toThrow(/perTool/);
    expect(() => synthesize(catalog, { seed: 1, perTool: 1, declineShare: 2 })).toThrow(/declineShare/);
    expect(() => synthesize([], { seed: 1, perTool: 1 })).toThrow(/no tools/);
  });
});

const stb = sharedData("stabletoolbench/apis.json");
const bfcl = sharedData("bfcl");
const metatool = sharedData("metatool/tools.json");

describe.skipIf(!stb)("synthesize on StableToolBench's 2,479 APIs", () => {
  it("every call validates, every value is in its question, declines name no tool", () => {
    const catalog = loadCatalog(stb!);
    const { unusable } = checkCatalog(catalog, 1);
    expect(unusable).toEqual([]);
  }, 120_000);
});

describe.skipIf(!bfcl)(
  "synthesize on BFCL's function docs (converted by the catalog's BFCL importer)",
  () => {
    it("every call validates, every value is in its question, declines name no tool", () => {
      const catalog = loadCatalog(bfcl!);
      const { unusable } = checkCatalog(catalog, 2);
      expect(unusable).toEqual([]);
    }, 120_000);
  },
);

describe.skipIf(!metatool)("synthesize on MetaTool (descriptions only, no parameters)", () => {
  it("writes a question per tool from its description and name, with empty arguments", () => {
    const catalog = loadCatalog(metatool!);
    const { items } = checkCatalog(catalog, 2);
    expect(
      items
        .filter((i) => i.calls.length > 0)
        .every((i) => i.calls.every((c) => Object.keys(c.arguments).length === 0)),
    ).toBe(true);
  }, 60_000);
});

describe("synthesize with maxCalls above 2", () => {
  const catalog = fixtureCatalog();
  const items = synthesize(catalog, {
    seed: 5,
    perTool: 20,
    multiCallShare: 0.6,
    maxCalls: 4,
    sameToolShare: 0.6,
    declineShare: 0.1,
    distractors: 2,
  });
  const multi = items.filter((i) => i.calls.length > 1);

  it("writes questions with 2, 3 and 4 calls, never more and never the same call twice", () => {
    for (const n of [2, 3, 4]) expect(multi.filter((i) => i.calls.length === n).length).toBeGreaterThan(5);
    expect(items.every((i) => i.calls.length <= 4)).toBe(true);
    for (const i of multi) expect(new Set(i.calls.map((c) => JSON.stringify(c))).size).toBe(i.calls.length);
  });

  it("calls one tool several times with other values, and several tools in a row", () => {
    const same = multi.filter((i) => i.calls.length > 2 && new Set(i.calls.map((c) => c.name)).size === 1);
    const mixed = multi.filter((i) => i.calls.length > 2 && new Set(i.calls.map((c) => c.name)).size > 1);
    expect(same.length).toBeGreaterThan(5);
    expect(mixed.length).toBeGreaterThan(5);
  });

  it("keeps every call valid and every value in its question", () => {
    expect(invalidCalls(items, catalog)).toEqual([]);
    expect(valuesNotShown(items)).toEqual([]);
  });

  it("rejects a maxCalls outside 2-8", () => {
    expect(() => synthesize(catalog, { seed: 1, perTool: 1, maxCalls: 1 })).toThrow(/maxCalls/);
    expect(() => synthesize(catalog, { seed: 1, perTool: 1, maxCalls: 9 })).toThrow(/maxCalls/);
  });
});

describe("synthesize with pairedShare", () => {
  const catalog = fixtureCatalog();
  const options = {
    seed: 7,
    perTool: 20,
    multiCallShare: 0.6,
    maxCalls: 3,
    sameToolShare: 1,
    distractors: 1,
  };
  const paired = synthesize(catalog, { ...options, pairedShare: 1 });
  // calls of one function in which two or more parameters take another value from call to call, the rest shared
  const groups = (items: readonly SynthItem[]) =>
    items.filter((i) => {
      if (i.calls.length < 2 || new Set(i.calls.map((c) => c.name)).size > 1) return false;
      const keys = Object.keys(i.calls[0]!.arguments);
      const same = (k: string) =>
        i.calls.every((c) => JSON.stringify(c.arguments[k]) === JSON.stringify(i.calls[0]!.arguments[k]));
      return keys.filter((k) => !same(k)).length >= 2 && keys.some(same);
    });

  it("writes calls of one function whose values vary in groups, each valid and shown", () => {
    expect(groups(paired).length).toBeGreaterThan(groups(synthesize(catalog, options)).length);
    expect(invalidCalls(paired, catalog)).toEqual([]);
    expect(valuesNotShown(paired)).toEqual([]);
  });

  it("is off by default: the same items as without the option", () => {
    expect(synthesize(catalog, { ...options, pairedShare: 0 })).toEqual(synthesize(catalog, options));
  });

  it("rejects a pairedShare outside [0, 1]", () => {
    expect(() => synthesize(catalog, { ...options, pairedShare: 2 })).toThrow(/pairedShare/);
  });
});

describe("synthesize with listedToolShare", () => {
  const catalog = fixtureCatalog();
  const options = {
    seed: 5,
    perTool: 20,
    multiCallShare: 0.6,
    maxCalls: 4,
    sameToolShare: 0,
    distractors: 1,
  };
  const listed = synthesize(catalog, { ...options, listedToolShare: 1 });
  // several tools called, at least one of them more than once
  const severalRepeated = (items: readonly SynthItem[]) =>
    items.filter((i) => {
      const names = i.calls.map((c) => c.name);
      return new Set(names).size > 1 && new Set(names).size < names.length;
    });

  it("writes runs of tools in which a tool is called once per listed value, each call valid and shown", () => {
    expect(severalRepeated(listed).length).toBeGreaterThan(
      severalRepeated(synthesize(catalog, options)).length,
    );
    expect(invalidCalls(listed, catalog)).toEqual([]);
    expect(valuesNotShown(listed)).toEqual([]);
  });

  it("is off by default: the same items as without the option", () => {
    expect(synthesize(catalog, { ...options, listedToolShare: 0 })).toEqual(synthesize(catalog, options));
  });

  it("rejects a listedToolShare outside [0, 1]", () => {
    expect(() => synthesize(catalog, { ...options, listedToolShare: 1.5 })).toThrow(/listedToolShare/);
  });
});

describe("synthesize with inlineShare", () => {
  const catalog = fixtureCatalog();
  const options = { seed: 11, perTool: 20, multiCallShare: 0.3, maxCalls: 3, distractors: 1 };
  // the share of written values followed by a word (not by a comma, a stop or the question's end)
  const followed = (items: readonly SynthItem[]) => {
    let n = 0;
    let words = 0;
    for (const i of items)
      for (const v of i.calls.flatMap((c) => Object.values(c.arguments))) {
        if (typeof v !== "string" && typeof v !== "number") continue;
        const at = i.question.indexOf(String(v));
        if (at < 0) continue;
        n++;
        if (/^["'\u201d]?\s+\p{L}/u.test(i.question.slice(at + String(v).length))) words++;
      }
    return words / n;
  };

  it("puts words after more of the values, each call valid and shown", () => {
    const inline = synthesize(catalog, { ...options, inlineShare: 0.5 });
    expect(followed(inline)).toBeGreaterThan(followed(synthesize(catalog, options)) + 0.1);
    expect(invalidCalls(inline, catalog)).toEqual([]);
    expect(valuesNotShown(inline)).toEqual([]);
  });

  it("is off by default: the same items as without the option", () => {
    expect(synthesize(catalog, { ...options, inlineShare: 0 })).toEqual(synthesize(catalog, options));
  });

  it("rejects an inlineShare outside [0, 1]", () => {
    expect(() => synthesize(catalog, { ...options, inlineShare: -0.1 })).toThrow(/inlineShare/);
  });
});

describe("examplesIn", () => {
  it("reads a description's examples and quoted words, not the text between apostrophes", () => {
    expect(examplesIn("The city, e.g. San Francisco, CA")).toEqual(["San Francisco"]);
    expect(examplesIn("Currency such as 'USD' or 'EUR'")).toEqual(["USD", "EUR"]);
    expect(examplesIn("the user's name and the city's name")).toEqual([]);
  });
});
