import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { buildToolRouter } from "../../src/server/build.ts";
import { serveHttp } from "../../src/server/http.ts";
import { FIXTURES } from "../helpers/spawn-router.ts";
import { initializeRequest } from "./spawn-http.ts";

const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const post = (url: string, body: unknown, session?: string) =>
  fetch(url, {
    method: "POST",
    headers: session ? { ...headers, "mcp-session-id": session } : headers,
    body: JSON.stringify(body),
  });

describe("Streamable HTTP sessions", () => {
  it("closes a session left idle past the limit; a client holding its stream open keeps its own", async () => {
    const router = await buildToolRouter({ modules: [join(FIXTURES, "local-tools.ts")] });
    const running = await serveHttp(router, { port: 0, sessionIdleMs: 200 });
    const client = new Client({ name: "stays", version: "0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      const init = await post(running.url, initializeRequest(0, "leaves"));
      await init.text();
      const session = init.headers.get("mcp-session-id")!;
      expect((await post(running.url, { jsonrpc: "2.0", id: 1, method: "ping" }, session)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 700));
      const late = await post(running.url, { jsonrpc: "2.0", id: 2, method: "ping" }, session);
      expect(late.status).toBe(404);
      expect(await late.text()).toMatch(/unknown or expired session/);
      expect((await client.listTools()).tools).toHaveLength(3); // its GET stream kept it open
    } finally {
      await client.close();
      await running.close();
      await router.close();
    }
  });
});
