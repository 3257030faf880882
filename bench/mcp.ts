/**
 * The MCP tool router on the shared 2,479-API StableToolBench catalog, measured through a real MCP client talking
 * to `toolgen serve mcp` in a child process over stdio:
 *  - tokens a client holds for tool definitions: the router's tools/list (3 tools) versus listing every catalog
 *    entry as an MCP tool ({name, description, inputSchema}); plus the tokens one search_tools answer (k=5) adds;
 *  - search_tools latency p50/p95 over the StableToolBench test queries (round trip through the client), next to
 *    the in-process BM25 search time, and hit@5 through the router.
 * Token rule: ceil(UTF-8 characters of the compact JSON / 4), per definition (the usual rule of thumb for English
 * and JSON with OpenAI-style BPE vocabularies). Run: npm run bench:mcp.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import { mean, quantile } from "../src/eval/metrics.ts";
import { createRetriever } from "../src/retrieval/create.ts";
import { SHARED_DATA } from "../test/helpers/shared-data.ts";
import { BIN, ROOT } from "../test/helpers/spawn-router.ts";
import { writeBenchResult } from "./lib/result.ts";

const DIR = join(SHARED_DATA, "stabletoolbench");
const QUERY_FILES = ["G1_instruction", "G1_category", "G1_tool", "G2_instruction", "G2_category"];
const K = 5;

const tokens = (value: unknown): number => Math.ceil([...JSON.stringify(value)].length / 4);
const ms = (x: number): number => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const apis = join(DIR, "apis.json");
  if (!existsSync(apis)) {
    process.stderr.write(`SKIP: ${apis} is absent (see ../shared/data/README.md); no figures written\n`);
    process.exitCode = 1;
    return;
  }
  const catalog = loadCatalog(apis);
  const queries = QUERY_FILES.flatMap((f) => loadQueries(join(DIR, `${f}.json`), catalog));

  // What a client would hold if the server listed the whole catalog.
  const everyTool = catalog.map((e) => ({
    name: e.id,
    description: e.description,
    inputSchema: e.parameters,
  }));
  const catalogTokens = everyTool.reduce((sum, t) => sum + tokens(t), 0);

  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", "mcp", "--catalog", apis],
    cwd: ROOT,
    env: getDefaultEnvironment(),
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-mcp", version: "0" });
  await client.connect(transport);
  const startupMs = performance.now() - started;
  const { tools } = await client.listTools();
  const routerTokens = tools.reduce((sum, t) => sum + tokens(t), 0);

  const latencies: number[] = [];
  const answerTokens: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t0 = performance.now();
    const result = (await client.callTool({
      name: "search_tools",
      arguments: { query: q.query, k: K },
    })) as CallToolResult;
    latencies.push(performance.now() - t0);
    if (result.isError) throw new Error(`search_tools failed: ${JSON.stringify(result.content)}`);
    const ids = (result.structuredContent as { results: { id: string }[] }).results.map((r) => r.id);
    if (q.relevant.some((id) => ids.includes(id))) hits++;
    const first = result.content[0];
    answerTokens.push(Math.ceil([...(first?.type === "text" ? first.text : "")].length / 4));
  }
  await client.close();

  const retriever = await createRetriever("bm25", { catalog });
  const inProcess: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    await retriever.search(q.query, { k: K });
    inProcess.push(performance.now() - t0);
  }

  writeBenchResult("mcp", "npm run bench:mcp", {
    token_rule: "ceil(chars of compact JSON / 4) per tool definition",
    catalog: { file: "stabletoolbench/apis.json", tools: catalog.length },
    queries: { files: QUERY_FILES, count: queries.length },
    definitions_tokens: {
      router_three_tools: routerTokens,
      whole_catalog: catalogTokens,
      ratio: Math.round((catalogTokens / routerTokens) * 10) / 10,
    },
    search_answer_tokens_k5: { mean: Math.round(mean(answerTokens)), p95: quantile(answerTokens, 0.95) },
    search_tools_round_trip_ms: { p50: ms(quantile(latencies, 0.5)), p95: ms(quantile(latencies, 0.95)) },
    bm25_in_process_ms: { p50: ms(quantile(inProcess, 0.5)), p95: ms(quantile(inProcess, 0.95)) },
    router_hit_at_5: Math.round((hits / queries.length) * 1000) / 10,
    router_startup_ms: Math.round(startupMs),
  });
}

await main();
