// BM25's options (--k1, --b, --document, --no-stem, --no-stopwords) tune bm25 and hybrid's BM25 part only; with
// another retriever (the default ranker included), or a hybrid whose gate uses the ranker as its lexical part, they
// would do nothing, so `retrieve` and `eval retrieval` refuse them in one line before reading anything.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "toolgen-bm25-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const catalog = join(dir, "catalog.json");
writeFileSync(
  catalog,
  JSON.stringify(
    [
      ["weather_forecast", "Weather forecast for a city"],
      ["currency_convert", "Convert an amount between currencies"],
    ].map(([name, description]) => ({ type: "function", function: { name, description } })),
  ),
);
const queries = join(dir, "queries.jsonl");
writeFileSync(queries, JSON.stringify({ query: "weather tomorrow", relevant: ["weather_forecast"] }) + "\n");
// A catalog that does not exist: the refusal must come before it is read.
const missing = join(dir, "absent.json");

describe("BM25's options with a retriever that has no BM25", () => {
  it("retrieve refuses them with the default ranker, naming the retriever, before reading the catalog", async () => {
    for (const [flags, named] of [
      [["--k1", "2"], "--k1 applies"],
      [["--b", "0.5"], "--b applies"],
      [["--document", "name-description"], "--document applies"],
      [["--no-stem"], "--no-stem applies"],
      [["--k1", "2", "--no-stopwords"], "--k1, --no-stopwords apply"],
    ] as const) {
      const out = await runCli(["retrieve", "weather", "--catalog", missing, ...flags]);
      expect(out).toEqual({
        code: 1,
        stdout: "",
        stderr:
          `toolgen retrieve: ${named} to --retriever bm25 or hybrid (its BM25 part); ` +
          "the default retriever is ranker\n",
      });
    }
  });

  it("retrieve and eval retrieval refuse them with --retriever ranker or bm25f", async () => {
    for (const kind of ["ranker", "bm25f"]) {
      const out = await runCli([
        "retrieve",
        "weather",
        "--catalog",
        catalog,
        "--retriever",
        kind,
        "--b",
        "1",
      ]);
      expect(out).toEqual({
        code: 1,
        stdout: "",
        stderr: `toolgen retrieve: --b applies to --retriever bm25 or hybrid (its BM25 part); --retriever is ${kind}\n`,
      });
    }
    const evaluated = await runCli([
      "eval",
      "retrieval",
      "--catalog",
      missing,
      "--queries",
      queries,
      "--k1",
      "2",
    ]);
    expect(evaluated).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "toolgen eval retrieval: --k1 applies to --retriever bm25 or hybrid (its BM25 part); " +
        "the default retriever is ranker\n",
    });
  });

  it("are refused with --retriever hybrid when the model's gate uses the ranker as its lexical part", async () => {
    // Only the gate file is read: the refusal comes before the catalog or the model's weights are opened.
    const gated = (lexical?: string) => {
      const model = mkdtempSync(join(dir, "model-"));
      writeFileSync(
        join(model, "toolgen-gate.json"),
        JSON.stringify({
          feature: "top-prob",
          threshold: 0.5,
          lowWeight: 0,
          ...(lexical ? { lexical } : {}),
        }),
      );
      return model;
    };
    const ranker = gated("ranker");
    const refusal = (command: string, named: string) => ({
      code: 1,
      stdout: "",
      stderr:
        `toolgen ${command}: ${named} to --retriever bm25 or hybrid (its BM25 part); ` +
        `the hybrid's lexical part is the ranker (${join(ranker, "toolgen-gate.json")})\n`,
    });
    const hybrid = ["--catalog", missing, "--retriever", "hybrid", "--model", ranker];
    expect(await runCli(["retrieve", "weather", ...hybrid, "--k1", "2"])).toEqual(
      refusal("retrieve", "--k1 applies"),
    );
    expect(await runCli(["eval", "retrieval", ...hybrid, "--queries", queries, "--b", "0.5"])).toEqual(
      refusal("eval retrieval", "--b applies"),
    );
    // A gate chosen against BM25 (named, or an older file without `lexical`) keeps BM25's options: the command
    // goes on and fails only on the absent catalog.
    for (const model of [gated("bm25"), gated()]) {
      const out = await runCli([
        "retrieve",
        "weather",
        "--catalog",
        missing,
        "--retriever",
        "hybrid",
        "--model",
        model,
        "--k1",
        "2",
      ]);
      expect(out.code).not.toBe(0);
      expect(out.stderr).not.toMatch(/applies to/);
      expect(out.stderr).toMatch(/absent\.json/);
    }
  });

  it("apply with --retriever bm25: k1 changes the score", async () => {
    const score = async (extra: string[]) => {
      const out = await runCli([
        "retrieve",
        "weather",
        "--catalog",
        catalog,
        "--retriever",
        "bm25",
        "--json",
        ...extra,
      ]);
      expect(out).toMatchObject({ code: 0, stderr: "" });
      return (JSON.parse(out.stdout) as { results: { id: string; score: number }[] }).results[0];
    };
    const plain = await score([]);
    const tuned = await score([
      "--k1",
      "0.3",
      "--b",
      "0.2",
      "--no-stem",
      "--no-stopwords",
      "--document",
      "name-description",
    ]);
    expect(plain.id).toBe("weather_forecast");
    expect(tuned.id).toBe("weather_forecast");
    expect(tuned.score).not.toBe(plain.score);
    // Without any BM25 option the default ranker answers as before.
    const ranked = await runCli(["retrieve", "weather", "--catalog", catalog, "--json"]);
    expect(ranked.code).toBe(0);
    expect(ranked.stderr).toMatch(/^retriever: ranker \(the default/);
  });
});
