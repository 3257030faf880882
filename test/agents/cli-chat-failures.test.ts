import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const WEATHER = join(ROOT, "examples/weather.ts");
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.closeAllConnections();
  return Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
});

/** A real HTTP server on a free port that answers every request the same (bad) way, or never. */
async function badServer(mode: "404" | "html" | "hang"): Promise<string> {
  const server = createServer((_req, res) => {
    if (mode === "404") res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
    else if (mode === "html")
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>Welcome to nginx</p>");
    // "hang": headers never come
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const chat = (model: string, ...extra: string[]) =>
  runCli(["chat", "--model", model, "--tools", WEATHER, "--message", "hi", ...extra]);

describe("toolgen chat fails loudly when the model does", () => {
  it("the done-when check: a dead port exits non-zero with one clear line (real child process)", async () => {
    const err = (await promisify(execFile)(
      process.execPath,
      [
        "bin/toolgen.mjs",
        "chat",
        "--model",
        "openai:x@http://127.0.0.1:9/v1",
        "--tools",
        WEATHER,
        "--message",
        "hi",
      ],
      { cwd: ROOT, encoding: "utf8" },
    ).catch((e: unknown) => e)) as { code: number; stdout: string; stderr: string };
    expect(err.code).toBe(1);
    expect(err.stdout).toBe("");
    expect(err.stderr).toMatch(/^toolgen chat: the model failed: .*cannot reach http:\/\/127\.0\.0\.1:9\/v1/);
    expect(err.stderr.trim().split("\n")).toHaveLength(1);
  }, 60_000);

  it("a 404 exits 1 and --json carries the error next to the run", async () => {
    const out = await chat(`openai:x@${await badServer("404")}`, "--json");
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^toolgen chat: the model failed: .*404/);
    const lines = out.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!);
    expect(result).toMatchObject({ stoppedBecause: "model_error", error: expect.stringMatching(/404/) });
  });

  it("an HTML page instead of JSON exits 1 naming it", async () => {
    const out = await chat(`openai:x@${await badServer("html")}`);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/the model failed: .*not JSON: <!doctype html>/);
  });

  it("a server that never answers exits 1 after --timeout", async () => {
    const out = await chat(`openai:x@${await badServer("hang")}`, "--timeout", "200");
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/the model failed: .*no response from .* within 200 ms/);
  }, 30_000);

  it("a bad --model is reported as such, before anything about tools", async () => {
    const bogus = await runCli(["chat", "--model", "bogus:x", "--message", "hi"]);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toMatch(/^toolgen chat: unrecognised model spec "bogus:x"/);
    const notUrl = await chat("openai:x@notaurl");
    expect(notUrl.code).toBe(1);
    expect(notUrl.stderr).toMatch(/"notaurl" is not a valid base URL/);
    const badUrl = await chat("openai:x@http://[nope/v1");
    expect(badUrl.stderr).toMatch(/is not a valid base URL/);
  });
});
