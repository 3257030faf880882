// Type-checks TypeScript code blocks as ES modules in one TypeScript program, with `toolgen` and its entry
// points resolving to the sources (the repository's tsconfig.json: `paths` and the `toolgen-source` condition).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import type { CodeBlock } from "./markdown-blocks.ts";

const ROOT = resolve(import.meta.dirname, "../..");

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
        // A snippet may declare what it does not use.
        compilerOptions: { noUnusedLocals: false, typeRoots: [join(ROOT, "node_modules/@types")] },
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
