import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { buildGateway } from "../../src/server/build.ts";
import { createGatewayServer } from "../../src/server/session.ts";
import { UPSTREAM } from "../helpers/spawn-router.ts";

describe("a live upstream that cannot be listed at start", () => {
  it("is served with no tools, listed again later, and its tools announced once it answers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-live-retry-"));
    const ready = join(dir, "ready");
    // Exits until the file `ready` exists, then runs the fixture server.
    const late = join(dir, "late.mjs");
    writeFileSync(
      late,
      `import { existsSync } from "node:fs";\nif (!existsSync(${JSON.stringify(ready)})) process.exit(2);\n` +
        `process.argv.push("--name", "late");\nawait import(${JSON.stringify(UPSTREAM)});\n`,
    );
    const warnings: string[] = [];
    const gateway = await buildGateway({
      config: { mcpServers: { late: { command: process.execPath, args: [late] } } },
      expose: "all",
      retryMs: 200,
      warn: (line) => warnings.push(line),
      upstream: { onStderr: () => undefined, onWarning: () => undefined },
    });
    const [near, far] = InMemoryTransport.createLinkedPair();
    await createGatewayServer(gateway).connect(far);
    const client = new Client({ name: "retry", version: "0" });
    await client.connect(near);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    try {
      expect((await client.listTools()).tools).toEqual([]);
      writeFileSync(ready, "");
      await expect.poll(() => changed, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("late__echo");
    } finally {
      await client.close();
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
