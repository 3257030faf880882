import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { openToolGenRetriever } from "../../src/retrieval/toolgen-open.ts";
import { addToolsToModel } from "../../src/train/add-tools.ts";
import { holdOutForOffset, OLD_TOLERANCE, pickOffset } from "../../src/train/choose-offset.ts";
import { readSamples } from "../../src/train/datasets.ts";
import { OFFSETS_FILE, readManifest, readToolIndex } from "../../src/toolgen/model-folder.ts";
import { runCli } from "../helpers/run-cli.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";
import { trainAddToolsBase } from "../helpers/add-tools-base.ts";

const { entries, queries } = syntheticCatalog();
const NEW = 4; // the last four tools are added later, under their bare names (ids not in the model)
const oldTools = entries.slice(0, -NEW);
const newTools = entries.slice(-NEW);
const renamed = new Map(newTools.map((t) => [t.id, t.tool]));
const newQueries = queries
  .filter((q) => renamed.has(q.relevant[0]!))
  .map((q) => ({ query: q.query, relevant: [renamed.get(q.relevant[0]!)!] }));
const oldQueries = queries.filter((q) => !renamed.has(q.relevant[0]!));

/** OFFSET_RULE written out again: best mean of old and new among offsets keeping old ≥ min(base, best) − 1. */
function expectedIndex(curve: { offsets: number[]; old: number[]; new: number[] }, baseOld: number): number {
  const all = curve.offsets.map((_, i) => i);
  const floor = Math.min(baseOld, Math.max(...curve.old)) - OLD_TOLERANCE;
  const pool = all.filter((i) => curve.old[i]! >= floor - 1e-9);
  const score = (i: number) => (curve.old[i]! + curve.new[i]!) / 2;
  const best = Math.max(...pool.map(score));
  const ties = pool.filter((i) => score(i) === best);
  return ties.sort((a, b) => Math.abs(curve.offsets[a]!) - Math.abs(curve.offsets[b]!))[0]!;
}

describe("--new-tool-offset auto", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-offset-auto-"));
  const base = join(dir, "base");
  const toolsFile = join(dir, "new.json");
  const queriesFile = join(dir, "new.jsonl");
  beforeAll(async () => {
    await trainAddToolsBase(base, oldTools, oldQueries);
    writeFileSync(
      toolsFile,
      JSON.stringify(Object.fromEntries(newTools.map((e) => [e.tool, e.description]))),
    );
    writeFileSync(queriesFile, newQueries.map((q) => JSON.stringify(q)).join("\n") + "\n");
  }, 90_000);

  it(
    "holds out dev queries, picks the rule's offset on the curve it records, and says so in one line",
    { timeout: 60_000 },
    async () => {
      const out = join(dir, "auto");
      const run = await runCli([
        "train",
        "--add-tools",
        toolsFile,
        "--from",
        base,
        "--queries",
        queriesFile,
        "--new-tool-offset",
        "auto",
        "--out",
        out,
        "--no-progress",
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.split("\n").filter((l) => l.startsWith("new-tool offset auto: "))).toHaveLength(1);
      const auto = readManifest(out)!.added!.at(-1)!.auto!;
      expect(auto.curve.offsets).toHaveLength(auto.curve.old.length);
      expect(auto.offset).toBe(auto.curve.offsets[expectedIndex(auto.curve, auto.baseOld)]);
      expect(readManifest(out)!.added!.at(-1)!.offset ?? 0).toBe(auto.offset);
      // The base has no data/dev.jsonl: the old dev queries are a fifth of its replayed queries.
      expect(auto.dev).toEqual({ old: 16, new: 4, oldFrom: "replayed" });
      const offsets = existsSync(join(out, OFFSETS_FILE))
        ? (JSON.parse(readFileSync(join(out, OFFSETS_FILE), "utf8")) as { offsets: Record<string, number> })
            .offsets
        : {};
      expect(offsets).toEqual(
        auto.offset ? Object.fromEntries(newTools.map((t) => [t.tool, auto.offset])) : {},
      );

      // The held-out new-tool queries are in data/dev.jsonl and in none of the addition's training samples.
      const dev = readFileSync(join(out, "data", "dev.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as LabelledQuery & { part: string });
      expect(dev.map((d) => d.part)).toEqual(["added", "added", "added", "added"]);
      const trained = new Set(
        readSamples(join(out, "data", "retrieval.jsonl")).map((s) => s.messages[0]!.content),
      );
      for (const d of dev) expect(trained.has(d.query), d.query).toBe(false);
      expect(newQueries.filter((q) => trained.has(q.query))).toHaveLength(newQueries.length - dev.length);

      // The recorded new-tool figure is the NDCG@1 the folder's retriever (offsets applied) gives those queries.
      const retriever = openToolGenRetriever(out, undefined);
      const hits = await retriever.searchMany(
        dev.map((d) => d.query),
        { k: 1 },
      );
      const firsts = hits.filter((h, i) => dev[i]!.relevant.includes(h[0]!.id)).length;
      expect(auto.new).toBeCloseTo((100 * firsts) / dev.length, 2);
    },
  );

  it("picks by the rule: the floor first, then the mean, then the smaller |offset|", () => {
    const offsets = [-2, -1, 0, 1, 2];
    // The best mean (offset 2: 85) costs the old tools 6 points: the floor (90 - 1) leaves -1 and 0, tied at 80.
    const curve = { offsets, old: [90, 90, 89, 86, 84], new: [50, 70, 71, 80, 86] };
    expect(pickOffset(curve, 90)).toEqual({ index: 2, floorMet: true });
    expect(expectedIndex(curve, 90)).toBe(2);
    expect(pickOffset({ ...curve, old: [90, 90, 88, 86, 84] }, 90)).toEqual({ index: 1, floorMet: true });
    // No offset keeps the old tools within 1 of 95: the floor is the best on the curve (90) - 1, as with base 90.
    expect(pickOffset(curve, 95)).toEqual({ index: 2, floorMet: false });
    expect(expectedIndex(curve, 95)).toBe(2);
  });

  it("sets old-tool dev queries apart from the replay", () => {
    const index = readToolIndex(base);
    const old = readSamples(join(base, "data", "retrieval.jsonl"));
    const byText = new Map(Object.entries(index.texts).map(([id, text]) => [text, id]));
    const split = holdOutForOffset(newQueries, new Set(renamed.values()), old, byText, [], 3);
    const held = new Set(split.oldDev.map((q) => q.query));
    expect(held.size).toBe(16);
    for (const q of split.oldDev) {
      const source = oldQueries.find((x) => x.query === q.query)!;
      expect(q.relevant).toEqual(source.relevant);
    }
    expect(split.replayable.filter((s) => held.has(s.messages[0]!.content))).toHaveLength(0);
    expect(split.replayable).toHaveLength(old.length - 16);
    expect(split.train).toHaveLength(newQueries.length - split.newDev.length);
    // With the folder's own dev queries, those are the old dev and every replayed sample stays.
    const withDev = holdOutForOffset(
      newQueries,
      new Set(renamed.values()),
      old,
      byText,
      oldQueries.slice(0, 5),
      3,
    );
    expect(withDev.oldFrom).toBe("dev.jsonl");
    expect(withDev.replayable).toHaveLength(old.length);
  });

  it(
    "refuses bad values and missing queries in one line, before anything is written",
    { timeout: 30_000 },
    async () => {
      const bad = join(dir, "bad");
      const args = ["train", "--add-tools", toolsFile, "--from", base, "--out", bad, "--no-progress"];
      for (const [extra, message] of [
        [["--new-tool-offset", "automatic"], /--new-tool-offset must be a number or auto, got "automatic"/],
        [["--new-tool-offset", "auto"], /needs at least 2 queries naming them \(--queries\), got 0/],
      ] as const) {
        const refused = await runCli([...args, ...extra]);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr.trim().split("\n")).toHaveLength(1);
        expect(refused.stderr).toMatch(message);
      }
      await expect(
        addToolsToModel({
          from: base,
          out: bad,
          tools: newTools,
          queries: queries.filter((q) => q.relevant[0] === newTools[0]!.id).slice(0, 1),
          newToolOffset: "auto",
          progress: false,
        }),
      ).rejects.toThrow(/at least 2 queries naming them/);
      expect(existsSync(bad)).toBe(false);
    },
  );
});
