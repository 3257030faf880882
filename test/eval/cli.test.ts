import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
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
    const { stdout, stderr, code } = await cli([
      "eval",
      "retrieval",
      "--catalog",
      f["tools.json"],
      "--queries",
      f["queries.csv"],
      f["queries.jsonl"],
      "--report",
      report,
      "--json",
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    // Without --retriever: the shipped ranker, and the command says so on stderr.
    expect(json).toMatchObject({ retriever: "ranker", queries: 4 });
    expect(stderr).toMatch(/^retriever: ranker \(the default; --retriever /);
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
    const same = await cli([
      "eval",
      "split",
      "--queries",
      f["queries.csv"],
      "--train-out",
      join(f.dir, "T3.csv"),
      "--dev-out",
      join(f.dir, "X.csv"),
      "--test-out",
      join(f.dir, "X.csv"),
    ]);
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/--test-out and --dev-out are the same file/);
  });

  it("refuses unknown tools, empty labels and training queries, or counts them when told", async () => {
    const file = join(f.dir, "bad-labels.jsonl");
    writeFileSync(
      file,
      [
        { query: "weather forecast for tomorrow", relevant: ["weather"] },
        { query: "something", relevant: [] },
        { query: "other", relevant: ["no_such_tool"] },
      ]
        .map((q) => JSON.stringify(q))
        .join("\n") + "\n",
    );
    const base = ["eval", "retrieval", "--catalog", f["tools.json"], "--queries", file, "--json"];
    const refused = await cli(base);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /1 queries name 1 tools not in the catalog .*1 queries have no relevant tool/,
    );
    const own = join(f.dir, "own-train.jsonl");
    writeFileSync(
      own,
      JSON.stringify({ query: "Weather forecast for tomorrow.", relevant: ["weather"] }) + "\n",
    );
    const clash = await cli([...base, "--skip-invalid", "--train-queries", own]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/1 of 1 queries were also training queries/);
    const allowed = await cli([...base, "--skip-invalid", "--train-queries", own, "--allow-overlap"]);
    expect(JSON.parse(allowed.stdout)).toMatchObject({
      queries: 1,
      excluded: { unknown_tool: 1, no_relevant: 1 },
      overlap_with_training: 1,
    });
  });
});
