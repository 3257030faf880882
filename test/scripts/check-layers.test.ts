import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkLayers, parseLayerTable, tableCycles } from "../../scripts/check-layers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function table(rows: Record<string, string[]>): string {
  const lines = Object.entries(rows).map(
    ([folder, allowed]) => `| \`${folder}\` | ${allowed.map((a) => `\`${a}\``).join(", ") || "—"} |`,
  );
  return [
    "# t",
    "<!-- layers:begin -->",
    "| folder | may import |",
    "| --- | --- |",
    ...lines,
    "<!-- layers:end -->",
  ].join("\n");
}

/** A small tree: files (path → text) under src/, and the table in docs.md. */
function fixture(
  files: Record<string, string>,
  rows: Record<string, string[]>,
): { src: string; doc: string } {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-layers-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, "src", path)), { recursive: true });
    writeFileSync(join(dir, "src", path), text);
  }
  writeFileSync(join(dir, "docs.md"), table(rows));
  return { src: join(dir, "src"), doc: join(dir, "docs.md") };
}

describe("the layer check (scripts/check-layers.ts)", () => {
  it("passes on this repository against docs/ARCHITECTURE.md", () => {
    const { problems, modules } = checkLayers(join(ROOT, "src"), join(ROOT, "docs/ARCHITECTURE.md"));
    expect(problems).toEqual([]);
    expect(modules).toBeGreaterThan(100);
  });

  it("names each forbidden import on one line: the files and the folders", () => {
    const { src, doc } = fixture(
      {
        "low/a.ts": 'import { b } from "../high/b.ts";\nexport const a = b;\n',
        "low/c.ts": 'export const c = import("../high/b.ts");\n',
        "high/b.ts": 'import "../low/ok.ts";\nexport const b = 1;\n',
        "low/ok.ts": "export {};\n",
      },
      { low: [], high: ["low"] },
    );
    expect(checkLayers(src, doc).problems).toEqual([
      "forbidden import: low/a.ts -> high/b.ts (low may not import high)",
      "forbidden import: low/c.ts -> high/b.ts (low may not import high)",
    ]);
  });

  it("counts a file read through new URL(…, import.meta.url) as an import", () => {
    const { src, doc } = fixture(
      {
        "low/a.ts": 'export const t = new URL("../high/template.jinja", import.meta.url);\n',
        "high/b.ts": "export {};\n",
      },
      { low: [], high: ["low"] },
    );
    expect(checkLayers(src, doc).problems).toEqual([
      "forbidden import: low/a.ts -> high/template.jinja (low may not import high)",
    ]);
  });

  it("still finds file cycles, inside one folder too", () => {
    const { src, doc } = fixture(
      { "a/x.ts": 'import "./y.ts";\n', "a/y.ts": 'import "./x.ts";\n' },
      { a: [] },
    );
    expect(checkLayers(src, doc).problems).toEqual(["import cycle: a/x.ts -> a/y.ts -> a/x.ts"]);
  });

  it("refuses a folder without a row, and a table whose folders import each other", () => {
    const { src, doc } = fixture({ "new/x.ts": "export {};\n" }, { a: ["b"], b: ["a"] });
    expect(checkLayers(src, doc).problems).toEqual([
      "layer table: a loop a -> b -> a",
      "layer table: new is under the root but has no row",
    ]);
    expect(tableCycles(parseLayerTable(table({ cli: ["*"], a: ["cli"] })))).toEqual([
      "layer table: a may import cli, which may import anything",
    ]);
  });

  it("exits 1 from the command line with the problem on stderr", () => {
    const { src, doc } = fixture(
      { "low/a.ts": 'import "../high/b.ts";\n', "high/b.ts": "export {};\n" },
      { low: [], high: ["low"] },
    );
    let status = 0;
    let stderr = "";
    try {
      execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/check-layers.ts"), src, doc], {
        cwd: ROOT,
        stdio: "pipe",
      });
    } catch (e) {
      const failure = e as { status: number; stderr: Buffer };
      status = failure.status;
      stderr = failure.stderr.toString();
    }
    expect(status).toBe(1);
    expect(stderr).toBe("forbidden import: low/a.ts -> high/b.ts (low may not import high)\n");
  });
});
