import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { demoTools } from "../../src/demo/catalog.ts";
import { withSandbox } from "../../src/demo/model.ts";
import { DEMO_QUESTIONS } from "../../src/demo/questions.ts";
import { executeToolCall } from "../../src/tools/execute.ts";

async function runCli(args: string[]): Promise<{ out: string; code: number | undefined }> {
  let out = "";
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    process.exitCode = undefined;
    await main(["node", "toolgen", ...args]);
    return { out, code: process.exitCode as number | undefined };
  } finally {
    process.exitCode = undefined;
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

/** The real output of each demo question's tool (file tools in a fresh sandbox, as the demo runs them). */
async function truths(): Promise<string[]> {
  const tools = await demoTools();
  return withSandbox(async () => {
    const out: string[] = [];
    for (const q of DEMO_QUESTIONS) {
      const r = await executeToolCall(
        { id: "t", type: "function", function: { name: q.tool, arguments: q.arguments } },
        tools,
      );
      out.push(r.ok ? r.content : `error ${r.error.message}`);
    }
    return out;
  });
}

interface JsonAnswers {
  answers: { question: string; answer: string; stoppedBecause: string; constrained: string[] }[];
}

describe("toolgen demo (CLI)", () => {
  it("--json: one JSON object with every demo question answered by the committed model", async () => {
    const { out, code } = await runCli(["demo", "--json"]);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as JsonAnswers;
    expect(parsed.answers.map((a) => a.answer)).toEqual(await truths());
    for (const a of parsed.answers) expect(a.constrained).toEqual(["action", "arguments"]);
  });

  it("--model SPEC runs the same agent and real tools on another model (a scripted one here)", async () => {
    const replies = DEMO_QUESTIONS.flatMap((q) => [
      "I need a tool.",
      `<<${q.tool}>>`,
      JSON.stringify(q.arguments),
      "Done.",
      "<<Finish>>",
      // The scripted model echoes the tool's result from the conversation as its final answer.
      "__FINAL__",
    ]);
    const dir = mkdtempSync(join(tmpdir(), "toolgen-demo-scripted-"));
    const expected = await truths();
    let n = 0;
    const filled = replies.map((r) =>
      r === "__FINAL__" ? JSON.stringify({ return_type: "give_answer", final_answer: expected[n++] }) : r,
    );
    writeFileSync(join(dir, "replies.json"), JSON.stringify(filled));
    const { out, code } = await runCli([
      "demo",
      "--json",
      "--model",
      `scripted:${join(dir, "replies.json")}`,
    ]);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as JsonAnswers;
    expect(parsed.answers.map((a) => a.answer)).toEqual(expected);
    // A model given by spec writes its own arguments: only the action turn asked for a constraint.
    for (const a of parsed.answers) expect(a.constrained).toEqual(["action"]);
  });

  it("--interactive answers typed questions until /exit", { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, ["bin/toolgen.mjs", "demo", "--interactive"], { stdio: "pipe" });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stdin.write("Is 2024 a leap year?\n/exit\n");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/^Answer: 2024 is a leap year$/m);
  });
});
