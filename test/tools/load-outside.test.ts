// Tool files outside the project, as a user keeps them (~/tools/…): JavaScript loads without tsx's loader, an ES
// module there may `import "toolgen"` without a local install, and a CommonJS one is told in one line what to do.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "toolgen-outside-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ADD = `import { tool } from "toolgen";
export const add = tool({
  name: "add",
  description: "Add two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  execute: ({ a, b }) => a + b,
});
`;

async function inspect(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [
      "bin/toolgen.mjs",
      "tools",
      "inspect",
      file,
      "--json",
    ]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("tool files outside the project", () => {
  it('an ES module there imports "toolgen" (this copy) and loads as plain JavaScript', async () => {
    const file = join(dir, "add.mjs");
    writeFileSync(file, ADD);
    const out = await inspect(file);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    const printed = JSON.parse(out.stdout) as { tools: Array<{ function: { name: string } }> };
    expect(printed.tools.map((t) => t.function.name)).toEqual(["add"]);
  }, 60_000);

  it('a CommonJS TypeScript file there that imports "toolgen" gets one line naming the fix', async () => {
    const file = join(dir, "add.ts");
    writeFileSync(file, ADD.replace("({ a, b })", "({ a, b }: { a: number; b: number })"));
    const out = await inspect(file);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      `toolgen tools inspect: ${file} imports "toolgen", which its folder does not have: install it there ` +
        '(`npm install toolgen`), or make the file an ES module (.mjs, .mts, or a package.json with "type": "module") ' +
        "to use this toolgen\n",
    );
  }, 60_000);
});
