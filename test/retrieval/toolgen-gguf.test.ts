/**
 * End to end: a 20-tool ToolGen model trained here, exported to GGUF, retrieves the same top-5 through llama.cpp
 * as through the TS engine (library and CLI), and a ToolGen agent runs on it through llama.cpp.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolGenAgent } from "../../src/agents/toolgen.ts";
import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { llamaCppAvailable, LlamaCppModel } from "../../src/models/llamacpp.ts";
import { BuiltinTokenModel } from "../../src/models/builtin.ts";
import { createRetriever } from "../../src/retrieval/create.ts";
import { GenerativeRetriever } from "../../src/retrieval/generative.ts";
import type { Retriever } from "../../src/retrieval/retriever.ts";
import { trainToolGen } from "../../src/train/pipeline.ts";
import { runCli } from "../helpers/run-cli.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";
import { tinyToolGenOptions } from "../helpers/tiny-toolgen.ts";

const available = await llamaCppAvailable();
if (!available)
  console.warn(
    "SKIP: node-llama-cpp (optional dependency) cannot load here; ToolGen-on-llama.cpp tests are skipped.",
  );

describe.skipIf(!available)("ToolGen model: TS engine and llama.cpp side by side", () => {
  let entries: CatalogEntry[];
  let queries: LabelledQuery[];
  let dir: string;
  let gguf: string;
  let builtin: Retriever;
  let llamacpp: Retriever;
  beforeAll(async () => {
    ({ entries, queries } = syntheticCatalog());
    dir = mkdtempSync(join(tmpdir(), "toolgen-e2e-"));
    const started = performance.now();
    await trainToolGen({
      catalog: entries,
      queries,
      out: dir,
      // Room for the agent's prompts; positions only cost memory, not training time.
      ...tinyToolGenOptions({ maxPositions: 4096 }),
    });
    expect((performance.now() - started) / 1000).toBeLessThan(60);
    gguf = join(dir, "model.gguf");
    const exported = await runCli(["export", "gguf", "--model", dir, "--out", gguf, "--json"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout).file).toBe(gguf);
    builtin = await createRetriever("toolgen", { catalog: entries, model: `builtin:${dir}` });
    llamacpp = await createRetriever("toolgen", { catalog: entries, model: `gguf:${gguf}` });
  });
  afterAll(async () => {
    const model = (llamacpp as unknown as { model?: LlamaCppModel } | undefined)?.model;
    await model?.dispose();
  });

  it("retrieves the same top-5 for every query", async () => {
    let top1 = 0;
    for (const q of queries) {
      const a = await builtin.search(q.query, { k: 5 });
      const b = await llamacpp.search(q.query, { k: 5 });
      expect(
        b.map((h) => h.id),
        q.query,
      ).toEqual(a.map((h) => h.id));
      expect(b).toHaveLength(5);
      if (b[0]!.id === q.relevant[0]) top1++;
    }
    expect(top1 / queries.length).toBeGreaterThanOrEqual(0.9); // the model really learned the catalog
  });

  it("decodes multi-token ids by the same constrained beam search on both backends", async () => {
    // Numeric ids ("0 0 0 1 7") over the same model: the beam search forks llama.cpp token sessions.
    const texts = Object.fromEntries(
      entries.map((e, i) => [e.id, String(i).padStart(5, "0").split("").join(" ")]),
    );
    const index = { kind: "numeric" as const, texts };
    const engine = new GenerativeRetriever(BuiltinTokenModel.load(dir), index);
    const gg = await LlamaCppModel.load(`gguf:${gguf}`);
    try {
      const viaGguf = new GenerativeRetriever(gg, index);
      for (const q of queries.slice(0, 10)) {
        const a = await engine.search(q.query, { k: 5 });
        const b = await viaGguf.search(q.query, { k: 5 });
        expect(
          b.map((h) => h.id),
          q.query,
        ).toEqual(a.map((h) => h.id));
        for (let i = 0; i < a.length; i++) expect(Math.abs(b[i]!.score - a[i]!.score)).toBeLessThan(1e-3);
      }
    } finally {
      await gg.dispose();
    }
  });

  it("gives the same ranking from the CLI with --model gguf:FILE and --model DIR", async () => {
    const catalogFile = join(dir, "apis.json");
    writeFileSync(
      catalogFile,
      JSON.stringify(
        entries.map((e) => ({
          category_name: e.category,
          tool_name: e.tool,
          api_name: e.api,
          api_description: e.description,
          required_parameters: [],
          optional_parameters: [],
          method: "GET",
        })),
      ),
    );
    const args = (model: string) => [
      "retrieve",
      queries[3]!.query,
      "--catalog",
      catalogFile,
      "--retriever",
      "toolgen",
      "--model",
      model,
      "-k",
      "5",
      "--json",
    ];
    const fromDir = await runCli(args(dir));
    const fromGguf = await runCli(args(`gguf:${gguf}`));
    expect(fromDir.code, fromDir.stderr).toBe(0);
    expect(fromGguf.code, fromGguf.stderr).toBe(0);
    const ids = (out: string) => (JSON.parse(out) as { results: { id: string }[] }).results.map((r) => r.id);
    expect(ids(fromGguf.stdout)).toEqual(ids(fromDir.stdout));
    expect(ids(fromGguf.stdout)).toHaveLength(5);
  });

  it("runs a ToolGen agent through llama.cpp over scripted tools: every action is a catalog token", async () => {
    const model = await LlamaCppModel.load(`gguf:${gguf}`);
    try {
      const calls: string[] = [];
      const agent = createToolGenAgent({
        model,
        catalog: entries,
        execute: (entry, args) => {
          calls.push(entry.id);
          return { ok: true, tool: entry.id, args };
        },
        maxTokens: 24,
        maxRounds: 9,
        retryTemperatures: [],
      });
      const run = await agent.chat("u", queries[0]!.query);
      if (run.stoppedBecause === "model_error") console.log(JSON.stringify(run));
      expect(["answer", "max_steps", "too_many_errors", "repeated_action", "gave_up"]).toContain(
        run.stoppedBecause,
      );
      const tokens = new Set([...entries.map((e) => `<<${e.id}>>`), "<<Finish>>"]);
      const actions = run.steps.flatMap((s) =>
        s.type === "model" && s.decoding?.turn === "action" ? [s.message.content] : [],
      );
      expect(actions.length).toBeGreaterThan(0);
      for (const a of actions) expect(tokens.has(a), a).toBe(true);
      expect(run.steps.some((s) => s.type === "guard" && s.guard === "unknown_action")).toBe(false);
      console.log(
        `toolgen agent on llama.cpp: ${run.stoppedBecause}, actions ${JSON.stringify(actions)}, executed ${JSON.stringify(calls)}`,
      );
    } finally {
      await model.dispose();
    }
  });
});
