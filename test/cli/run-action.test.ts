import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it, vi } from "vitest";
import { CommandError, runAction } from "../../src/cli/run-action.ts";
import { runCli } from "../helpers/run-cli.ts";

/** Runs a tiny program whose `group sub` command fails as `fail` says; stdout, stderr and exit code captured. */
async function failing(fail: () => never, args: string[] = []) {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((c) => ((stdout += String(c)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((c) => ((stderr += String(c)), true));
  process.exitCode = undefined;
  const program = new Command();
  program.command("group").command("sub").option("--json").action(runAction(fail));
  try {
    await program.parseAsync(["node", "toolgen", "group", "sub", ...args]);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = process.exitCode;
  process.exitCode = undefined;
  return { code, stdout, stderr };
}

describe("runAction: every failed command ends the same way", () => {
  it("one line on stderr named after the command, exit 1, nothing on stdout", async () => {
    const result = await failing(() => {
      throw new Error("first line\n  second line");
    });
    expect(result).toEqual({ code: 1, stdout: "", stderr: "toolgen group sub: first line second line\n" });
  });

  it("--json also prints the error (with the result a CommandError carries) and keeps its exit code", async () => {
    const plain = await failing(() => {
      throw new Error("bad input");
    }, ["--json"]);
    expect(JSON.parse(plain.stdout)).toEqual({ error: "bad input" });
    const interrupted = await failing(() => {
      throw new CommandError("interrupted", { exitCode: 130, json: { steps: 3 } });
    }, ["--json"]);
    expect(interrupted.code).toBe(130);
    expect(JSON.parse(interrupted.stdout)).toEqual({ steps: 3, error: "interrupted" });
  });
});

describe("commands report failures through it", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-run-action-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("eval retrieval, export, retrieve and virtualize fail with exit 1, one line, and {error} under --json", async () => {
    const missing = join(dir, "absent.json");
    for (const args of [
      ["eval", "retrieval", "--catalog", missing, "--queries", missing, "--json"],
      ["export", "gguf", "--model", dir, "--out", join(dir, "x.gguf"), "--json"],
      [
        "export",
        "training",
        "--catalog",
        missing,
        "--queries",
        missing,
        "--format",
        "trl",
        "--out",
        dir,
        "--json",
      ],
      ["retrieve", "q", "--catalog", missing, "--json"],
      ["virtualize", "--base", dir, "--catalog", missing, "--out", join(dir, "v"), "--json"],
    ]) {
      const out = await runCli(args);
      expect(out.code, args.join(" ")).toBe(1);
      expect(out.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(out.stderr).toMatch(new RegExp(`^toolgen ${args[0]}[ :]`));
      expect(JSON.parse(out.stdout), args.join(" ")).toEqual({ error: expect.any(String) });
    }
  });

  it("serve mcp warns before binding beyond loopback with --host", async () => {
    const config = join(dir, "bad.json");
    writeFileSync(config, JSON.stringify({ modules: 3 })); // fails after the options are read: nothing binds
    const open = await runCli(["serve", "mcp", "--config", config, "--http", "0", "--host", "0.0.0.0"]);
    expect(open.stderr).toMatch(
      /^toolgen serve mcp: warning: --host 0\.0\.0\.0 accepts connections from other machines.*no authentication/,
    );
    const local = await runCli(["serve", "mcp", "--config", config, "--http", "0", "--host", "127.0.0.1"]);
    expect(local.stderr).not.toMatch(/warning/);
    expect(local.code).toBe(1);
  });
});
