import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/load.ts";
import { buildToolRouter } from "../../src/server/build.ts";
import { importMcpServer, writeMcpCatalog } from "../../src/server/import-mcp.ts";
import { BIN, FIXTURES, ROOT, textOf } from "../helpers/spawn-router.ts";

describe("toolgen serve mcp --http (Streamable HTTP on 127.0.0.1, real child process)", () => {
  let child: ChildProcess;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolgen-mcp-http-"));
    child = spawn(
      process.execPath,
      [BIN, "serve", "mcp", "--tools", join(FIXTURES, "local-tools.ts"), "--http", "0"],
      { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] },
    );
    let log = "";
    url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on("data", (chunk: Buffer) => {
        log += chunk.toString("utf8");
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log);
        if (found) resolve(found[1]!);
      });
      child.once("exit", (code) => reject(new Error(`router exited with ${code}: ${log}`)));
    });
  }, 60_000);

  afterAll(() => {
    child?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves search_tools and call_tool to an SDK client over Streamable HTTP", async () => {
    const client = new Client({ name: "http-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_tools", "call_tool", "get_tool"]);
    const found = await client.callTool({
      name: "search_tools",
      arguments: { query: "reverse characters", k: 1 },
    });
    expect(found.structuredContent).toMatchObject({ results: [{ id: "reverse_text" }] });
    const result = await client.callTool({
      name: "call_tool",
      arguments: { id: "reverse_text", arguments: { text: "mcp" } },
    });
    expect(textOf(result)).toBe("pcm");
    await client.close();
  });

  it("keeps sessions apart and refuses requests without one", async () => {
    const a = new Client({ name: "a", version: "0" });
    const b = new Client({ name: "b", version: "0" });
    const ta = new StreamableHTTPClientTransport(new URL(url));
    const tb = new StreamableHTTPClientTransport(new URL(url));
    await a.connect(ta);
    await b.connect(tb);
    expect(ta.sessionId).toBeTruthy();
    expect(ta.sessionId).not.toBe(tb.sessionId);
    await Promise.all([a.close(), b.close()]);
    const bare = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(bare.status).toBe(400);
    expect(await bare.text()).toMatch(/first request must be initialize/);
    // fetch() may not send a custom Host header; node:http does, as a rebinding page's browser would.
    const rebinding = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: "evil.example",
        },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
    });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error.message).toMatch(/Host header "evil.example" is not allowed/);
  });

  it("catalog import over --url lists a Streamable HTTP server's tools into a loadable catalog", async () => {
    const document = await importMcpServer({ name: "router", url });
    const file = join(dir, "router.catalog.json");
    writeMcpCatalog(file, document);
    const entries = loadCatalog(file);
    expect(entries.map((e) => e.id)).toEqual([
      "router&&search_tools",
      "router&&call_tool",
      "router&&get_tool",
    ]);
    expect(entries[0]!.parameters.required).toEqual(["query"]);
    // A second router proxies calls to this one over Streamable HTTP.
    const proxy = await buildToolRouter({ catalogs: [file] });
    const result = await proxy.call("router&&call_tool", { id: "reverse_text", arguments: { text: "http" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("ptth");
    await proxy.close();
  });
});
