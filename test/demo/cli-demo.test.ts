import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { isCorrectAnswer } from "../../src/demo/grading.ts";
import { SHOWN_QUESTIONS } from "../../src/demo/questions.ts";

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

/** Runs bin/toolgen.mjs as a real child process with `input` on stdin. */
async function runChild(
  args: string[],
  input: string,
): Promise<{ out: string; err: string; code: number | null }> {
  const child = spawn(process.execPath, ["bin/toolgen.mjs", ...args], { stdio: "pipe" });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { out, err, code };
}

interface JsonAnswer {
  question: string;
  answer: string | null;
  declined: boolean;
  stoppedBecause: string;
  correct: boolean;
  constrained: string[];
}

describe("toolgen demo (CLI)", () => {
  it("--model SPEC runs the same agent and real tools on another model (a scripted one here)", async () => {
    // A scripted model that calls each expected tool, copies its result as the final answer, and declines the
    // off-topic question.
    const replies = SHOWN_QUESTIONS.flatMap(({ truth }) =>
      truth
        ? [
            "I need a tool.",
            `<<${truth.tool}>>`,
            JSON.stringify(truth.arguments),
            "Done.",
            "<<Finish>>",
            JSON.stringify({ return_type: "give_answer", final_answer: truth.answer }),
          ]
        : [
            "None of these tools can answer this question.",
            "<<Finish>>",
            '{"return_type":"give_up_and_restart"}',
          ],
    );
    const dir = mkdtempSync(join(tmpdir(), "toolgen-demo-scripted-"));
    writeFileSync(join(dir, "replies.json"), JSON.stringify(replies));
    const { out, code } = await runCli([
      "demo",
      "--json",
      "--model",
      `scripted:${join(dir, "replies.json")}`,
    ]);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as { answers: JsonAnswer[] };
    expect(parsed.answers.map((a) => a.answer)).toEqual(SHOWN_QUESTIONS.map((q) => q.truth?.answer ?? null));
    expect(parsed.answers.map((a) => a.declined)).toEqual(SHOWN_QUESTIONS.map((q) => q.truth === null));
    expect(parsed.answers.every((a) => a.correct)).toBe(true);
    const { out: text } = await runCli(["demo", "--model", `scripted:${join(dir, "replies.json")}`]);
    expect(text).toMatch(/7 of 7 questions answered correctly .*; 1 of 1 off-topic question\(s\) declined\./);
    expect(text).toMatch(/^Declined: I can't answer that with these tools\.$/m);
  });

  it("refuses an unknown --arguments-constraint, or one with --free-arguments, before doing anything", async () => {
    const bad = await runCli([
      "demo",
      "--arguments-constraint",
      "copy",
      "--model",
      "scripted:/nonexistent.json",
    ]);
    expect(bad.code).toBe(1);
    const both = await runCli(["demo", "--arguments-constraint", "json-schema", "--free-arguments"]);
    expect(both.code).toBe(1);
  });

  it("refuses --candidates with --model before doing anything", async () => {
    const { code } = await runCli(["demo", "--candidates", "--model", "scripted:/nonexistent.json"]);
    expect(code).toBe(1);
  });

  it(
    "--interactive --json: one JSON line per question line, from a real child process",
    { timeout: 180_000 },
    async () => {
      const { out, code } = await runChild(
        ["demo", "--interactive", "--json"],
        "What is 12 factorial?\n\ntell me a joke\n",
      );
      expect(code).toBe(0);
      const lines = out.trim().split("\n");
      expect(lines).toHaveLength(2);
      const [first, second] = lines.map((l) => JSON.parse(l) as JsonAnswer & { steps: unknown[] });
      expect(Object.keys(first!)).toEqual(
        expect.arrayContaining(["question", "answer", "declined", "stoppedBecause", "steps"]),
      );
      expect(first!.question).toBe("What is 12 factorial?");
      expect(second!.question).toBe("tell me a joke");
      for (const a of [first!, second!]) {
        // answer is the model's text exactly when it finished with one; declined exactly when it gave up
        expect(a.answer === null).toBe(a.stoppedBecause !== "answer");
        expect(a.declined).toBe(a.stoppedBecause === "gave_up");
        expect(Array.isArray(a.steps)).toBe(true);
      }
      // The committed model's real record on these two (measured; update with the model).
      expect([isCorrectAnswer(first!.answer, SHOWN_QUESTIONS[0]!.truth!), second!.declined]).toEqual(
        EXPECTED_INTERACTIVE,
      );
    },
  );

  it(
    "--json: npm start's eight questions, each judged against its known answer",
    { timeout: 180_000 },
    async () => {
      const { out, code } = await runCli(["demo", "--json"]);
      expect(code).toBe(0);
      const { answers } = JSON.parse(out) as { answers: JsonAnswer[] };
      expect(answers.map((a) => a.question)).toEqual(SHOWN_QUESTIONS.map((q) => q.question));
      for (const [i, a] of answers.entries()) {
        const truth = SHOWN_QUESTIONS[i]!.truth;
        expect(a.correct).toBe(truth ? isCorrectAnswer(a.answer, truth) : a.declined);
        expect(a.constrained).toEqual(["action", "arguments"]);
      }
      // The committed model's real record on them (see bench/results/demo.json for the whole sets).
      expect(answers.map((a) => a.correct)).toEqual(EXPECTED_CORRECT);
    },
  );

  it(
    "npm start (toolgen demo) prints the committed model's own answers and its summary line",
    { timeout: 180_000 },
    async () => {
      const { out, code } = await runCli(["demo"]);
      expect(code).toBe(0);
      // each shown question with the answer the committed model really gives (its tool's real output)
      const answers = [...out.matchAll(/^(Answer|Declined): (.*)$/gm)].map((m) => m[2]);
      expect(answers).toEqual(
        SHOWN_QUESTIONS.map((q, i) =>
          EXPECTED_CORRECT[i]
            ? (q.truth?.answer ?? "I can't answer that with these tools.")
            : expect.any(String),
        ),
      );
      const right = EXPECTED_CORRECT.filter((c, i) => c && SHOWN_QUESTIONS[i]!.truth).length;
      const on = SHOWN_QUESTIONS.filter((q) => q.truth).length;
      expect(out).toMatch(new RegExp(`${right} of ${on} questions answered correctly .*; 1 of 1 off-topic`));
    },
  );
});

/**
 * Which of npm start's questions the committed model gets right, and whether it answers "What is 12 factorial?"
 * correctly and declines "tell me a joke" (measured on the model retrained on 2026-12-02, third round, under the
 * fourth round's rules: the tools read units by name, names written at one place spent together, the answer
 * reports the tool's result whole, the tool's name never copied as its data: "12! = 479001600",
 * 5 km = 3.106856 mi, 2000-01-31, the sha256 of "abc", "6 words" for the quoted sentence, the sales.csv question,
 * the joke declined. 25 °C, read as 25 °F before, is right since the fifth round's rule that an enum right after a
 * number property takes the unit written right after a number first; see docs/demo-model.md).
 */
const EXPECTED_CORRECT = [true, true, true, true, true, true, true, true];
const EXPECTED_INTERACTIVE = [true, true];
