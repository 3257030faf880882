import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, textOf } from "../helpers/spawn-router.ts";
import { spawnHttpRouter, type SpawnedHttpRouter } from "./spawn-http.ts";

/** One `toolgen serve mcp --http 0 --stateless` replica. */
const startReplica = (): Promise<SpawnedHttpRouter> =>
  spawnHttpRouter(["--tools", join(FIXTURES, "local-tools.ts"), "--stateless"]);

describe("stateless HTTP: two replicas behind a round-robin balancer serve one client", () => {
  let replicas: SpawnedHttpRouter[] = [];
  beforeAll(async () => {
    replicas = await Promise.all([startReplica(), startReplica()]);
  }, 60_000);
  afterAll(() => replicas.forEach((r) => r.child.kill("SIGTERM")));

  it("initialize on one replica, list, search and call on either, with no session", async () => {
    // The balancer: each request goes to the next replica in turn.
    const served: string[] = [];
    let turn = 0;
    const balancer: typeof fetch = (input, init) => {
      const target = replicas[turn++ % replicas.length]!.url;
      served.push(target);
      return fetch(target, init);
    };
    const client = new Client({ name: "balanced", version: "0" });
    const transport = new StreamableHTTPClientTransport(new URL(replicas[0]!.url), { fetch: balancer });
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      "search_tools",
      "call_tool",
      "get_tool",
    ]);
    const found = await client.callTool({
      name: "search_tools",
      arguments: { query: "reverse characters", k: 1 },
    });
    expect(found.structuredContent).toMatchObject({ results: [{ id: "reverse_text" }] });
    for (const text of ["ab", "cd", "ef"]) {
      const result = await client.callTool({
        name: "call_tool",
        arguments: { id: "reverse_text", arguments: { text } },
      });
      expect(textOf(result)).toBe([...text].reverse().join(""));
    }
    await client.close();
    expect(new Set(served)).toEqual(new Set(replicas.map((r) => r.url)));
  });

  it("answers a bare tools/list without initialize, and refuses GET streams", async () => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const listed = await fetch(replicas[1]!.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('"name":"search_tools"');
    const stream = await fetch(replicas[1]!.url, { method: "GET", headers });
    expect(stream.status).toBe(405);
  });
});
