import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadQueries } from "../../src/catalog/load.ts";
import { importToolList } from "../../src/catalog/import/jsonl.ts";
import { autoPerTool } from "../../src/cli/synth.ts";
import { runCli } from "../helpers/run-cli.ts";
import { FIXTURE_TOOLS } from "./fixture.ts";

const dir = mkdtempSync(join(tmpdir(), "toolgen-synth-"));
const catalogFile = join(dir, "tools.json");
writeFileSync(catalogFile, JSON.stringify(FIXTURE_TOOLS));

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("toolgen synth", () => {
  it("writes questions, trajectories and queries that toolgen train reads, with a held-out share apart", async () => {
    const out = join(dir, "out");
    const r = await runCli([
      "synth",
      "--catalog",
      catalogFile,
      "--out",
      out,
      "--per-tool",
      "20",
      "--seed",
      "2",
      "--json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as Record<string, number>;
    expect(summary.tools).toBe(5);
    expect(summary.train + summary.heldOut).toBe(summary.questions);
    const questions = lines(join(out, "questions.jsonl"));
    const heldOut = lines(join(out, "held-out.jsonl"));
    expect(questions).toHaveLength(summary.train);
    expect(heldOut.length).toBeGreaterThan(0);
    const trainQuestions = new Set(questions.map((q) => q.question));
    expect(heldOut.filter((q) => trainQuestions.has(q.question))).toEqual([]);
    expect(lines(join(out, "trajectories.jsonl"))).toHaveLength(summary.train);
    const catalog = importToolList(FIXTURE_TOOLS, catalogFile);
    const queries = loadQueries(join(out, "queries.jsonl"), catalog);
    expect(queries).toHaveLength(questions.filter((q) => (q.calls as unknown[]).length > 0).length);
    expect(loadQueries(join(out, "held-out-queries.jsonl"), catalog).length).toBeGreaterThan(0);
  });

  it("--max-calls 4: questions with three and four calls too", async () => {
    const out = join(dir, "out-many");
    const args = ["synth", "--catalog", catalogFile, "--out", out, "--per-tool", "10", "--max-calls", "4"];
    const r = await runCli([...args, "--multi-call-share", "0.5", "--json"]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as Record<string, number>;
    expect(summary.moreCalls).toBeGreaterThan(0);
    const all = [...lines(join(out, "questions.jsonl")), ...lines(join(out, "held-out.jsonl"))];
    expect(all.filter((q) => (q.calls as unknown[]).length > 2)).toHaveLength(summary.moreCalls);
    expect(all.every((q) => (q.calls as unknown[]).length <= 4)).toBe(true);
  });

  it("--shape-share 1: every multi-call question calls two different tools", async () => {
    const out = join(dir, "out-shapes");
    const args = ["synth", "--catalog", catalogFile, "--out", out, "--per-tool", "10", "--shape-share", "1"];
    const r = await runCli([...args, "--multi-call-share", "0.5", "--json"]);
    expect(r.code).toBe(0);
    const all = [...lines(join(out, "questions.jsonl")), ...lines(join(out, "held-out.jsonl"))];
    const multi = all.filter((q) => (q.calls as unknown[]).length > 1);
    expect(multi.length).toBeGreaterThan(0);
    for (const q of multi) expect(new Set((q.calls as { name: string }[]).map((c) => c.name)).size).toBe(2);
  });

  it("--per-tool auto: about 2,000 questions for a small catalog, at least 4 per tool for a large one", () => {
    expect(autoPerTool(5)).toBe(400);
    expect(autoPerTool(85)).toBe(24);
    expect(autoPerTool(2479)).toBe(4);
  });

  it("a bad catalog is one line on stderr, a non-zero exit and nothing written", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "{ not json");
    const out = join(dir, "never");
    const r = await runCli(["synth", "--catalog", bad, "--out", out]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^toolgen synth: .*bad\.json/);
    expect(existsSync(out)).toBe(false);
  });

  it("checks options before reading or writing anything", async () => {
    const out = join(dir, "never2");
    for (const args of [
      ["--per-tool", "0"],
      ["--per-tool", "many"],
      ["--decline-share", "1.5"],
      ["--multi-call-share", "x"],
      ["--held-out", "-0.1"],
      ["--seed", "-1"],
      ["--max-calls", "1"],
      ["--max-calls", "9"],
      ["--shape-share", "2"],
    ]) {
      const r = await runCli(["synth", "--catalog", catalogFile, "--out", out, ...args]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(new RegExp(`^toolgen synth: ${args[0]}`));
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    expect(existsSync(out)).toBe(false);
  });
});
