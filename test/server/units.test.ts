import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogError } from "../../src/catalog/catalog.ts";
import { importMcpCatalog, MCP_CATALOG_FORMAT } from "../../src/catalog/import/mcp.ts";
import { loadCatalog } from "../../src/catalog/load.ts";
import { buildToolRouter } from "../../src/server/build.ts";
import { splitCommandLine } from "../../src/server/command-line.ts";
import { loadRouterConfig } from "../../src/server/config.ts";
import { textOf, UPSTREAM } from "../helpers/spawn-router.ts";

let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "toolgen-router-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("splitCommandLine", () => {
  it("splits words and honours quotes and escapes", () => {
    expect(splitCommandLine(`node  server.mjs --name "my server" --x 'a b' c\\ d ""`)).toEqual([
      "node",
      "server.mjs",
      "--name",
      "my server",
      "--x",
      "a b",
      "c d",
      "",
    ]);
    expect(splitCommandLine(`say "she said \\"hi\\""`)).toEqual(["say", 'she said "hi"']);
    expect(() => splitCommandLine(`node "open`)).toThrow(/unclosed " quote/);
  });
});

describe("loadRouterConfig", () => {
  it("expands ${VAR}, resolves paths against the file and names bad fields", () => {
    const file = join(dir, "router.json");
    writeFileSync(
      file,
      JSON.stringify({
        modules: ["./tools.ts"],
        openapi: { Pets: { baseUrl: "${PETS_URL}", bearerToken: "${PETS_TOKEN}" } },
        mcpServers: { files: { command: "node", args: ["fs.mjs"] } },
        timeoutMs: 500,
      }),
    );
    const config = loadRouterConfig(file, { PETS_URL: "http://127.0.0.1:1", PETS_TOKEN: "s3cret" });
    expect(config.modules).toEqual([join(dir, "tools.ts")]);
    expect(config.openapi?.Pets).toEqual({ baseUrl: "http://127.0.0.1:1", bearerToken: "s3cret" });
    expect(config.mcpServers?.files).toEqual({ command: "node", args: ["fs.mjs"], cwd: dir });
    expect(() => loadRouterConfig(file, { PETS_URL: "x" })).toThrow(
      /environment variable PETS_TOKEN is not set/,
    );
    writeFileSync(file, JSON.stringify({ modules: "tools.ts", extra: 1 }));
    expect(() => loadRouterConfig(file)).toThrow(/unknown keys extra/);
    writeFileSync(file, JSON.stringify({ modules: "tools.ts" }));
    expect(() => loadRouterConfig(file)).toThrow(/field "modules" must be a list of file paths/);
  });
});

describe("MCP catalog format", () => {
  it("is recognised by loadCatalog and rejects records it cannot serve", () => {
    const file = join(dir, "mcp.json");
    const tools = [{ name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } }];
    writeFileSync(
      file,
      JSON.stringify({ format: MCP_CATALOG_FORMAT, server: { name: "s", command: "node" }, tools }),
    );
    expect(loadCatalog(file)).toMatchObject([{ id: "s&&echo", tool: "s", api: "echo", description: "Echo" }]);
    const bad = (data: unknown): unknown => importMcpCatalog(data, "x.json");
    expect(() => bad({ format: MCP_CATALOG_FORMAT, server: { name: "s" }, tools })).toThrow(CatalogError);
    expect(() =>
      bad({ format: MCP_CATALOG_FORMAT, server: { name: "s", url: "http://h" }, tools: [{}] }),
    ).toThrow(/record 0, field "name"/);
    expect(() =>
      bad({ format: MCP_CATALOG_FORMAT, server: { name: "a&&b", command: "node" }, tools }),
    ).toThrow(/server.name/);
  });

  it("concurrent first calls share one lazily started upstream process", async () => {
    const file = join(dir, "fixture.json");
    const mark = join(dir, "starts.log");
    writeFileSync(mark, "");
    const tools = [
      { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
    ];
    const server = { name: "fx", command: process.execPath, args: [UPSTREAM, "--mark", mark] };
    writeFileSync(file, JSON.stringify({ format: MCP_CATALOG_FORMAT, server, tools }));
    const router = await buildToolRouter({ catalogs: [file], upstream: { onStderr: () => undefined } });
    expect(readFileSync(mark, "utf8")).toBe("");
    const texts = ["a", "b", "c", "d", "e"];
    const results = await Promise.all(texts.map((text) => router.call("fx&&echo", { text })));
    expect(results.map(textOf)).toEqual(texts);
    expect(readFileSync(mark, "utf8").trim().split("\n")).toHaveLength(1);
    await router.close();
  }, 30_000);

  it("an upstream that cannot start gives a clear error result", async () => {
    const file = join(dir, "broken.json");
    const tools = [{ name: "echo", inputSchema: { type: "object", properties: {} } }];
    const server = { name: "broken", command: join(dir, "no-such-program") };
    writeFileSync(file, JSON.stringify({ format: MCP_CATALOG_FORMAT, server, tools }));
    const router = await buildToolRouter({ catalogs: [file] });
    const result = await router.call("broken&&echo", {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cannot start upstream MCP server "broken"/);
    await router.close();
  }, 30_000);
});

describe("OpenAPI executor (real HTTP server on 127.0.0.1)", () => {
  let http: Server;
  let baseUrl: string;
  const seen: { method?: string; url?: string; auth?: string; key?: string; body: string }[] = [];
  const document = {
    openapi: "3.0.0",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets/{petId}": {
        get: {
          operationId: "getPet",
          summary: "Get a pet by id",
          parameters: [
            { name: "petId", in: "path", required: true, schema: { type: "integer" } },
            { name: "fields", in: "query", schema: { type: "string" } },
            { name: "X-Trace", in: "header", schema: { type: "string" } },
          ],
        },
      },
      "/pets": {
        post: {
          operationId: "addPet",
          summary: "Add a pet",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
              },
            },
          },
        },
      },
    },
  };

  beforeAll(async () => {
    http = createServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({
          method: req.method,
          url: req.url,
          auth: req.headers.authorization,
          key: req.headers["x-trace"] as string | undefined,
          body,
        });
        if (req.url?.startsWith("/v1/pets/404")) {
          res.writeHead(404, { "content-type": "text/plain" }).end("no such pet");
          return;
        }
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ ok: true, url: req.url }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
    writeFileSync(join(dir, "pets.json"), JSON.stringify(document));
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it("places path, query, header and body arguments, sends the token and reports HTTP errors", async () => {
    const router = await buildToolRouter({
      catalogs: [join(dir, "pets.json")],
      config: { openapi: { Pets: { baseUrl, bearerToken: "t0k" } } },
    });
    const got = await router.call("Pets&&getPet", { petId: 7, fields: "name,age", "X-Trace": "abc" });
    expect(got.isError).toBeFalsy();
    expect(JSON.parse(textOf(got))).toEqual({ ok: true, url: "/v1/pets/7?fields=name%2Cage" });
    expect(seen.at(-1)).toMatchObject({ method: "GET", auth: "Bearer t0k", key: "abc", body: "" });
    const added = await router.call("Pets&&addPet", { name: "Rex" });
    expect(added.isError).toBeFalsy();
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/v1/pets", body: '{"name":"Rex"}' });
    const missing = await router.call("Pets&&getPet", { petId: 404 });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/HTTP 404 Not Found: no such pet/);
    const invalid = await router.call("Pets&&addPet", {});
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/invalid arguments for Pets&&addPet/);
    expect(router.describe("Pets&&getPet")).toMatchObject({ executor: "openapi" });
  });

  it("uses TOOLGEN_OPENAPI_BASE_URL when the config names no target, and is catalog-only without either", async () => {
    const fromEnv = await buildToolRouter({
      catalogs: [join(dir, "pets.json")],
      env: { TOOLGEN_OPENAPI_BASE_URL: baseUrl, TOOLGEN_OPENAPI_TOKEN: "envtok" },
    });
    expect((await fromEnv.call("Pets&&getPet", { petId: 1 })).isError).toBeFalsy();
    expect(seen.at(-1)?.auth).toBe("Bearer envtok");
    const bare = await buildToolRouter({ catalogs: [join(dir, "pets.json")], env: {} });
    const result = await bare.call("Pets&&getPet", { petId: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no executor configured for this tool/);
  });
});
