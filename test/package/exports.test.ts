// The public surface of each entry point, as a snapshot: adding, renaming or removing an export fails this test
// until the snapshot is updated on purpose (`npx vitest run test/package/exports.test.ts -u`).
import { resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const ENTRY_POINTS = {
  toolgen: "src/index.ts",
  "toolgen/engine": "src/entry/engine.ts",
  "toolgen/train": "src/entry/train.ts",
  "toolgen/server": "src/entry/server.ts",
  "toolgen/testing": "src/entry/testing.ts",
} as const;

const files = Object.values(ENTRY_POINTS).map((f) => resolve(ROOT, f));
const program = ts.createProgram(files, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2023,
  allowImportingTsExtensions: true,
  noEmit: true,
  strict: true,
  skipLibCheck: true,
});
const checker = program.getTypeChecker();

/** Each export of a file, values by name and type-only exports as "type Name", sorted. */
function exportList(file: string): string[] {
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker
    .getExportsOfModule(symbol)
    .map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return target.flags & ts.SymbolFlags.Value ? s.name : `type ${s.name}`;
    })
    .sort();
}

describe("public entry points", () => {
  for (const [name, file] of Object.entries(ENTRY_POINTS)) {
    it(`${name} exports exactly its snapshot`, async () => {
      const list = exportList(resolve(ROOT, file));
      expect(list).toMatchSnapshot();
      // What the module really exports at run time are the value exports of the list.
      const runtime = Object.keys((await import(resolve(ROOT, file))) as object).sort();
      expect(runtime).toEqual(list.filter((n) => !n.startsWith("type ")));
    });
  }

  it("uses named exports only (no `export *`)", async () => {
    const { readFileSync } = await import("node:fs");
    for (const file of files) expect(readFileSync(file, "utf8")).not.toMatch(/export \*/);
  });
});
