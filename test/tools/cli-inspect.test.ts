import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REFERENCE_JSON, REFERENCE_MULTIPLY_TEXT } from "./reference-schemas.ts";

const run = promisify(execFile);
const toolgen = (...args: string[]) =>
  run(process.execPath, ["bin/toolgen.mjs", ...args], { encoding: "utf8" });

describe("toolgen tools inspect", () => {
  it("prints the LangChain4j multiply example's schema exactly", async () => {
    const { stdout } = await toolgen("tools", "inspect", "examples/multiply.ts");
    expect(stdout).toBe(REFERENCE_MULTIPLY_TEXT);
  });

  it("--json prints one object with every tool of the file", async () => {
    const { stdout } = await toolgen("tools", "inspect", "examples/weather.ts", "--json");
    const parsed = JSON.parse(stdout) as { file: string; tools: unknown[] };
    expect(parsed.file).toBe("examples/weather.ts");
    expect(parsed.tools.map((t) => JSON.stringify(t))).toEqual([
      REFERENCE_JSON.get_current_temperature,
      REFERENCE_JSON.get_current_wind_speed,
    ]);
  });

  it("fails with a clear message and exit code 1 on a bad file", async () => {
    const err = await toolgen("tools", "inspect", "examples/missing.ts").catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "toolgen tools inspect: tools file not found: examples/missing.ts\n",
    });
  });
});
