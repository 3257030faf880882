import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { openToolGenRetriever } from "../../src/retrieval/toolgen-open.ts";
import { addToolsToModel } from "../../src/train/add-tools.ts";
import { OFFSETS_FILE, readManifest } from "../../src/toolgen/model-folder.ts";
import { runCli } from "../helpers/run-cli.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";
import { trainAddToolsBase } from "../helpers/add-tools-base.ts";

const { entries, queries } = syntheticCatalog();
const NEW = 4; // the last four tools are added later
const oldTools = entries.slice(0, -NEW);
const newTools = entries.slice(-NEW);
const newIds = new Set(newTools.map((t) => t.id));
const newQueries = queries.filter((q) => newIds.has(q.relevant[0]!));
const oldQueries = queries.filter((q) => !newIds.has(q.relevant[0]!));

/** Every tool's score for every query, by id (the whole catalog ranked). */
async function scores(
  dir: string,
  catalog: readonly CatalogEntry[],
  qs: readonly LabelledQuery[],
  options = {},
) {
  const r = openToolGenRetriever(dir, catalog, options);
  const hits = await r.searchMany(
    qs.map((q) => q.query),
    { k: catalog.length },
  );
  return hits.map((h) => new Map(h.map((x) => [x.id, x.score])));
}

/** The share of queries whose first hit is a new tool. */
const newFirst = (s: Array<Map<string, number>>) =>
  s.filter((m) => newIds.has([...m.entries()].sort((a, b) => b[1] - a[1])[0]![0])).length / s.length;

describe("the added tools' logit offset (toolgen-offsets.json)", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-offset-"));
  const base = join(dir, "base");
  const plain = join(dir, "plain");
  beforeAll(async () => {
    await trainAddToolsBase(base, oldTools, oldQueries);
    await addToolsToModel({
      from: base,
      out: plain,
      tools: newTools,
      queries: newQueries,
      progress: false,
      log: () => {},
    });
  }, 90_000);

  it(
    "is written for the new tools, shifts exactly their scores, and carries over to a later addition",
    { timeout: 60_000 },
    async () => {
      expect(existsSync(join(plain, OFFSETS_FILE))).toBe(false); // no offset given: no file
      const shifted = join(dir, "shifted");
      const manifest = await addToolsToModel({
        from: base,
        out: shifted,
        tools: newTools,
        queries: newQueries,
        newToolOffset: -40,
        progress: false,
        log: () => {},
      });
      expect(manifest.added!.at(-1)!.offset).toBe(-40);
      const file = JSON.parse(readFileSync(join(shifted, OFFSETS_FILE), "utf8")) as {
        offsets: Record<string, number>;
      };
      expect(file.offsets).toEqual(Object.fromEntries(newTools.map((t) => [t.id, -40])));
      // The same weights as the addition without an offset (the offset is not trained): the retriever adds it.
      const before = await scores(plain, entries, queries);
      const after = await scores(shifted, entries, queries);
      after.forEach((m, i) => {
        for (const [id, s] of m) expect(s - before[i]!.get(id)!, id).toBeCloseTo(newIds.has(id) ? -40 : 0, 3);
      });
      expect(newFirst(before)).toBeGreaterThan(0.1); // the new tools do win some queries…
      expect(newFirst(after)).toBe(0); // …and none once pushed 40 logits down
      // A caller's own offsets replace the folder's.
      expect(newFirst(await scores(shifted, entries, queries, { offsets: {} }))).toBe(newFirst(before));

      // A second addition keeps the first one's offsets and adds its own.
      const more = entries.slice(0, 1).map((e) => ({ ...e, id: "extra&&Tool", tool: "extra", api: "Tool" }));
      const twice = join(dir, "twice");
      await addToolsToModel({
        from: shifted,
        out: twice,
        tools: more,
        newToolOffset: 1.5,
        progress: false,
        log: () => {},
      });
      const offsets = (JSON.parse(readFileSync(join(twice, OFFSETS_FILE), "utf8")) as typeof file).offsets;
      expect(offsets).toEqual({ ...file.offsets, "extra&&Tool": 1.5 });
      expect(readManifest(twice)!.added!.map((a) => a.offset)).toEqual([-40, 1.5]);
    },
  );

  it("is refused when not a number, before anything is written", { timeout: 30_000 }, async () => {
    const bad = join(dir, "bad");
    await expect(
      addToolsToModel({ from: base, out: bad, tools: newTools, newToolOffset: NaN, progress: false }),
    ).rejects.toThrow(/newToolOffset must be a finite number/);
    const tools = join(dir, "new.json");
    writeFileSync(tools, JSON.stringify(Object.fromEntries(newTools.map((e) => [e.tool, e.description]))));
    const refused = await runCli([
      "train",
      "--add-tools",
      tools,
      "--from",
      base,
      "--new-tool-offset",
      "lots",
      "--out",
      bad,
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/--new-tool-offset must be a number or auto, got "lots"/);
    const wrongPlace = await runCli(["train", "--catalog", tools, "--new-tool-offset", "1", "--out", bad]);
    expect(wrongPlace.code).not.toBe(0);
    expect(wrongPlace.stderr).toMatch(/--new-tool-offset/);
    expect(existsSync(bad)).toBe(false);
  });
});
