// Each folder of examples/ runs as its README says (the first line of its first ```bash block, in a shell at
// the repository root) and prints what its README promises.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const EXAMPLES = join(ROOT, "examples");
const BFCL_DATA = join(ROOT, "../shared/data/bfcl");
const exec = promisify(execFile);

/** The example folders, and the `bash` code blocks of one's README. */
const folders = readdirSync(EXAMPLES).filter((name) => statSync(join(EXAMPLES, name)).isDirectory());
function bashLines(folder: string): string[] {
  const text = readFileSync(join(EXAMPLES, folder, "README.md"), "utf8");
  return [...text.matchAll(/^```bash\n([\s\S]*?)^```/gm)].flatMap((m) => m[1]!.trimEnd().split("\n"));
}
/** A README line without its trailing `# comment`. */
const command = (line: string): string => line.replace(/\s+#.*$/, "");

/** Runs a command line as a user would type it, without a model configured in the environment. */
async function sh(line: string): Promise<string> {
  const env = { ...process.env };
  delete env.TOOLGEN_MODEL;
  const { stdout } = await exec("bash", ["-c", line], { cwd: ROOT, env, timeout: 90_000 });
  return stdout;
}

/** The README's one command for an example (checked to run that example), and its output. */
async function runExample(folder: string): Promise<string> {
  const line = command(bashLines(folder)[0] ?? "");
  expect(line).toMatch(
    new RegExp(`^(npx tsx --conditions toolgen-source|node) examples/${folder}/main\\.m?[jt]s$`),
  );
  return sh(line);
}

const lines = (text: string): string[] => text.trimEnd().split("\n");

describe("examples/", () => {
  it("has a README per folder, each listed in examples/README.md", () => {
    const index = readFileSync(join(EXAMPLES, "README.md"), "utf8");
    expect(folders.length).toBeGreaterThanOrEqual(7);
    for (const folder of folders) {
      expect(existsSync(join(EXAMPLES, folder, "README.md")), folder).toBe(true);
      expect(index, folder).toContain(`(${folder}/)`);
    }
  });

  it("tools-five-ways: five styles give the same JSON and the same answer", async () => {
    const out = await runExample("tools-five-ways");
    const json = JSON.parse(out.slice(out.indexOf("{"), out.indexOf("\n}\n") + 2)) as {
      function: { name: string; parameters: { required: string[] } };
    };
    expect(json.function.name).toBe("convert_temperature");
    expect(json.function.parameters.required).toEqual(["value", "to"]);
    expect(lines(out).slice(-5)).toEqual(
      ["json    ", "zod     ", "class   ", "spec    ", "function"].map(
        (style) => `${style} same JSON  convert_temperature(value="212", to="celsius") → 100`,
      ),
    );
  });

  it("agent-200-tools: BM25 offers the right tool among 5 of 200, and the agent calls it", async () => {
    const out = await runExample("agent-200-tools");
    expect(out).toContain("200 tools; each question is shown the 5 that BM25 ranks first.");
    const offered = [...out.matchAll(/offered: (.*)/g)].map((m) => m[1]!.split(", "));
    expect(offered).toHaveLength(2);
    expect(offered[0]).toHaveLength(5);
    expect(offered[0]).toContain("convert_currency");
    expect(offered[1]).toContain("get_weather");
    expect(out).toContain('called:  convert_currency({"amount":120,"from":"USD","to":"EUR"}) → 110.4');
    expect(out).toContain("A: The convert_currency tool says: 110.4 (answer)");
    expect(out).toContain(
      'A: The get_weather tool says: {"city":"Lisbon","temperature":19,"sky":"sunny"} (answer)',
    );
  });

  it("gateway-two-upstreams: one gateway lists 3 tools, finds and calls tools of both upstreams", async () => {
    const out = await runExample("gateway-two-upstreams");
    expect(out).toContain(
      "imported weather: get_forecast, get_air_quality\nimported notes: add_note, list_notes",
    );
    expect(out).toContain("the gateway lists 3 tools: search_tools, call_tool, get_tool");
    expect(out).toMatch(/search_tools\("will it rain in Lisbon this week"\) → weather&&get_forecast, /);
    const answered = [...out.matchAll(/call_tool\((\S+)\) → (.*) \(answered by (\w+), pid (\d+)\)/g)];
    expect(answered.map((m) => [m[1], m[3]])).toEqual([
      ["weather&&get_forecast", "weather"],
      ["notes&&add_note", "notes"],
      ["notes&&list_notes", "notes"],
    ]);
    expect(JSON.parse(answered[0]![2]!)).toHaveLength(2); // days: 2
    expect(answered[2]![2]).toBe('["take an umbrella on day 2"]'); // the same notes process kept the note
    // The gateway stopped both upstream servers when the client closed it.
    const pids = new Set(answered.map((m) => Number(m[4])));
    expect(pids.size).toBe(2);
    await expect.poll(() => [...pids].filter(alive), { timeout: 5000 }).toEqual([]);
  });

  it("ai-sdk: the AI SDK's tools record and back, without the ai package", async () => {
    expect(existsSync(join(ROOT, "node_modules/ai"))).toBe(false); // as the README says
    const out = await runExample("ai-sdk");
    expect(out).toContain(
      'inputSchema.jsonSchema: {"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}',
    );
    expect(out).toContain("marked as the AI SDK's jsonSchema(): true");
    expect(out).toContain('execute({ city: "Oslo" }) → {"city":"Oslo","celsius":21}');
    expect(out).toMatch(/execute\(\{ town: "Oslo" \}\) throws .*missing required property "city"/);
    expect(out).toContain(
      'executeToolCall(add, { a: 2, b: "40" }) → {"ok":true,"content":"42","coercions":[{"pointer":"/b","from":"40","to":40}]}',
    );
  });

  it("train-tiny-toolgen: both stages lower the loss, and the model retrieves its training questions", async () => {
    const out = await runExample("train-tiny-toolgen");
    for (const stage of ["memorization", "retrieval"]) {
      const [, first, last] = new RegExp(`${stage}: \\d+ steps, loss ([\\d.]+) → ([\\d.]+)`).exec(out) ?? [];
      expect(Number(last), stage).toBeLessThan(Number(first));
    }
    const right = (name: string) => Number(new RegExp(`${name} questions: (\\d+)/`).exec(out)?.[1]);
    expect(out).toMatch(/training questions: \d+\/48 right at rank 1\nheld-out questions: \d+\/12 /);
    expect(right("training")).toBeGreaterThanOrEqual(44); // 48 on this machine
    expect(right("held-out")).toBeGreaterThanOrEqual(6); // 9 on this machine
  });

  it("bfcl-eval: the checker scores the scripted model's five answers, from the library and the CLI", async () => {
    expect(lines(await runExample("bfcl-eval"))).toEqual([
      "irrelevance    1/1 (100%)",
      "multiple       1/1 (100%)",
      "simple_python  2/3 (66.67%)",
      "BFCL non-live AST: 83.33% (the mean over its categories)",
      "BFCL irrelevance:  100%",
      'FAIL simple_python_1 value_error:string: invalid value "kelvin" for to_unit',
    ]);
    const cli = bashLines("bfcl-eval").find((l) => l.includes("--model scripted:"))!;
    const out = await sh(cli);
    expect(out).toContain("All items (plain share, not a BFCL figure): 80% (4/5)");
    expect(out).toContain('FAIL simple_python_1  value_error:string: invalid value "kelvin" for to_unit');
  });

  it.skipIf(!existsSync(BFCL_DATA))(
    "bfcl-eval: the README's oracle command passes every item of the real BFCL data",
    async () => {
      const oracle = bashLines("bfcl-eval").find((l) => l.includes("--oracle"))!;
      const out = await sh(oracle);
      expect(out).toMatch(/All items \(plain share, not a BFCL figure\): 100% \((\d+)\/\1\)/);
    },
  );

  it("plain-node-consumer: runs in test/package/pack.test.ts, on the tarball that test builds", () => {
    expect(command(bashLines("plain-node-consumer")[0]!)).toBe("node examples/plain-node-consumer/main.mjs");
    expect(readFileSync(join(ROOT, "test/package/pack.test.ts"), "utf8")).toContain(
      'join(ROOT, "examples/plain-node-consumer/main.mjs")',
    );
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
