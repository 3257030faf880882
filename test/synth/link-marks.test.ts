import { describe, expect, it } from "vitest";
import { importToolList } from "../../src/catalog/import/jsonl.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { LINK_WORDS } from "../../src/synth/english.ts";
import { synthesize } from "../../src/synth/synthesize.ts";
import type { SynthOptions } from "../../src/synth/types.ts";
import { entryToolJson } from "../../src/train/caller-data.ts";
import { sameValue } from "../../src/train/factored-train.ts";

/** Free-text parameters, so a plain link word ("finally") is a span a text parameter could take. */
const TOOLS = [
  {
    name: "get_weather",
    description: "Get the weather forecast for a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 7 } },
      required: ["city", "days"],
    },
  },
  {
    name: "find_book",
    description: "Find a book by its title and author.",
    parameters: {
      type: "object",
      properties: { title: { type: "string" }, author: { type: "string" } },
      required: ["title", "author"],
    },
  },
];
const catalog = importToolList(TOOLS, "tools.json");
const base: SynthOptions = { seed: 7, perTool: 40, multiCallShare: 0.6, maxCalls: 3 };
/** A link word set off by a mark, as the marked links write it. */
const marked = new RegExp(`\\b(${LINK_WORDS.join("|")})(,|;|:| -) `, "i");
/** The same inside a sentence (the plain JOINERS write ". Also, " only after a stop). */
const markedInside = new RegExp(`[^.] (${LINK_WORDS.join("|")})(,|;|:| -) `);

describe("marked links (linkMarkShare, linkLeadShare)", () => {
  it("at 0 the questions are exactly those without the options", () => {
    for (const maxCalls of [2, 3]) {
      const plain = synthesize(catalog, { ...base, maxCalls });
      const zero = synthesize(catalog, { ...base, maxCalls, linkMarkShare: 0, linkLeadShare: 0 });
      expect(zero).toEqual(plain);
      // the plain generator never sets a link word off by a mark inside a sentence (the option's new form)
      expect(plain.filter((i) => markedInside.test(i.question))).toEqual([]);
    }
  });

  it("writes marked links, and a link word is never the gold span of a value", () => {
    const items = synthesize(catalog, { ...base, linkMarkShare: 1, linkLeadShare: 1 });
    const multi = items.filter((i) => i.calls.length > 1);
    const single = items.filter((i) => i.calls.length === 1);
    expect(multi.length).toBeGreaterThan(10);
    // the same tool's values listed in one request have no join between requests: most others have one
    expect(multi.filter((i) => markedInside.test(i.question)).length).toBeGreaterThan(multi.length / 3);
    // styled() puts a typo in some questions' words, link words among them
    expect(single.filter((i) => marked.test(i.question)).length).toBeGreaterThan(single.length * 0.8);
    const links = new Set(LINK_WORDS.flatMap((w) => w.split(" ")));
    let linkNegatives = 0;
    for (const item of single) {
      const entry = catalog.find((e) => e.id === item.calls[0]!.name)!;
      const f = functionView(entryToolJson(entry), questionView(item.question, new Set(["and"])), new Map());
      const words = f.view.tokens;
      for (const p of f.params) {
        const gold = item.calls[0]!.arguments[p.name];
        for (const c of p.candidates) {
          const text = words
            .slice(c.start, c.end)
            .map((t) => t.lower)
            .join(" ");
          if (!links.has(text)) continue;
          // the training labels: a span of a link word alone never matches the call's value
          expect(sameValue(c.value, gold)).toBe(false);
          linkNegatives++;
        }
      }
    }
    // link words are offered to text parameters as wrong spans: what the argument scorer learns from
    expect(linkNegatives).toBeGreaterThan(10);
  });
});
