import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/load.ts";
import { loadTools } from "../../src/tools/load-module.ts";
import { runCli } from "../helpers/run-cli.ts";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "toolgen-inspect-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const WITH_HELPER = "test/tools/fixtures/with-helper.ts";

describe("toolgen tools inspect: helpers, and its --json as a catalog", () => {
  it("skips an undocumented helper with a warning; the --json output loads as a catalog", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ["bin/toolgen.mjs", "tools", "inspect", WITH_HELPER, "--json"],
      { encoding: "utf8" },
    );
    expect(stderr).toBe(
      `toolgen tools inspect: warning: ${WITH_HELPER}: skipped function round: no JSDoc summary, so not a tool\n`,
    );
    const printed = JSON.parse(stdout) as { tools: Array<{ function: { name: string } }> };
    expect(printed.tools.map((t) => t.function.name)).toEqual(["add"]);

    const catalog = join(dir, "inspected.json");
    writeFileSync(catalog, stdout);
    const entries = loadCatalog(catalog);
    expect(entries.map((e) => [e.id, e.description])).toEqual([["add", "Add two numbers, rounded to cents"]]);
    expect(Object.keys(entries[0]!.parameters.properties)).toEqual(["a", "b"]);

    // without --retriever, retrieve names the default it used on stderr (one line)
    const saysDefault = expect.stringMatching(/^retriever: ranker \(the default[^\n]*\n$/);
    const hit = await runCli(["retrieve", "add two numbers", "--catalog", catalog]);
    expect(hit).toMatchObject({ code: 0, stderr: saysDefault });
    expect(hit.stdout).toMatch(/^1\. add /);
    const miss = await runCli(["retrieve", "zebra", "--catalog", catalog]);
    expect(miss).toEqual({
      code: 0,
      stderr: saysDefault,
      stdout: 'no catalog entry matches "zebra" (1 searched)\n',
    });
    const missJson = await runCli(["retrieve", "zebra", "--catalog", catalog, "--json"]);
    expect(JSON.parse(missJson.stdout)).toEqual({ query: "zebra", results: [] });
  }, 60_000);

  it("a module with only undocumented functions fails, naming them", async () => {
    const out = await runCli(["tools", "inspect", "test/tools/fixtures/no-jsdoc.ts"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/exports no tools; skipped, not documented as tools: undocumented \(see/);
  });

  it("a JSDoc'd helper without @param texts, or tagged @internal, is not a tool", async () => {
    const file = "test/tools/fixtures/with-documented-helper.ts";
    const out = await runCli(["tools", "inspect", file, "--json"]);
    expect(out.stderr).toBe(
      `toolgen tools inspect: warning: ${file}: skipped function formatNumber: no @param text for x, so not a tool\n`,
    );
    const printed = JSON.parse(out.stdout) as { tools: Array<{ function: { name: string } }> };
    expect(printed.tools.map((t) => t.function.name)).toEqual(["add"]);
    // the library without onSkip refuses the file, naming the fix
    await expect(loadTools(file)).rejects.toThrow(
      "function formatNumber: no @param text for x; add them (or tag a helper that is not a tool @internal)",
    );
  });
});
