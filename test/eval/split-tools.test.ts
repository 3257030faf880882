import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { loadQueries } from "../../src/catalog/load.ts";
import { pairedRandomization } from "../../src/eval/paired-randomization.ts";
import { splitQueryFile } from "../../src/eval/split-files.ts";
import { splitByTool, toolLeaks, toolOf } from "../../src/eval/split-tools.ts";

const rows: LabelledQuery[] = Array.from({ length: 200 }, (_, i) => ({
  query: `query ${i}`,
  relevant: [`tool${i % 20}&&api${i % 3}`],
}));
const relevant = (q: LabelledQuery): string[] => q.relevant;

describe("split by tool", () => {
  it("puts every tool in one part, so dev and test tools are in no training query", () => {
    const split = splitByTool(rows, relevant, 41, { dev: 0.2, test: 0.2 });
    expect(split.tools.train).toHaveLength(12);
    expect(split.tools.dev).toHaveLength(4);
    expect(split.tools.test).toHaveLength(4);
    expect(split.train.length + split.dev.length + split.test.length).toBe(200);
    expect(toolLeaks(split.train, [...split.dev, ...split.test], relevant)).toEqual([]);
    const testTools = new Set(split.tools.test);
    expect(split.test.every((q) => testTools.has(toolOf(q.relevant[0])))).toBe(true);
    // Pinned: experiments cite the rule by seed.
    expect(split.tools.test).toEqual(splitByTool(rows, relevant, 41, { dev: 0.2, test: 0.2 }).tools.test);
    expect(split.tools.test).not.toEqual(splitByTool(rows, relevant, 42, { dev: 0.2, test: 0.2 }).tools.test);
  });

  it("catches a test tool planted in the training part", () => {
    const split = splitByTool(rows, relevant, 41, { dev: 0.2, test: 0.2 });
    const planted = [...split.train, split.test[0]];
    expect(toolLeaks(planted, split.test, relevant)).toEqual([toolOf(split.test[0].relevant[0])]);
  });

  it("drops and counts a query whose tools fall in two parts", () => {
    const split = splitByTool(rows, relevant, 41, { dev: 0.2, test: 0.2 });
    const mixed = { query: "both", relevant: [`${split.tools.train[0]}&&x`, `${split.tools.test[0]}&&y`] };
    const again = splitByTool([...rows, mixed], relevant, 41, { dev: 0.2, test: 0.2 });
    expect(again.mixed).toBe(1);
    expect([...again.train, ...again.dev, ...again.test]).not.toContain(mixed);
  });

  it("writes a MetaTool CSV split by tool as CSV, tool-disjoint, counting the tools", () => {
    const dir = mkdtempSync(join(tmpdir(), "split-tools-"));
    const file = join(dir, "queries.csv");
    const lines = Array.from({ length: 60 }, (_, i) => `"Query ${i}, please",Tool${i % 10}`);
    writeFileSync(file, ["Query,Tool", ...lines].join("\n") + "\n");
    const out = (name: string): string => join(dir, name);
    const result = splitQueryFile(file, {
      seed: 3,
      by: "tool",
      trainOut: out("train.csv"),
      devOut: out("dev.csv"),
      testOut: out("test.csv"),
      fractions: { dev: 0.2, test: 0.2 },
    });
    expect(result).toMatchObject({ format: "csv", tools: { train: 6, dev: 2, test: 2 }, train: 36, dev: 12 });
    expect(readFileSync(out("test.csv"), "utf8").split("\n")[0]).toBe("Query,Tool");
    const [train, dev, test] = ["train.csv", "dev.csv", "test.csv"].map((f) => loadQueries(out(f)));
    expect(toolLeaks(train, [...dev, ...test], relevant)).toEqual([]);
    // The check is not vacuous: a split by query over the same file shares tools between its parts.
    splitQueryFile(file, { seed: 3, trainOut: out("q-train.csv"), devOut: out("q-dev.csv") });
    expect(toolLeaks(loadQueries(out("q-train.csv")), loadQueries(out("q-dev.csv")), relevant)).not.toEqual(
      [],
    );
  });

  it("refuses fractions that leave no tools for training", () => {
    expect(() => splitByTool(rows, relevant, 1, { dev: 0.5, test: 0.5 })).toThrow(/dev \+ test < 1/);
  });
});

describe("toolgen eval split --by tool", () => {
  const BIN = join(import.meta.dirname, "../../bin/toolgen.mjs");
  const run = async (args: string[]): Promise<{ stdout: string; stderr: string; code: number }> =>
    promisify(execFile)(process.execPath, [BIN, ...args]).then(
      ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => ({
        stdout: e.stdout,
        stderr: e.stderr,
        code: e.code,
      }),
    );

  it("writes tool-disjoint parts and refuses an unknown unit before writing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "split-tools-cli-"));
    const file = join(dir, "queries.jsonl");
    writeFileSync(file, rows.map((q) => JSON.stringify(q)).join("\n") + "\n");
    const parts = ["train", "dev", "test"].map((p) => join(dir, `${p}.jsonl`));
    const args = ["eval", "split", "--queries", file, "--train-out", parts[0], "--dev-out", parts[1]];
    const ok = await run([...args, "--test-out", parts[2], "--by", "tool", "--seed", "41", "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ format: "jsonl", tools: { train: 16, dev: 2, test: 2 } });
    const [train, dev, test] = parts.map((p) => loadQueries(p));
    expect(toolLeaks(train, [...dev, ...test], relevant)).toEqual([]);
    const fresh = ["t2", "d2"].map((p) => join(dir, `${p}.jsonl`));
    const bad = await run([
      "eval",
      "split",
      "--queries",
      file,
      "--train-out",
      fresh[0],
      "--dev-out",
      fresh[1],
      "--by",
      "api",
    ]);
    expect(bad.code).toBe(1);
    expect(fresh.some((p) => existsSync(p))).toBe(false);
    expect(bad.stderr).toMatch(/--by must be query or tool, got api/);
  });
});

describe("paired randomisation test", () => {
  it("finds no difference between equal systems and a clear one between different systems", () => {
    const a = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    expect(pairedRandomization(a, a, { rounds: 2000 }).p).toBe(1);
    const better = a.map((x, i) => (i % 5 === 1 ? 1 : x));
    const r = pairedRandomization(better, a, { rounds: 2000 });
    expect(r.difference).toBeCloseTo(0.1); // 10 queries gained, none lost
    expect(r.p).toBeLessThan(0.005);
    const noisy = a.map((x, i) => (i % 10 === 1 ? 1 : i % 10 === 2 ? 0 : x));
    expect(pairedRandomization(noisy, a, { rounds: 2000 }).p).toBeGreaterThan(0.2);
  });
});
