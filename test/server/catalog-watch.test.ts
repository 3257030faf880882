import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { buildGateway } from "../../src/server/build.ts";
import { createGatewayServer } from "../../src/server/session.ts";

const tool = (name: string, description: string) => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties: {} } },
});

describe("catalog files watched by the gateway", () => {
  it("re-reads a replaced catalog, tells clients, and keeps the old one when the new cannot be read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-watch-"));
    const file = join(dir, "tools.json");
    // Written the way `catalog import` writes: a temporary file renamed over the catalog.
    const replace = (text: string) => {
      writeFileSync(join(dir, "tools.json.tmp"), text);
      renameSync(join(dir, "tools.json.tmp"), file);
    };
    replace(JSON.stringify([tool("get_weather", "Weather for a city"), tool("get_time", "Time in a zone")]));
    const warnings: string[] = [];
    const gateway = await buildGateway({ catalogs: [file], watch: true, warn: (l) => warnings.push(l) });
    const [near, far] = InMemoryTransport.createLinkedPair();
    await createGatewayServer(gateway).connect(far);
    const client = new Client({ name: "watch", version: "0" });
    await client.connect(near);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    try {
      expect(gateway.router.size).toBe(2);
      replace(
        JSON.stringify([
          tool("get_weather", "Weather"),
          tool("get_time", "Time"),
          tool("convert_currency", "Convert money between currencies"),
        ]),
      );
      await expect.poll(() => changed, { timeout: 5_000 }).toBe(1);
      const found = await client.callTool({
        name: "search_tools",
        arguments: { query: "convert money", k: 1 },
      });
      expect(found.structuredContent).toMatchObject({ results: [{ id: "convert_currency" }] });
      replace("[{ broken");
      await expect.poll(() => warnings.length, { timeout: 5_000 }).toBe(1);
      expect(warnings[0]).toMatch(/catalog not reloaded, the one served is kept/);
      expect(gateway.router.size).toBe(3);
    } finally {
      await client.close();
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
