import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadQueries } from "../../src/catalog/load.ts";
import { splitQueryFile } from "../../src/eval/split-files.ts";
import { dropRepeats, splitQueries, splitThreeWay } from "../../src/eval/split.ts";
import { labelProblems, overlapCount, queryKey } from "../../src/eval/split-checks.ts";
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
    const result = splitQueryFile(file, {
      seed: 7,
      trainOut: join(dir, "TRAIN.csv"),
      devOut: join(dir, "DEV.csv"),
    });
    expect(result).toEqual({ train: 8, dev: 2, dropped: { dev: 0 }, format: "csv" });
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

describe("three-way split", () => {
  const rows = Array.from({ length: 100 }, (_, i) => i);

  it("keeps the two-way rule's train part and cuts its dev part into dev then test", () => {
    const three = splitThreeWay(rows, 1, { dev: 0.1, test: 0.1 });
    const two = splitQueries(rows, 1, 0.8);
    expect(three.train).toEqual(two.train);
    expect([...three.dev, ...three.test]).toEqual(two.dev);
    expect([three.dev.length, three.test.length]).toEqual([10, 10]);
    expect(splitThreeWay(rows, 2).test).not.toEqual(three.test);
  });

  it("rejects fractions that leave no train rows", () => {
    expect(() => splitThreeWay(rows, 1, { dev: 0.5, test: 0.5 })).toThrow(/leave rows for train/);
    expect(() => splitThreeWay(rows, 1, { dev: 0 })).toThrow(/dev fraction/);
  });

  it("drops later-part rows that repeat an earlier part's query, never train rows", () => {
    const { parts, dropped } = dropRepeats(
      [
        ["Find a hotel", "b"],
        ["find a hotel.", "c", "c"],
        ["B ", "d", "C"],
      ],
      (x) => x,
    );
    expect(parts).toEqual([["Find a hotel", "b"], ["c", "c"], ["d"]]);
    expect(dropped).toEqual([1, 2]);
    expect(queryKey("  Book  A flight! ")).toBe("book a flight");
  });

  it("writes three files, refuses one path for two outputs before writing anything", () => {
    const dir = mkdtempSync(join(tmpdir(), "split3-"));
    const file = join(dir, "queries.csv");
    const lines = Array.from({ length: 20 }, (_, i) => `Query ${i},Tool${i % 3}`);
    writeFileSync(file, ["Query,Tool", ...lines, "Query 0,Tool0", "query 1,Tool1"].join("\n") + "\n");
    const out = (n: string) => join(dir, n);
    expect(() =>
      splitQueryFile(file, { seed: 1, trainOut: out("T.csv"), devOut: out("D.csv"), testOut: out("D.csv") }),
    ).toThrow(/--test-out and --dev-out are the same file/);
    expect(() => splitQueryFile(file, { seed: 1, trainOut: file, devOut: out("D.csv") })).toThrow(
      /--train-out and --queries are the same file/,
    );
    expect(existsSync(out("T.csv")) || existsSync(out("D.csv"))).toBe(false);
    const r = splitQueryFile(file, {
      seed: 3,
      trainOut: out("T.csv"),
      devOut: out("D.csv"),
      testOut: out("E.csv"),
    });
    const [train, dev, test] = ["T.csv", "D.csv", "E.csv"].map((n) => loadQueries(out(n)));
    expect(r).toMatchObject({ train: train!.length, dev: dev!.length, test: test!.length, format: "csv" });
    expect(r.train + r.dev + r.test! + r.dropped.dev + r.dropped.test!).toBe(22);
    // The parts are disjoint by query text.
    expect(
      overlapCount(
        dev!,
        train!.map((q) => q.query),
      ),
    ).toBe(0);
    expect(
      overlapCount(
        test!,
        [...train!, ...dev!].map((q) => q.query),
      ),
    ).toBe(0);
  });

  it("counts labels outside the catalog and queries with no relevant tool", () => {
    const queries = [
      { query: "a", relevant: ["x"] },
      { query: "b", relevant: [] },
      { query: "c", relevant: ["y", "z"] },
    ];
    expect(labelProblems(queries, [{ id: "x" }])).toEqual({
      noRelevant: 1,
      unknownTool: 1,
      unknownIds: ["y", "z"],
    });
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
