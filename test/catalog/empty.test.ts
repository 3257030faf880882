import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/load.ts";
import { ToolgenError } from "../../src/errors.ts";

const dir = mkdtempSync(join(tmpdir(), "toolgen-empty-catalog-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an empty catalog", () => {
  it.each([
    ["[]\n", "the catalog is empty ([]): it lists no tools"],
    ["  \n", "the catalog is empty (the file has no content)"],
  ])("%j is called empty, not an unrecognised format", (text, problem) => {
    const file = join(dir, "catalog.json");
    writeFileSync(file, text);
    let error: unknown;
    try {
      loadCatalog(file);
    } catch (e) {
      error = e;
    }
    expect(ToolgenError.hasCode(error, "invalid_catalog")).toBe(true);
    expect((error as Error).message).toBe(`${file}: ${problem}`);
  });
});
