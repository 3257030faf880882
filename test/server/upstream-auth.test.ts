import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRouterConfig } from "../../src/server/config.ts";
import { publicSpec, UpstreamServer } from "../../src/server/upstream.ts";

describe("per-upstream headers and bearer tokens", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-upstream-auth-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads them from the config with ${VAR} secrets, and refuses a token that is not a string", () => {
    const file = join(dir, "gateway.json");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          remote: {
            url: "http://127.0.0.1:1/mcp",
            headers: { "x-api-key": "${KEY}" },
            bearerToken: "${TOKEN}",
          },
        },
      }),
    );
    const config = loadRouterConfig(file, { KEY: "k-123", TOKEN: "s3cret-token" });
    expect(config.mcpServers?.remote).toMatchObject({
      headers: { "x-api-key": "k-123" },
      bearerToken: "s3cret-token",
    });
    writeFileSync(file, JSON.stringify({ mcpServers: { remote: { url: "http://x/mcp", bearerToken: 42 } } }));
    expect(() => loadRouterConfig(file, {})).toThrow(/mcpServers.remote.bearerToken" must be a string/);
  });

  it("sends them to a Streamable HTTP upstream and never shows them in errors or catalog entries", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const spec = { name: "remote", url, headers: { "x-api-key": "k-123" }, bearerToken: "s3cret-token" };
    const upstream = new UpstreamServer(spec, { startTimeoutMs: 5_000 });
    try {
      const failure = await upstream.listTools().then(
        () => new Error("expected a failure"),
        (error: Error) => error,
      );
      expect(failure.message).toMatch(/cannot start upstream MCP server "remote"/);
      expect(failure.message).not.toMatch(/s3cret-token|k-123/);
      expect(seen[0]).toMatchObject({ authorization: "Bearer s3cret-token", "x-api-key": "k-123" });
      expect(publicSpec(spec)).toEqual({ name: "remote", url });
    } finally {
      await upstream.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
