// The CLI's front door: --version, doctor, shell completion, and commander's own errors as one line.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { satisfiesAtLeast } from "../../src/cli/doctor.ts";
import { runCli } from "../helpers/run-cli.ts";

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

describe("toolgen --version and doctor", () => {
  it("--version prints package.json's version", async () => {
    expect(await runCli(["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  it("doctor prints one line per check and exits 0 when nothing required is missing", async () => {
    const out = await runCli(["doctor"]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^toolgen ${VERSION} in `));
    const names = lines.slice(1).map((l) => l.split(/\s+/)[1]);
    expect(names).toEqual([
      "node",
      "typescript",
      "tsx",
      "esbuild",
      "kernels",
      "native-gemm",
      "node-llama-cpp",
      "better-sqlite3",
      "data",
    ]);
    expect(lines[1]).toMatch(new RegExp(`^ok +node +${process.versions.node} \\(toolgen needs >=`));
    const json = JSON.parse((await runCli(["doctor", "--json"])).stdout) as {
      ok: boolean;
      checks: { name: string; status: string; required: boolean; detail: string }[];
    };
    // which kernels `toolgen train` takes by default: the native gemm exactly where it loads and checks out
    const native = json.checks.find((c) => c.name === "native-gemm")!;
    expect(native.detail).toMatch(
      native.status === "ok"
        ? /`toolgen train` uses it by default/
        : /`toolgen train` uses the WebAssembly kernels/,
    );
    expect(json.ok).toBe(true);
    expect(json.checks.filter((c) => c.required).map((c) => c.name)).toEqual(["node", "typescript", "tsx"]);
    // this checkout has its dev dependencies, the optional peers among them, and builds the kernels
    const status = Object.fromEntries(json.checks.map((c) => [c.name, c.status]));
    expect(status).toMatchObject({
      "node-llama-cpp": "ok",
      "better-sqlite3": "ok",
      tsx: "ok",
      esbuild: "ok",
    });
  });

  it("compares Node versions with the engines range", () => {
    expect(satisfiesAtLeast("20.19.0", ">=20.19")).toBe(true);
    expect(satisfiesAtLeast("20.20.2", ">=20.19")).toBe(true);
    expect(satisfiesAtLeast("22.1.0", ">=20.19")).toBe(true);
    expect(satisfiesAtLeast("20.18.3", ">=20.19")).toBe(false);
    expect(satisfiesAtLeast("18.20.0", ">=20.19")).toBe(false);
  });
});

describe("commander's errors as one line", () => {
  it.each([
    [["frobnicate"], "toolgen: unknown command 'frobnicate' (see toolgen --help)"],
    [["chta"], "toolgen: unknown command 'chta' (Did you mean chat?) (see toolgen --help)"],
    [
      ["retrieve", "weather"],
      "toolgen retrieve: required option '--catalog <file>' not specified (see toolgen retrieve --help)",
    ],
    [
      ["retrieve", "weather", "--catalog", "c.json", "--bogus"],
      "toolgen retrieve: unknown option '--bogus' (see toolgen retrieve --help)",
    ],
    [
      ["eval", "retrieval"],
      "toolgen eval retrieval: required option '--catalog <file>' not specified (see toolgen eval retrieval --help)",
    ],
    [["completion"], "toolgen completion: missing required argument 'shell' (see toolgen completion --help)"],
    [["completion", "tcsh"], 'toolgen completion: unknown shell "tcsh" (accepted: bash, zsh, fish)'],
  ])("toolgen %j", async (args, line) => {
    const out = await runCli(args);
    expect(out).toEqual({ code: 1, stdout: "", stderr: `${line}\n` });
  });
});

describe("toolgen completion", () => {
  it("bash: completes commands, subcommands and each command's own options", async () => {
    const out = await runCli(["completion", "bash"]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    const complete = (...words: string[]): string =>
      execFileSync(
        "bash",
        [
          "-c",
          'eval "$SCRIPT"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _toolgen toolgen "${@: -1}" ""; echo "${COMPREPLY[*]}"',
          "complete",
          ...words,
        ],
        { encoding: "utf8", env: { ...process.env, SCRIPT: out.stdout } },
      ).trim();
    expect(complete("toolgen", "do")).toBe("doctor");
    expect(complete("toolgen", "eval", "")).toBe("retrieval bfcl split");
    expect(complete("toolgen", "eval", "retrieval", "--ca")).toBe("--catalog");
    expect(complete("toolgen", "retrieve", "--k")).toBe("--k --k1");
    expect(complete("toolgen", "--vers")).toBe("--version");
  });

  // zsh and fish themselves where this machine has them (CI installs neither; the skip says so)
  const has = (shell: string): boolean => spawnSync(shell, ["-c", "true"]).status === 0;
  const zsh = has("zsh");
  const fish = has("fish");
  if (!zsh || !fish)
    console.warn("SKIP: zsh or fish is not installed; its completion is checked as text only");

  it.skipIf(!zsh)("zsh (through bashcompinit): the words typed so far select the command", async () => {
    const script = (await runCli(["completion", "zsh"])).stdout;
    const complete = (...words: string[]): string =>
      execFileSync(
        "zsh",
        [
          "-c",
          'autoload -U compinit && compinit -u -D; eval "$SCRIPT"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); ' +
            '_toolgen toolgen "${@[-1]}" ""; echo "${COMPREPLY[*]}"',
          "complete",
          ...words,
        ],
        { encoding: "utf8", env: { ...process.env, SCRIPT: script } },
      ).trim();
    // zsh's compadd filters by the typed prefix itself: the function offers the command's words
    expect(complete("toolgen", "eval", "")).toBe("retrieval bfcl split");
    expect(complete("toolgen", "eval", "retrieval", "--ca").split(" ")).toContain("--allow-unfinished");
  });

  it.skipIf(!fish)("fish completes commands, subcommands and options", async () => {
    const script = (await runCli(["completion", "fish"])).stdout;
    const complete = (line: string): string[] =>
      execFileSync("fish", ["-c", `eval $SCRIPT; complete -C "${line}"`], {
        encoding: "utf8",
        env: { ...process.env, SCRIPT: script },
      })
        .trim()
        .split("\n")
        .map((l) => l.split("\t")[0]!);
    expect(complete("toolgen ev")).toEqual(["eval"]);
    expect(complete("toolgen eval ")).toEqual(["bfcl", "retrieval", "split"]);
    expect(complete("toolgen eval retrieval --ca")).toEqual(["--catalog"]);
  });

  it("zsh wraps the bash script; fish lists every command and option", async () => {
    const zsh = await runCli(["completion", "zsh"]);
    expect(zsh.stdout).toMatch(/^#compdef toolgen\n/);
    expect(zsh.stdout).toContain("complete -o default -F _toolgen toolgen");
    const fish = (await runCli(["completion", "fish"])).stdout;
    expect(fish).toContain("complete -c toolgen -f -n '__fish_use_subcommand' -a doctor -d ");
    expect(fish).toContain(
      "complete -c toolgen -f -n '__fish_seen_subcommand_from eval; and not __fish_seen_subcommand_from retrieval bfcl split' -a retrieval",
    );
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from retrieve' -l catalog -r -d /);
  });
});

describe("toolgen train --help", () => {
  it("shows the defaults each kind of training really uses", async () => {
    const out = await runCli(["train", "--help"]);
    expect(out.code).toBe(0);
    const help = out.stdout.replace(/\s+/g, " ");
    expect(help).toContain(
      "--preset <name> training recipe: tiny | small, the model's shape and its schedule",
    );
    expect(help).toContain("BPE vocabulary 8,192 | 4,096");
    expect(help).toContain(
      "--steps <n> --text: optimizer steps in total (default 300; ToolGen stages take --epochs)",
    );
    expect(help).toContain("(default: --text 1024; ToolGen the preset's, 8,192 for tiny)");
    expect(help).not.toContain('(default: "300")');
    expect(help).not.toContain('(default: "1024")');
    expect(help).not.toMatch(/model size/);
  });
});
