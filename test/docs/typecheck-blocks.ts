// Type-checks TypeScript code blocks as ES modules in one TypeScript program, under the repository's
// tsconfig.json, with `toolgen` and its entry points resolving to the sources.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import type { CodeBlock } from "./markdown-blocks.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** The package's entry points and their sources (package.json "exports", condition "toolgen-source"). */
const ENTRY_POINTS: Record<string, string> = Object.fromEntries(
  Object.entries(
    (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        exports: Record<string, string | Record<string, string>>;
      }
    ).exports,
  ).flatMap(([path, target]) =>
    typeof target === "object" && target["toolgen-source"]
      ? [[join("toolgen", path).replace(/\/$/, ""), target["toolgen-source"]]]
      : [],
  ),
);

/** One line per error, as `FILE:LINE: TSxxxx message`, the line being the Markdown file's. */
export function typeCheckBlocks(blocks: readonly CodeBlock[]): string[] {
  // Inside node_modules/.cache, so that the blocks' bare imports (zod, the MCP SDK) resolve from the repository.
  const cache = join(ROOT, "node_modules/.cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "doctest-"));
  try {
    const files = blocks.map((block, i) => {
      const file = join(dir, `block-${i}.ts`);
      // `export {}` makes a block without imports a module too (top-level await, no global clashes).
      writeFileSync(file, `${block.code}\nexport {};\n`);
      return file;
    });
    const config = join(dir, "tsconfig.json");
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(ROOT, "tsconfig.json"),
        compilerOptions: {
          noUnusedLocals: false, // a snippet may declare what it does not use
          typeRoots: [join(ROOT, "node_modules/@types")],
          // Outside the package's folder a self-import does not resolve: name the entry points' sources.
          paths: Object.fromEntries(
            Object.entries(ENTRY_POINTS).map(([name, file]) => [name, [join(ROOT, file)]]),
          ),
        },
        files,
        include: [],
      }),
    );
    const parsed = ts.getParsedCommandLineOfConfigFile(
      config,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
      },
    )!;
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    // Only the blocks are checked: the sources they import are the lint's to check, and skipping them keeps
    // this to seconds.
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...files.flatMap((file) => {
        const source = program.getSourceFile(file)!;
        return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      }),
    ];
    return diagnostics.map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, " ");
      const index = d.file ? files.indexOf(resolve(d.file.fileName)) : -1;
      if (index < 0) return `${d.file?.fileName ?? "tsconfig"}: TS${d.code} ${text}`;
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      const block = blocks[index]!;
      return `${block.file}:${block.line + 1 + line}: TS${d.code} ${text}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
