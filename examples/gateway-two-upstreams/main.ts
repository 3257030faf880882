// `toolgen serve mcp` in front of two upstream MCP servers: import each server's tools into a catalog, serve
// both catalogs behind one gateway, and use it from an MCP client (list, search, call on either upstream).
//   npx tsx --conditions toolgen-source examples/gateway-two-upstreams/main.ts
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const toolgen = [here("../../bin/toolgen.mjs")]; // `npx toolgen` in a project that installed toolgen
const work = mkdtempSync(join(tmpdir(), "toolgen-gateway-"));

// 1. Each upstream's tools become a catalog; its entries remember how to start the server again.
const catalogs: string[] = [];
for (const server of ["weather", "notes"]) {
  const out = join(work, `${server}.catalog.json`);
  const args = ["catalog", "import", "mcp", "--server", `node '${here(`${server}-server.mjs`)}'`];
  const imported = JSON.parse(
    execFileSync(process.execPath, [...toolgen, ...args, "--out", out, "--json"], { encoding: "utf8" }),
  ) as { server: string; tools: string[] };
  console.log(`imported ${imported.server}: ${imported.tools.join(", ")}`);
  catalogs.push("--catalog", out);
}

// 2. The gateway, spoken to over stdio as any MCP client (Claude Desktop, Cursor, …) would.
const client = new Client({ name: "gateway-example", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [...toolgen, "serve", "mcp", ...catalogs],
    stderr: "ignore",
  }),
);
const text = (result: unknown): string =>
  ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? "").trim();
try {
  const { tools } = await client.listTools();
  console.log(`\nthe gateway lists ${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`);

  const query = "will it rain in Lisbon this week";
  const found = await client.callTool({ name: "search_tools", arguments: { query, k: 2 } });
  const results = (found.structuredContent as { results: Array<{ id: string }> }).results;
  console.log(`search_tools("${query}") → ${results.map((r) => r.id).join(", ")}`);

  for (const [id, args] of [
    [results[0]!.id, { city: "Lisbon", days: 2 }],
    ["notes&&add_note", { text: "take an umbrella on day 2" }],
    ["notes&&list_notes", {}],
  ] as const) {
    const result = await client.callTool({ name: "call_tool", arguments: { id, arguments: args } });
    console.log(`call_tool(${id}) → ${text(result)}`);
  }
} finally {
  await client.close(); // the gateway exits, and stops the upstream servers it started
  rmSync(work, { recursive: true, force: true });
}
