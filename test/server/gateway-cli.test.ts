import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, spawnRouter, textOf, UPSTREAM } from "../helpers/spawn-router.ts";

// The gateway as a user starts it: `toolgen serve mcp --config gateway.json --expose auto` over stdio, with two
// upstream servers in the config (the everything-style fixture and the small one), names prefixed "name.tool".
describe("toolgen serve mcp with two upstreams in the config (stdio, --expose auto, --separator .)", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-gateway-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("lists both upstreams' tools under their prefixes within the budget, and searches above it", async () => {
    const config = join(dir, "gateway.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: "node", args: [join(ROOT, "test/server/fixtures/everything-upstream.mjs")] },
          small: { command: "node", args: [UPSTREAM, "--name", "small"] },
        },
      }),
    );
    const all = await spawnRouter(["--config", config, "--expose", "auto", "--separator", "."]);
    try {
      const names = (await all.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("everything.test_simple_text");
      expect(names).toContain("small.echo");
      const echoed = await all.client.callTool({ name: "small.echo", arguments: { text: "through" } });
      expect(textOf(echoed)).toBe("through");
      const prompts = (await all.client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toContain("everything.test_simple_prompt");
      expect(all.stderr()).toMatch(/listed: all \d+/);
    } finally {
      await all.close();
    }
    const searched = await spawnRouter(["--config", config, "--expose", "auto", "--tool-budget", "100"]);
    try {
      const names = (await searched.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(["search_tools", "call_tool", "get_tool"]);
      const found = await searched.client.callTool({
        name: "search_tools",
        arguments: { query: "small__echo", k: 2 },
      });
      // An exact exposed name is found first.
      expect((found.structuredContent as { results: { id: string }[] }).results[0]!.id).toBe("small&&echo");
      const byName = await searched.client.callTool({
        name: "call_tool",
        arguments: { id: "small__echo", arguments: { text: "by its exposed name" } },
      });
      expect(textOf(byName)).toBe("by its exposed name");
    } finally {
      await searched.close();
    }
  }, 60_000);
});

// The README's gateway command as written: the example's config, whose commands run in the config's folder.
describe("the README's gateway command (examples/gateway-two-upstreams/gateway.json)", () => {
  it("lists the two example servers' tools as weather.* and notes.* and calls one", async () => {
    const config = join(ROOT, "examples/gateway-two-upstreams/gateway.json");
    const gateway = await spawnRouter(["--config", config, "--expose", "auto", "--separator", "."]);
    try {
      const names = (await gateway.client.listTools()).tools.map((t) => t.name);
      expect(names.sort()).toEqual([
        "notes.add_note",
        "notes.list_notes",
        "weather.get_air_quality",
        "weather.get_forecast",
      ]);
      const forecast = await gateway.client.callTool({
        name: "weather.get_forecast",
        arguments: { city: "Lisbon" },
      });
      expect(textOf(forecast)).toMatch(/"city":"Lisbon"/);
    } finally {
      await gateway.close();
    }
  }, 60_000);
});
