import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { Rng } from "../../src/nn/rng.ts";
import { distractorOffer } from "../../src/synth/offer.ts";
import { SynthRng } from "../../src/synth/rng.ts";
import { callerExamples } from "../../src/train/caller-data.ts";
import { wordStats } from "../../src/train/factored-train.ts";
import { writtenGroups } from "../../src/train/written-groups.ts";
import { readWrittenQuestions, writtenItems, writtenSplit } from "../../src/train/written-questions.ts";

const entry = (tool: string, api: string, properties: Record<string, unknown>, required: string[]) =>
  ({
    id: `${tool}&&${api}`,
    tool,
    api,
    category: "Weather",
    description: `${api} of ${tool}`,
    parameters: { type: "object", properties, required },
  }) as unknown as CatalogEntry;

const catalog = [
  entry("Weather", "Current", { q: { type: "string", description: "City" } }, ["q"]),
  entry("Weather", "Forecast", { q: { type: "string" }, days: { type: "number" } }, ["q"]),
  entry("Crime", "Search", { crime: { type: "string" }, place: { type: "string" } }, ["crime"]),
  entry("Other", "Ping", {}, []),
];

function file(lines: unknown[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "written-")), "q.jsonl");
  writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
}

const good = {
  id: "w-1",
  question: "How's the weather in Oslo and Bergen, and the 3 day forecast for Oslo?",
  calls: [
    { name: "Weather&&Current", arguments: { q: "Oslo" } },
    { name: "Weather&&Current", arguments: { q: "Bergen" } },
    { name: "Weather&&Forecast", arguments: { q: "Oslo", days: 3 } },
  ],
};

describe("written questions (issue 38: people's questions over StableToolBench)", () => {
  it("reads good lines and rejects each kind of bad one with the line and the reason", () => {
    expect(readWrittenQuestions(file([good]), catalog)).toHaveLength(1);
    const bad =
      (calls: unknown[], question = good.question) =>
      () =>
        readWrittenQuestions(file([{ id: "w-2", question, calls }]), catalog);
    expect(bad([{ name: "Weather&&Nope", arguments: {} }])).toThrow(/q\.jsonl:1 \(w-2\): unknown function/);
    expect(bad([{ name: "Weather&&Current", arguments: { q: "Oslo", city: "Oslo" } }])).toThrow(
      /unknown parameter "city"/,
    );
    expect(bad([{ name: "Weather&&Forecast", arguments: { days: 3 } }])).toThrow(
      /required parameter q missing/,
    );
    expect(bad([{ name: "Weather&&Current", arguments: { q: "Paris" } }])).toThrow(
      /"Paris" is not written in the question/,
    );
    expect(bad([{ name: "Weather&&Forecast", arguments: { q: "Oslo", days: "3" } }])).toThrow(
      /a string where the schema declares number/,
    );
    expect(bad([])).toThrow(/no calls/);
    expect(() => readWrittenQuestions(file(["{not json"]), catalog)).toThrow(/q\.jsonl:1: not valid JSON/);
    expect(() => readWrittenQuestions(file([good, good]), catalog)).toThrow(/id w-1 given twice/);
  });

  it("splits by a fixed hash of the id: about one in five held out, the same every time", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `w${i % 3}-${i}`);
    const held = ids.filter((id) => writtenSplit(id) === "held-out").length;
    expect(held).toBeGreaterThan(170);
    expect(held).toBeLessThan(230);
    expect(ids.map(writtenSplit)).toEqual(ids.map(writtenSplit));
    // pinned: the split of a few ids must not move (it decides what was never trained on)
    expect(["w1-1", "w1-2", "w1-3", "w2-5"].map(writtenSplit)).toEqual([
      "train",
      "train",
      "held-out",
      "train",
    ]);
  });

  it("offers the called functions plus distractors, as synth does, in the callers' shape", () => {
    const offer = distractorOffer(catalog, 1, new SynthRng(3));
    const [item] = writtenItems(readWrittenQuestions(file([good]), catalog), offer);
    expect(item!.tools).toHaveLength(3);
    expect(new Set(item!.tools)).toContain("Weather&&Current");
    expect(new Set(item!.tools)).toContain("Weather&&Forecast");
    const [example] = callerExamples([item!], catalog);
    expect(example!.calls.map((c) => c.name)).toEqual([
      "weather.current",
      "weather.current",
      "weather.forecast",
    ]);
  });

  it("gives the argument scorer every call's value as gold and another function's values as wrong spans", () => {
    const offer = distractorOffer(catalog, 0, new SynthRng(3));
    const examples = callerExamples(
      writtenItems(readWrittenQuestions(file([good]), catalog), offer),
      catalog,
    );
    const groups = writtenGroups(examples, wordStats([good.question]), new Set(["and"]), {
      negatives: 40,
      rng: new Rng(1),
    });
    // current.q, forecast.q, forecast.days
    expect(groups).toHaveLength(3);
    // current.q: Oslo (twice written) and Bergen are gold
    expect(groups[0]!.gold.length).toBeGreaterThanOrEqual(2);
    // forecast.days: 3 is gold, leaving it out is not
    expect(groups[2]!.gold).not.toContain(groups[2]!.items.length - 1);
  });
});
