import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";

/** Runs the CLI in process and returns what it wrote to stderr and the exit code it set. */
async function cli(args: string[]): Promise<{ stderr: string; exitCode: number | undefined }> {
  let stderr = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const before = process.exitCode;
  try {
    await main(["node", "toolgen", ...args]);
    return { stderr, exitCode: process.exitCode as number | undefined };
  } finally {
    spy.mockRestore();
    process.exitCode = before;
  }
}

describe("serve mcp / catalog import mcp: bad input gets a clear error and exit code 1", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-cli-mcp-"));

  it("serve mcp with nothing to serve, a bad config, a bad port", async () => {
    expect(await cli(["serve", "mcp"])).toMatchObject({
      exitCode: 1,
      stderr: expect.stringMatching(/nothing to serve/),
    });
    const config = join(dir, "bad.json");
    writeFileSync(config, JSON.stringify({ modules: 3 }));
    const bad = await cli(["serve", "mcp", "--config", config]);
    expect(bad).toMatchObject({
      exitCode: 1,
      stderr: expect.stringMatching(/field "modules" must be a list/),
    });
    const missing = await cli(["serve", "mcp", "--catalog", join(dir, "absent.json")]);
    expect(missing).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/absent\.json/) });
    const port = await cli(["serve", "mcp", "--catalog", config, "--http", "http"]);
    expect(port.exitCode).toBe(1);
  });

  it("serve mcp checks the gateway options before it starts anything, one line each", async () => {
    const cases: [string[], RegExp][] = [
      [["--expose", "most"], /--expose expects search \| all \| auto, got "most"/],
      [["--prefix", "sometimes"], /prefix mode must be one of never, conditional, always/],
      [["--separator", "/"], /separator must be 1 to 8 of/],
      [["--max-name-length", "200"], /longest tool name must be from 16 to 128/],
      [["--tool-budget", "-3"], /--tool-budget expects a positive number of tokens/],
      [["--stateless"], /--stateless applies to --http only/],
    ];
    for (const [options, message] of cases) {
      const out = await cli(["serve", "mcp", "--catalog", join(dir, "absent.json"), ...options]);
      expect(out.exitCode, options.join(" ")).toBe(1);
      expect(out.stderr.trim().split("\n"), options.join(" ")).toHaveLength(1);
      expect(out.stderr, options.join(" ")).toMatch(message);
    }
  });

  it("catalog import mcp needs exactly one source and reports a server that cannot start", async () => {
    const none = await cli(["catalog", "import", "mcp", "--out", join(dir, "x.json")]);
    expect(none).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/exactly one of --server/) });
    const dead = await cli([
      "catalog",
      "import",
      "mcp",
      "--server",
      join(dir, "no-such-server"),
      "--out",
      join(dir, "x.json"),
    ]);
    expect(dead).toMatchObject({
      exitCode: 1,
      stderr: expect.stringMatching(/cannot start upstream MCP server/),
    });
    const quote = await cli([
      "catalog",
      "import",
      "mcp",
      "--server",
      'node "x',
      "--out",
      join(dir, "x.json"),
    ]);
    expect(quote).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/unclosed " quote/) });
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});
