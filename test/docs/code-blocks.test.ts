// The doc test: the code blocks of README.md, docs/ and examples/. TypeScript blocks type-check (one program for all),
// JSON and JavaScript blocks parse; a shell block marked `<!-- doctest: run -->` runs and exits 0; in every
// other shell block, each line that runs toolgen names a command the CLI has and only options that command
// accepts; files of the repository named in a block, or linked to, exist; the README stays within 200 lines.
// `<!-- doctest: skip -->` above a block leaves it out. Every failure is reported as FILE:LINE.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import type { Command } from "commander";
import { buildProgram } from "../../src/cli/main.ts";
import { checkArgs, shellCommands, toolgenArgs } from "./cli-lines.ts";
import { codeBlocks, isShell, isTypeScript, type CodeBlock } from "./markdown-blocks.ts";
import { localLinks } from "./markdown-links.ts";
import { typeCheckBlocks } from "./typecheck-blocks.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const exec = promisify(execFile);

const markdownUnder = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `${folder}/${f}`);
const FILES = ["README.md", ...markdownUnder("docs"), ...markdownUnder("examples")];
const blocks = FILES.flatMap((file) => codeBlocks(file, readFileSync(join(ROOT, file), "utf8")));
const checked = blocks.filter((b) => b.marker !== "skip");
const runBlocks = checked.filter((b) => isShell(b) && b.marker === "run");
/** A path into the repository's own folders (not one a command writes, like runs/…), with an extension. */
const REPO_PATH = /(?<![\w./-])((?:examples|src|bin|scripts|bench|models|test|docs)\/[\w./-]*\.\w+)/g;

let program: Command;
beforeAll(async () => {
  program = await buildProgram(["node", "toolgen"], true);
});

describe("the doctest conventions", () => {
  it("read fences, languages and the marker above a block", () => {
    const text = [
      "<!-- doctest: skip -->",
      "```ts",
      "nope(",
      "```",
      "",
      "<!-- doctest: run -->",
      "",
      "```bash",
      "echo hi",
      "```",
      "```typescript title",
      "const a = 1;",
      "```",
    ].join("\n");
    expect(codeBlocks("x.md", text)).toEqual([
      { file: "x.md", line: 2, lang: "ts", code: "nope(", marker: "skip" },
      { file: "x.md", line: 8, lang: "bash", code: "echo hi", marker: "run" },
      { file: "x.md", line: 11, lang: "typescript", code: "const a = 1;" },
    ]);
    expect(() => codeBlocks("x.md", "<!-- doctest: sikp -->\n```ts\n```")).toThrow(
      'x.md:1: unknown doctest marker "sikp"',
    );
  });

  it("find toolgen in shell lines, and check commands and options against the CLI", () => {
    const commands = shellCommands(
      [
        "npx toolgen retrieve --catalog a.json 'weather in Paris' --k 3 # a comment --nope",
        "TOOLGEN_MODEL=x node bin/toolgen.mjs eval bfcl --data d \\",
        "  --oracle && echo done",
        "$ toolgen serve mcp --catalog c.json --bogus | head",
        "npx tsx examples/x/main.ts --bogus",
      ].join("\n"),
    );
    const found = commands.flatMap((c) => {
      const args = toolgenArgs(c.words);
      return args ? [{ line: c.line, args }] : [];
    });
    expect(found).toEqual([
      { line: 1, args: ["retrieve", "--catalog", "a.json", "weather in Paris", "--k", "3"] },
      { line: 2, args: ["eval", "bfcl", "--data", "d", "--oracle"] },
      { line: 4, args: ["serve", "mcp", "--catalog", "c.json", "--bogus"] },
    ]);
    expect(found.map((f) => checkArgs(program, f.args))).toEqual([
      [],
      [],
      [expect.stringMatching(/^toolgen serve mcp: unknown option --bogus \(accepted: .*--catalog/)],
    ]);
    expect(checkArgs(program, ["evaluate", "bfcl"])).toEqual([
      expect.stringMatching(/^toolgen: unknown command "evaluate"/),
    ]);
    expect(checkArgs(program, ["eval", "bfc", "--data", "d"])).toEqual([
      expect.stringMatching(/^toolgen eval: unknown command "bfc"/),
    ]);
  });
});

describe("README.md, docs/ and the examples' READMEs", () => {
  it("README.md is a front page: at most 200 lines (the details are in docs/)", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(
      200,
    );
  });

  it("links to files of the repository resolve", () => {
    const links = FILES.flatMap((file) =>
      localLinks(readFileSync(join(ROOT, file), "utf8")).map((link) => ({ file, ...link })),
    );
    expect(links.length).toBeGreaterThan(10);
    const broken = links
      .filter(({ file, target }) => !existsSync(join(ROOT, dirname(file), decodeURI(target))))
      .map(({ file, line, target }) => `${file}:${line}: no file ${target}`);
    expect(broken).toEqual([]);
  });

  it("have code blocks to check", () => {
    expect(checked.filter(isTypeScript).length).toBeGreaterThan(0);
    expect(checked.filter(isShell).length).toBeGreaterThan(0);
  });

  it("TypeScript blocks type-check, with toolgen resolving to the sources", () => {
    // A wrong block checked in the same program shows that errors surface, on the Markdown file's line.
    const canary: CodeBlock = {
      file: "canary.md",
      line: 10,
      lang: "ts",
      code: 'import { ScriptedModel } from "toolgen/testing";\nconst model: number = new ScriptedModel([]);',
    };
    expect(typeCheckBlocks([...checked.filter(isTypeScript), canary])).toEqual([
      "canary.md:12: TS2322 Type 'ScriptedModel' is not assignable to type 'number'.",
    ]);
  });

  it("JSON blocks parse, and JavaScript blocks have no syntax error", () => {
    const problems = checked.flatMap((block) => {
      if (block.lang === "json") {
        try {
          JSON.parse(block.code);
          return [];
        } catch (error) {
          return [`${block.file}:${block.line}: ${(error as Error).message}`];
        }
      }
      if (!["js", "javascript", "mjs"].includes(block.lang)) return [];
      const { diagnostics = [] } = ts.transpileModule(block.code, {
        fileName: "block.mjs",
        reportDiagnostics: true,
      });
      return diagnostics.map((d) => {
        const line = d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line;
        return `${block.file}:${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
      });
    });
    expect(problems).toEqual([]);
  });

  it("toolgen command lines use commands and options the CLI has", () => {
    let lines = 0;
    const problems = checked.filter(isShell).flatMap((block: CodeBlock) =>
      shellCommands(block.code).flatMap(({ line, words }) => {
        const args = toolgenArgs(words);
        if (!args) return [];
        lines++;
        return checkArgs(program, args).map((p) => `${block.file}:${block.line + line}: ${p}`);
      }),
    );
    expect(problems).toEqual([]);
    expect(lines).toBeGreaterThan(10);
  });

  it("files of the repository that code blocks name exist", () => {
    const missing = checked.flatMap((block) =>
      block.code.split("\n").flatMap((text, i) =>
        [...text.matchAll(REPO_PATH)]
          .map((m) => m[1]!)
          .filter((path) => !existsSync(join(ROOT, path)))
          .map((path) => `${block.file}:${block.line + 1 + i}: no file ${path}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it.runIf(runBlocks.length > 0).each(runBlocks.map((b) => [`${b.file}:${b.line}`, b] as const))(
    "the block marked `doctest: run` at %s exits 0",
    async (_, block) => {
      await exec("bash", ["-e", "-c", block.code], { cwd: ROOT, timeout: 30_000 }).catch((error: unknown) => {
        const e = error as { code?: number; signal?: string; stderr?: string };
        throw new Error(
          `${block.file}:${block.line}: exit ${e.code ?? e.signal}\n${(e.stderr ?? "").trim().slice(-2000)}`,
        );
      });
    },
    60_000,
  );
});
