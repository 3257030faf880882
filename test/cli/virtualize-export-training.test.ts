import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { register as registerExportTraining } from "../../src/cli/export-training.ts";
import { register as registerVirtualize } from "../../src/cli/virtualize.ts";
import { loadCheckpoint, saveCheckpoint } from "../../src/nn/checkpoint.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { smallTokenizer } from "../helpers/hf-folder.ts";
import { runCommands } from "../helpers/run-commands.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "scaleout-cli-"));
const commands = [registerExportTraining, registerVirtualize];

function catalogAndQueries(dir: string): { catalog: string; queries: string } {
  const catalog = join(dir, "tools.json");
  writeFileSync(catalog, JSON.stringify({ WeatherNow: "current weather", StockQuote: "stock prices" }));
  const queries = join(dir, "queries.jsonl");
  writeFileSync(
    queries,
    [
      '{"query": "rain today?", "relevant": ["WeatherNow"]}',
      '{"query": "AAPL price", "relevant": ["StockQuote"]}',
    ].join("\n"),
  );
  return { catalog, queries };
}

describe("toolgen virtualize and export training (CLI)", () => {
  it("virtualize --json writes a folder the engine reloads, with the chat template by name", async () => {
    const dir = tmp();
    const tokenizer = smallTokenizer();
    const config = presetConfig("tiny", tokenizer.vocabSize, {
      hiddenSize: 16,
      intermediateSize: 32,
      numLayers: 1,
      numHeads: 2,
    });
    saveCheckpoint(join(dir, "base"), new Llama(config, initParams(config, 3)), { tokenizer });
    const { catalog } = catalogAndQueries(dir);
    const out = join(dir, "virt");
    const r = await runCommands(commands, [
      "virtualize",
      "--base",
      join(dir, "base"),
      "--catalog",
      catalog,
      "--out",
      out,
      "--chat-template",
      "llama3",
      "--json",
    ]);
    expect(r.stderr).toBe("");
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({
      added: 3,
      baseVocab: tokenizer.vocabSize,
      vocab: tokenizer.vocabSize + 3,
    });
    expect(loadCheckpoint(out).tokenizer!.tokenToId("<<StockQuote>>")).toBe(tokenizer.vocabSize + 1);
    const tc = JSON.parse(readFileSync(join(out, "tokenizer_config.json"), "utf8"));
    expect(tc.chat_template).toMatch(/<\|start_header_id\|>/);
    const again = await runCommands(commands, [
      "virtualize",
      "--base",
      join(dir, "base"),
      "--catalog",
      catalog,
      "--out",
      out,
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/toolgen virtualize: .* already exists/);
  });

  it("export training writes the files and explains bad options", async () => {
    const dir = tmp();
    const { catalog, queries } = catalogAndQueries(dir);
    const out = join(dir, "lf");
    const r = await runCommands(commands, [
      "export",
      "training",
      "--catalog",
      catalog,
      "--queries",
      queries,
      "--format",
      "llamafactory",
      "--out",
      out,
      "--gpus",
      "4",
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).records).toEqual({ memorization: 2, retrieval: 2 });
    for (const f of [
      "memorization.json",
      "retrieval.json",
      "dataset_info.json",
      "ds_z3_config.json",
      "stage1_memorization.yaml",
      "run.sh",
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
    const bad = await runCommands(commands, [
      "export",
      "training",
      "--catalog",
      catalog,
      "--queries",
      queries,
      "--format",
      "megatron",
      "--out",
      out,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--format must be one of llamafactory, axolotl, trl/);
    const odd = await runCommands(commands, [
      "export",
      "training",
      "--catalog",
      catalog,
      "--queries",
      queries,
      "--format",
      "trl",
      "--out",
      out,
      "--gpus",
      "3",
    ]);
    expect(odd.stderr).toMatch(/not a multiple/);
  });
});
