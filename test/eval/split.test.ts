import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadQueries } from "../../src/catalog/load.ts";
import { splitQueryFile } from "../../src/eval/split-files.ts";
import { splitQueries } from "../../src/eval/split.ts";
import { sharedData } from "../helpers/shared-data.ts";

describe("seeded split", () => {
  const rows = Array.from({ length: 100 }, (_, i) => i);

  it("is a deterministic 80/20 partition that depends on the seed", () => {
    const a = splitQueries(rows, 1);
    expect(a.train).toHaveLength(80);
    expect(a.dev).toHaveLength(20);
    expect(new Set([...a.train, ...a.dev]).size).toBe(100);
    expect(splitQueries(rows, 1)).toEqual(a);
    expect(splitQueries(rows, 2).dev).not.toEqual(a.dev);
    // Pinned: the rule must never change silently (experiments cite it by seed).
    expect(a.dev.slice(0, 5)).toMatchInlineSnapshot(`
      [
        99,
        32,
        5,
        41,
        13,
      ]
    `);
  });

  it("rejects a non-integer seed and a bad fraction", () => {
    expect(() => splitQueries(rows, 1.5)).toThrow(/integer/);
    expect(() => splitQueries(rows, 1, 1)).toThrow(/trainFraction/);
  });

  it("writes a MetaTool CSV split as CSV with the header, rows unchanged", () => {
    const dir = mkdtempSync(join(tmpdir(), "split-"));
    const file = join(dir, "queries.csv");
    const lines = Array.from({ length: 10 }, (_, i) => `"Query ${i}, with comma",Tool${i % 3}`);
    writeFileSync(file, ["Query,Tool", ...lines].join("\n") + "\n");
    const result = splitQueryFile(file, 7, join(dir, "TRAIN.csv"), join(dir, "DEV.csv"));
    expect(result).toEqual({ train: 8, dev: 2, format: "csv" });
    const train = loadQueries(join(dir, "TRAIN.csv"));
    const dev = loadQueries(join(dir, "DEV.csv"));
    expect(readFileSync(join(dir, "DEV.csv"), "utf8").split("\n")[0]).toBe("Query,Tool");
    expect([...train, ...dev].map((q) => q.query).sort()).toEqual(
      loadQueries(file)
        .map((q) => q.query)
        .sort(),
    );
    // Same rule as splitting the loaded queries.
    expect(dev.map((q) => q.query)).toEqual(splitQueries(loadQueries(file), 7).dev.map((q) => q.query));
  });
});

const metatool = sharedData("metatool/queries.csv");
describe.skipIf(!metatool)("MetaTool split (shared data)", () => {
  it("splits the shared queries 80/20 with seed 1", () => {
    const queries = loadQueries(metatool as string);
    const { train, dev } = splitQueries(queries, 1);
    expect(train.length + dev.length).toBe(queries.length);
    expect(dev.length).toBe(queries.length - Math.round(queries.length * 0.8));
  });
});
