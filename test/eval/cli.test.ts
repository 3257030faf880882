import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { writeFixtures } from "../catalog/fixtures.ts";

const run = promisify(execFile);
const BIN = join(import.meta.dirname, "../../bin/toolgen.mjs");
const f = writeFixtures();

async function cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args]);
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe("toolgen eval retrieval / retrieve / eval split", () => {
  it("prints the contract's JSON for eval retrieval and writes a Markdown report", async () => {
    const report = join(f.dir, "report.md");
    const { stdout, code } = await cli([
      "eval",
      "retrieval",
      "--catalog",
      f["tools.json"],
      "--queries",
      f["queries.csv"],
      f["queries.jsonl"],
      "--document",
      "name-description",
      "--report",
      report,
      "--json",
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json).toMatchObject({ retriever: "bm25", queries: 4 });
    for (const key of [
      "ndcg@1",
      "ndcg@3",
      "ndcg@5",
      "ndcg_toolgen@1",
      "ndcg_toolgen@3",
      "ndcg_toolgen@5",
      "recall@5",
      "mrr",
      "p50_ms",
      "p95_ms",
    ]) {
      expect(typeof json[key]).toBe("number");
    }
    expect(Object.keys(json.by_source)).toEqual(["queries.csv", "queries.jsonl"]);

    const retrieve = await cli([
      "retrieve",
      "weather forecast for tomorrow",
      "--catalog",
      f["tools.json"],
      "-k",
      "1",
      "--json",
    ]);
    expect(JSON.parse(retrieve.stdout)).toEqual({
      query: "weather forecast for tomorrow",
      results: [{ id: "weather", score: expect.any(Number) }],
    });
  });

  it("fails with a clear message and exit code 1 on bad input", async () => {
    const bad = await cli([
      "eval",
      "retrieval",
      "--catalog",
      join(f.dir, "nope.json"),
      "--queries",
      f["queries.csv"],
      "--json",
    ]);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({ error: expect.stringMatching(/nope\.json: no such file/) });
    expect(bad.stderr).toMatch(/nope\.json: no such file or folder/);
    const split = await cli([
      "eval",
      "split",
      "--queries",
      f["queries.csv"],
      "--seed",
      "1",
      "--train-out",
      join(f.dir, "T.csv"),
      "--dev-out",
      join(f.dir, "D.csv"),
      "--json",
    ]);
    expect(JSON.parse(split.stdout)).toMatchObject({ train: 2, dev: 0, format: "csv" });
  });
});
