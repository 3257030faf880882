import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";
import { SqliteChatMemoryStore } from "../../src/agents/memory-sqlite.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin/toolgen.mjs");
const WEATHER = join(ROOT, "examples/weather.ts");
const dir = mkdtempSync(join(tmpdir(), "toolgen-chat-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function script(replies: unknown[]): string {
  const path = join(dir, `replies-${fileCount++}.json`);
  writeFileSync(path, JSON.stringify(replies));
  return path;
}

const PARIS = "Hey, what's the temperature in Paris right now?";

describe("toolgen chat", () => {
  it("--agent react recovers from a model that first names a tool that does not exist", async () => {
    const model = script([
      "I will look up the weather.\nAction: weather_lookup\nAction Input: Paris",
      'Action: get_current_temperature\nAction Input: {"location": "Paris, France", "unit": "celsius"}',
      "I now know the final answer.\nFinal Answer: It is 22 °C in Paris.",
    ]);
    const out = await runCli([
      "chat",
      "--model",
      `scripted:${model}`,
      "--agent",
      "react",
      "--tools",
      WEATHER,
      "--message",
      PARIS,
      "--json",
    ]);
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!);
    expect(Object.keys(result)).toEqual(["answer", "steps", "stoppedBecause"]);
    expect(result).toMatchObject({ answer: "It is 22 °C in Paris.", stoppedBecause: "answer" });
    const guard = result.steps.find((s: { type: string }) => s.type === "guard");
    expect(guard).toMatchObject({ guard: "unknown_tool" });
    expect(guard.message).toContain("try one of [get_current_temperature, get_current_wind_speed]");
    const toolResult = result.steps.find((s: { type: string }) => s.type === "tool_result");
    expect(toolResult.result).toEqual({ ok: true, content: "22" });
  });

  it("--agent functions answers through one tool round trip, streamed to stdout", async () => {
    const model = script([
      {
        tool_calls: [
          { name: "get_current_temperature", arguments: { location: "Paris, France", unit: "celsius" } },
        ],
      },
      "It is 22 degrees Celsius in Paris.",
    ]);
    const out = await runCli([
      "chat",
      "--model",
      `scripted:${model}`,
      "--tools",
      WEATHER,
      "--message",
      PARIS,
      "--stream",
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe("It is 22 degrees Celsius in Paris.\n");
    expect(out.stderr).toContain('→ get_current_temperature {"location":"Paris, France","unit":"celsius"}');
    expect(out.stderr).toContain("← 22");
  });

  it("--agent toolgen runs the paper's turns with the tools' documents", async () => {
    const model = script([
      "I should get the temperature.",
      "<<get_current_temperature>>",
      '{"location": "Paris, France", "unit": "celsius"}',
      "Now I can answer.",
      "<<Finish>>",
      '{"return_type": "give_answer", "final_answer": "22 °C"}',
    ]);
    const out = await runCli([
      "chat",
      "--model",
      `scripted:${model}`,
      "--agent",
      "toolgen",
      "--tools",
      WEATHER,
      "--message",
      PARIS,
      "--json",
    ]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ answer: "22 °C", stoppedBecause: "answer" });
  });

  it("keeps a session in a SQLite file across invocations", async () => {
    const db = join(dir, "memory.sqlite");
    for (const [i, text] of ["first", "second"].entries()) {
      const model = script([`answer ${i}`]);
      const out = await runCli([
        "chat",
        "--model",
        `scripted:${model}`,
        "--tools",
        WEATHER,
        "--memory",
        db,
        "--session",
        "s1",
        "--message",
        text,
      ]);
      expect(out.stdout).toBe(`answer ${i}\n`);
    }
    const store = new SqliteChatMemoryStore(db);
    expect(store.getMessages("s1").map((m) => m.content)).toEqual([
      "first",
      "answer 0",
      "second",
      "answer 1",
    ]);
    store.close();
  });

  it("answers bad options with a clear error and exit code 1", async () => {
    const model = script(["x"]);
    const bad = await runCli([
      "chat",
      "--model",
      `scripted:${model}`,
      "--agent",
      "magic",
      "--tools",
      WEATHER,
      "--message",
      "hi",
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown agent "magic"; choose one of functions, react, toolgen');
    const noTools = await runCli(["chat", "--model", `scripted:${model}`, "--message", "hi"]);
    expect(noTools.stderr).toContain("the functions agent needs tools: pass --tools");
    const missing = await runCli([
      "chat",
      "--model",
      `scripted:${join(dir, "nope.json")}`,
      "--tools",
      WEATHER,
      "--message",
      "hi",
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read scripted replies/);
    const badK = await runCli([
      "chat",
      "--model",
      `scripted:${model}`,
      "--tools",
      WEATHER,
      "--top-k",
      "0",
      "--message",
      "x",
    ]);
    expect(badK.stderr).toContain('--top-k must be a positive integer, got "0"');
  });

  it("runs a REPL over stdin lines", async () => {
    const model = script(["hello there", "bye now"]);
    const db = join(dir, "repl.sqlite");
    const child = execFile(
      process.execPath,
      [BIN, "chat", "--model", `scripted:${model}`, "--tools", WEATHER, "--memory", db],
      { cwd: ROOT },
    );
    let stdout = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stdin!.end("hi\n/reset\nhow are you\n/exit\nnever sent\n");
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code).toBe(0);
    expect(stdout).toBe("hello there\nbye now\n");
    // /reset cleared the first exchange; /exit stopped before the last line.
    const store = new SqliteChatMemoryStore(db);
    expect(store.getMessages("cli").map((m) => m.content)).toEqual(["how are you", "bye now"]);
    store.close();
  });
});
