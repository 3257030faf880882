// A ToolGen folder whose training stopped early (fewer finished stages in toolgen.json than planned) is refused
// by `retrieve` and `eval retrieval` in one line, and used when --allow-unfinished says so.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "toolgen-unfinished-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// the committed demo model, its last stage marked as not done (what an interrupted agent stage leaves)
const model = join(dir, "model");
cpSync("models/demo", model, { recursive: true });
const manifest = JSON.parse(readFileSync(join(model, "toolgen.json"), "utf8")) as { done: unknown[] };
writeFileSync(join(model, "toolgen.json"), JSON.stringify({ ...manifest, done: manifest.done.slice(0, 2) }));
const ids = Object.keys(
  (JSON.parse(readFileSync(join(model, "toolgen-index.json"), "utf8")) as { texts: object }).texts,
);
const catalog = join(dir, "catalog.json");
writeFileSync(
  catalog,
  JSON.stringify(
    ids.map((name) => ({ type: "function", function: { name, description: name.replace(/_/g, " ") } })),
  ),
);
const queries = join(dir, "queries.jsonl");
writeFileSync(queries, JSON.stringify({ query: "add 2 and 3", relevant: ["add_numbers"] }) + "\n");

const REFUSAL =
  `the model in ${model} is unfinished: its training stopped after 2 of 3 stages (memorization, retrieval done; ` +
  "memorization, retrieval, agent planned); finish it by running the same `toolgen train` again, or use it as it " +
  "is with --allow-unfinished (allowUnfinished: true)";

describe("an unfinished ToolGen model", () => {
  it("retrieve refuses it in one line, and uses it with --allow-unfinished", async () => {
    const args = [
      "retrieve",
      "add 2 and 3",
      "--catalog",
      catalog,
      "--retriever",
      "toolgen",
      "--model",
      model,
    ];
    expect(await runCli(args)).toEqual({ code: 1, stdout: "", stderr: `toolgen retrieve: ${REFUSAL}\n` });
    const allowed = await runCli([...args, "--allow-unfinished", "--json"]);
    expect(allowed).toMatchObject({ code: 0, stderr: "" });
    expect((JSON.parse(allowed.stdout) as { results: unknown[] }).results.length).toBe(5);
  }, 60_000);

  it("eval retrieval refuses it too (hybrid included)", async () => {
    for (const kind of ["toolgen", "hybrid"]) {
      const out = await runCli([
        "eval",
        "retrieval",
        "--catalog",
        catalog,
        "--queries",
        queries,
        "--retriever",
        kind,
        "--model",
        model,
      ]);
      expect(out).toEqual({ code: 1, stdout: "", stderr: `toolgen eval retrieval: ${REFUSAL}\n` });
    }
  });
});
