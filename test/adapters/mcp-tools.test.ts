// mcpTools against real MCP server processes: `toolgen serve mcp` over stdio and over Streamable HTTP, and the
// plain-node fixture server (structured results, isError results), its tools used directly by an agent.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpTools, type McpToolSet } from "../../src/adapters/mcp-tools.ts";
import { createAgent } from "../../src/agents/functions.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";
import { executeToolCall } from "../../src/tools/execute.ts";
import { BIN, ROOT, UPSTREAM } from "../helpers/spawn-router.ts";

const WEATHER = join(ROOT, "examples/weather.ts");
const call = (name: string, args: Record<string, unknown>) =>
  ({ id: "c1", type: "function", function: { name, arguments: args } }) as const;

describe("mcpTools over stdio: `toolgen serve mcp` as a child process", () => {
  let set: McpToolSet;
  beforeAll(async () => {
    set = await mcpTools(
      { command: process.execPath, args: [BIN, "serve", "mcp", "--tools", WEATHER], cwd: ROOT },
      // tsx compiles the CLI on start: slow on a loaded machine.
      { name: "router", onStderr: () => {}, startTimeoutMs: 120_000 },
    );
  });
  afterAll(() => set?.close());

  it("lists the server's tools as agent tools, schemas included", () => {
    expect(set.tools.map((t) => t.name).sort()).toEqual(["call_tool", "get_tool", "search_tools"]);
    const search = set.tools.find((t) => t.name === "search_tools")!;
    expect(search.parameters.required).toEqual(["query"]);
    expect(set.serverInfo?.name).toBeTruthy();
  });

  it("runs in an agent: the model calls call_tool and reads the result; a failing call is a tool error", async () => {
    const model = new ScriptedModel([
      {
        tool_calls: [
          {
            name: "call_tool",
            arguments: {
              id: "get_current_temperature",
              arguments: { location: "Paris, France", unit: "celsius" },
            },
          },
          { name: "call_tool", arguments: { id: "no_such_tool", arguments: {} } },
        ],
      },
      "It is 22 degrees in Paris.",
    ]);
    const run = await createAgent({ model, tools: set.tools }).chat("m", "How warm is Paris?");
    expect(run.answer).toBe("It is 22 degrees in Paris.");
    const [ok, failed] = run.toolCalls.map((c) => c.result);
    expect(ok).toMatchObject({ ok: true });
    expect(ok?.ok && ok.content).toContain("22");
    expect(failed).toMatchObject({ ok: false, error: { code: "tool_error" } });
    expect(!failed?.ok && failed?.error.message).toContain("no_such_tool");
  });
});

describe("mcpTools over Streamable HTTP: `toolgen serve mcp --http 0`", () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, "serve", "mcp", "--tools", WEATHER, "--http", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    url = await new Promise<string>((done, fail) => {
      let log = "";
      child.stderr!.on("data", (d: Buffer) => {
        log += d.toString();
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log);
        if (found) done(found[1]!);
      });
      child.on("exit", (code) => fail(new Error(`serve mcp --http exited ${code}: ${log}`)));
    });
  });
  afterAll(() => child?.kill());

  it("lists and calls the tools", async () => {
    const set = await mcpTools({ url });
    try {
      expect(set.tools.map((t) => t.name).sort()).toEqual(["call_tool", "get_tool", "search_tools"]);
      const result = await executeToolCall(call("search_tools", { query: "wind speed", k: 1 }), set.tools);
      expect(result.ok).toBe(true);
      expect(result.ok && JSON.parse(result.content)).toMatchObject({
        results: [{ id: "get_current_wind_speed" }],
      });
    } finally {
      await set.close();
    }
  });
});

describe("mcpTools on a plain MCP server (test/fixtures/mcp/upstream-server.mjs)", () => {
  it("prefixes names, returns structured content, and turns isError results into tool errors", async () => {
    const set = await mcpTools({ command: process.execPath, args: [UPSTREAM] }, { prefix: "fx_" });
    try {
      expect(set.tools.map((t) => t.name)).toContain("fx_add");
      expect(set.tools.find((t) => t.name === "fx_add")!.description).toMatch(/Add two integers/);
      expect(await executeToolCall(call("fx_add", { a: 2, b: 3 }), set.tools)).toEqual({
        ok: true,
        content: JSON.stringify({ sum: 5 }),
      });
      expect(await executeToolCall(call("fx_echo", { text: "hi" }), set.tools)).toEqual({
        ok: true,
        content: "hi",
      });
      expect(await executeToolCall(call("fx_fail", {}), set.tools)).toEqual({
        ok: false,
        error: { code: "tool_error", message: "tool fx_fail failed: fixture: this tool always fails" },
      });
    } finally {
      await set.close();
    }
  });

  it("fails clearly when the server cannot start", async () => {
    await expect(
      mcpTools(
        { command: process.execPath, args: [join(ROOT, "no/such/server.mjs")] },
        { onStderr: () => {} },
      ),
    ).rejects.toThrow(/server/);
  });
});
