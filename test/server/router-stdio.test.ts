import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { sharedData } from "../helpers/shared-data.ts";
import { BIN, FIXTURES, spawnRouter, textOf, UPSTREAM, type SpawnedRouter } from "../helpers/spawn-router.ts";

const apis = sharedData("stabletoolbench/apis.json");
const g1 = sharedData("stabletoolbench/G1_instruction.json");
const run = promisify(execFile);

interface SearchOutput {
  results: { id: string; description: string; inputSchema: Record<string, unknown> }[];
}

describe("toolgen serve mcp over stdio (real child processes)", () => {
  let dir: string;
  let mark: string;
  let router: SpawnedRouter;
  const starts = (): number =>
    readFileSync(mark, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("started")).length;
  const call = (name: string, args: Record<string, unknown>) =>
    router.client.callTool({ name, arguments: args });
  const search = async (query: string, k = 5): Promise<SearchOutput> => {
    const result = await call("search_tools", { query, k });
    expect(result.isError, textOf(result)).toBeFalsy();
    // The structured content and the JSON text carry the same results.
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    return result.structuredContent as unknown as SearchOutput;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolgen-mcp-"));
    mark = join(dir, "starts.log");
    writeFileSync(mark, "");
    // 1. Import the upstream fixture's tools with the CLI, as a user would.
    const imported = join(dir, "fixture.catalog.json");
    const { stdout } = await run(process.execPath, [
      BIN,
      "catalog",
      "import",
      "mcp",
      "--server",
      `node ${UPSTREAM} --mark '${mark}'`,
      "--out",
      imported,
      "--json",
    ]);
    expect(JSON.parse(stdout).tools).toEqual(["echo", "add", "pid", "sleep", "crash", "fail"]);
    expect(starts()).toBe(1); // the import ran the server once
    expect(loadCatalog(imported).map((e) => e.id)).toContain("fixture&&echo");
    // 2. A catalog-only entry (no executor anywhere).
    const described = join(dir, "described.json");
    writeFileSync(
      described,
      JSON.stringify([
        {
          type: "function",
          function: {
            name: "book_flight",
            description: "Book a flight between two airports",
            parameters: { type: "object", properties: { from: { type: "string" } }, required: ["from"] },
          },
        },
      ]),
    );
    const catalogs = [...(apis ? [apis] : []), imported, described].flatMap((f) => ["--catalog", f]);
    router = await spawnRouter([
      ...catalogs,
      "--tools",
      join(FIXTURES, "local-tools.ts"),
      "--timeout",
      "3000",
    ]);
  }, 120_000);

  afterAll(async () => {
    await router?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists exactly its three tools and starts no upstream before a call", async () => {
    const { tools } = await router.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_tools", "call_tool", "get_tool"]);
    expect(router.client.getInstructions()).toMatch(/search_tools/);
    expect(starts()).toBe(1);
  });

  it.skipIf(!apis || !g1)(
    "search_tools finds the relevant StableToolBench API over the 2,479-API catalog",
    async () => {
      const catalog = new Map(loadCatalog(apis!).map((e) => [e.id, e]));
      expect(catalog.size).toBe(2479);
      const queries = loadQueries(g1!).slice(0, 20);
      let hits = 0;
      for (const q of queries) {
        const { results } = await search(q.query, 5);
        expect(results).toHaveLength(5);
        for (const r of results.filter((r) => catalog.has(r.id))) {
          expect(r.inputSchema).toEqual(catalog.get(r.id)!.parameters);
          expect(r.description).toBe(catalog.get(r.id)!.description);
        }
        if (q.relevant.some((id) => results.some((r) => r.id === id))) hits++;
      }
      // bench:mcp measures hit@5 over all 704 test queries (bench/results/mcp.json); demand most of these 20.
      expect(hits / queries.length).toBeGreaterThanOrEqual(0.7);
    },
    60_000,
  );

  it("search_tools also finds the local module's tools and the upstream server's tools", async () => {
    const local = await search("convert a temperature from celsius to fahrenheit", 3);
    expect(local.results.map((r) => r.id)).toContain("convert_temperature");
    const upstream = await search("echo a text back unchanged", 5);
    expect(upstream.results.map((r) => r.id)).toContain("fixture&&echo");
  });

  it("call_tool runs a local TS tool and returns its value", async () => {
    const result = await call("call_tool", {
      id: "convert_temperature",
      arguments: { celsius: 100, to: "fahrenheit" },
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({ value: 212, unit: "fahrenheit" });
    const reversed = await call("call_tool", { id: "reverse_text", arguments: { text: "abc" } });
    expect(textOf(reversed)).toBe("cba");
    // Nested arguments sent as a JSON string (some clients do) are accepted when they hold an object.
    const stringified = await call("call_tool", { id: "reverse_text", arguments: '{"text":"xyz"}' });
    expect(textOf(stringified)).toBe("zyx");
  });

  it("bad arguments give an MCP error result naming each violation", async () => {
    const result = await call("call_tool", {
      id: "convert_temperature",
      arguments: { celsius: "hot", to: "rankine" },
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/invalid arguments for convert_temperature/);
    expect(text).toMatch(/\/celsius/);
    expect(text).toMatch(/\/to/);
    const missing = await call("call_tool", { id: "fixture&&add", arguments: { a: 1 } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/"b"|\bb\b/);
    // The router's own tools check their arguments too.
    const own = await call("search_tools", { query: "", k: 0 });
    expect(own.isError).toBe(true);
    expect(textOf(own)).toMatch(/\/query/);
    expect(textOf(own)).toMatch(/\/k/);
  });

  it("unknown ids and catalog-only entries answer clearly", async () => {
    const unknown = await call("call_tool", { id: "convert_temprature", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/unknown tool id .*did you mean "convert_temperature"/);
    const described = await call("call_tool", { id: "book_flight", arguments: { from: "LIS" } });
    expect(described.isError).toBe(true);
    expect(textOf(described)).toMatch(/no executor configured for this tool/);
    const doc = await call("get_tool", { id: "book_flight" });
    expect(doc.structuredContent).toMatchObject({ id: "book_flight", executor: "none" });
  });

  it("proxies calls to the imported upstream server, starting it on the first call", async () => {
    expect(starts()).toBe(1);
    const echo = await call("call_tool", { id: "fixture&&echo", arguments: { text: "olá" } });
    expect(echo.isError).toBeFalsy();
    expect(textOf(echo)).toBe("olá");
    expect(starts()).toBe(2);
    // A value of the wrong type is refused with the violation named, never converted on its way through.
    const refused = await call("call_tool", { id: "fixture&&add", arguments: { a: 2, b: "3" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/invalid arguments for fixture&&add:\n- .*b.*integer/);
    const add = await call("call_tool", { id: "fixture&&add", arguments: { a: 2, b: 3 } });
    expect(add.structuredContent).toEqual({ sum: 5 });
    const failed = await call("call_tool", { id: "fixture&&fail", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe("fixture: this tool always fails");
    const doc = await call("get_tool", { id: "fixture&&echo" });
    expect(doc.structuredContent).toMatchObject({ executor: "mcp", tool: "fixture", api: "echo" });
    expect(starts()).toBe(2);
  });

  it("an upstream crashing mid-call gives a clear error; the router keeps serving and restarts it", async () => {
    const before = textOf(await call("call_tool", { id: "fixture&&pid", arguments: {} }));
    const crashed = await call("call_tool", { id: "fixture&&crash", arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/upstream MCP server "fixture" exited during the call to "crash"/);
    expect(textOf(crashed)).toMatch(/crashing on purpose/);
    const still = await search("convert a temperature from celsius to fahrenheit", 1);
    expect(still.results[0]?.id).toBe("convert_temperature");
    const after = await call("call_tool", { id: "fixture&&pid", arguments: {} });
    expect(after.isError).toBeFalsy();
    expect(textOf(after)).not.toBe(before);
    expect(starts()).toBe(3);
  }, 30_000);

  it("a hung upstream call times out and later calls still work", async () => {
    const slow = await call("call_tool", { id: "fixture&&sleep", arguments: { ms: 20_000 } });
    expect(slow.isError).toBe(true);
    expect(textOf(slow)).toMatch(/did not finish within 3000 ms/);
    const echo = await call("call_tool", { id: "fixture&&echo", arguments: { text: "still here" } });
    expect(textOf(echo)).toBe("still here");
    expect(router.stderr()).toMatch(/toolgen MCP router: \d+ tools/);
  }, 30_000);
});
