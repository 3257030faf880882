import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";

describe("toolgen train --catalog (CLI)", () => {
  it(
    "trains from a MetaTool-format catalog and serves eval retrieval / retrieve",
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "toolgen-cli-"));
      const { entries, queries } = syntheticCatalog();
      const tools = join(dir, "tools.json");
      const csv = join(dir, "queries.csv");
      writeFileSync(tools, JSON.stringify(Object.fromEntries(entries.map((e) => [e.tool, e.description]))));
      writeFileSync(
        csv,
        // numbers in every query, so that without --split-digits their digits would merge
        [
          "Query,Tool",
          ...queries.map((q, i) => `${q.query} ${1000 + (i % 7)},${q.relevant[0]!.split("&&")[0]}`),
        ].join("\n"),
      );
      const out = join(dir, "m");
      const common = [
        "--catalog",
        tools,
        "--queries",
        csv,
        "--out",
        out,
        "--seed",
        "1",
        "--vocab-size",
        "400",
      ];
      const trained = await runCli([
        "train",
        ...common,
        "--epochs",
        "memorization=1,retrieval=1",
        "--token-dropout",
        "retrieval=0.2",
        "--user-loss",
        "memorization=0,retrieval=1",
        "--split-digits",
        "--no-progress",
        "--json",
      ]);
      expect(trained.stderr).not.toMatch(/toolgen train:/);
      expect(trained.code).toBe(0);
      const manifest = JSON.parse(trained.stdout) as {
        done: Array<{ stage: string; tokenDropout?: number; userLoss?: boolean }>;
        index: string;
      };
      expect(manifest.done.map((d) => [d.stage, d.tokenDropout, d.userLoss])).toEqual([
        ["memorization", undefined, undefined],
        ["retrieval", 0.2, true],
      ]);
      expect(manifest.index).toBe("atomic");
      // --split-digits: no token of the learned vocabulary joins a digit with anything
      const vocab = (
        JSON.parse(readFileSync(join(out, "tokenizer.json"), "utf8")) as { model: { vocab: object } }
      ).model.vocab;
      expect(Object.keys(vocab).filter((t) => /\d/.test(t) && t.length > 1)).toEqual([]);

      const evaluated = await runCli([
        "eval",
        "retrieval",
        "--catalog",
        tools,
        "--queries",
        csv,
        "--retriever",
        "toolgen",
        "--model",
        out,
        "--json",
        // The training queries themselves: refused without this flag (the model folder records them).
        "--allow-overlap",
      ]);
      expect(evaluated.code).toBe(0);
      const figures = JSON.parse(evaluated.stdout) as Record<string, number>;
      for (const key of ["ndcg@1", "ndcg@5", "ndcg_toolgen@1", "recall@5", "mrr", "p50_ms", "p95_ms"]) {
        expect(typeof figures[key]).toBe("number");
      }
      expect(figures.queries).toBe(queries.length);
      expect(figures.overlap_with_training).toBe(queries.length - 5); // 5 % held out as dev queries (--dev-fraction)

      const hybrid = await runCli([
        "retrieve",
        "rain forecast please",
        "--catalog",
        tools,
        "--retriever",
        "hybrid",
        "--model",
        `builtin:${out}`,
        "-k",
        "3",
        "--json",
      ]);
      expect(hybrid.code).toBe(0);
      const { results } = JSON.parse(hybrid.stdout) as { results: Array<{ id: string }> };
      expect(results).toHaveLength(3);
      expect(entries.map((e) => e.tool)).toEqual(expect.arrayContaining(results.map((r) => r.id)));
    },
  );

  it("rejects bad options with a clear message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-cli-"));
    const tools = join(dir, "tools.json");
    writeFileSync(tools, JSON.stringify({ calculator: "does sums" }));
    const bad = await runCli(["train", "--catalog", tools, "--out", join(dir, "m"), "--index", "bogus"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--index must be one of atomic, semantic, numeric, hierarchical/);
    const noQueries = await runCli([
      "train",
      "--catalog",
      tools,
      "--out",
      join(dir, "m2"),
      "--stages",
      "retrieval",
      "--no-progress",
    ]);
    expect(noQueries.code).toBe(1);
    expect(noQueries.stderr).toMatch(/retrieval stage needs labelled queries/);
    // per-stage values out of range: refused before anything is written
    const stageValues: Array<[string, string, RegExp]> = [
      ["--token-dropout", "retrieval=1", /--token-dropout expects stage=value pairs, e.g. retrieval=0.25/],
      [
        "--user-loss",
        "retrieval=2",
        /--user-loss expects stage=value pairs, e.g. memorization=1,retrieval=0/,
      ],
      ["--average-last", "retrieval=1", /--average-last expects stage=value pairs, e.g. retrieval=0.25/],
      [
        "--user-loss-fraction",
        "retrieval=0",
        /--user-loss-fraction expects stage=value pairs, e.g. retrieval=0.25/,
      ],
    ];
    for (const [i, [flag, value, message]] of stageValues.entries()) {
      const out = join(dir, `m${i + 3}`);
      const r = await runCli(["train", "--catalog", tools, "--out", out, flag, value]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    }
    const model = await runCli(["retrieve", "x", "--catalog", tools, "--retriever", "toolgen"]);
    expect(model.stderr).toMatch(/needs a trained model: --model DIR/);
  });
});
