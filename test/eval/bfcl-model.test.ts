import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const BIN = join(import.meta.dirname, "../../bin/toolgen.mjs");

/** A two-category BFCL folder and a scripted model: one right call, one call where none was wanted. */
function fixture(): { dir: string; replies: string } {
  const dir = mkdtempSync(join(tmpdir(), "bfcl-"));
  mkdirSync(join(dir, "possible_answer"));
  const fn = {
    name: "math.factorial",
    description: "Factorial of n",
    parameters: { type: "dict", properties: { number: { type: "integer" } }, required: ["number"] },
  };
  const item = (id: string, content: string) =>
    JSON.stringify({ id, question: [[{ role: "user", content }]], function: [fn] });
  writeFileSync(
    join(dir, "BFCL_v4_irrelevance.json"),
    item("irrelevance_0", "What is the capital of France?") + "\n",
  );
  writeFileSync(
    join(dir, "BFCL_v4_simple_python.json"),
    item("simple_python_0", "5!") + "\n" + item("simple_python_1", "6!") + "\n",
  );
  writeFileSync(
    join(dir, "possible_answer", "BFCL_v4_simple_python.json"),
    [
      JSON.stringify({ id: "simple_python_0", ground_truth: [{ "math.factorial": { number: [5] } }] }),
      JSON.stringify({ id: "simple_python_1", ground_truth: [{ "math.factorial": { number: [6] } }] }),
    ].join("\n") + "\n",
  );
  const replies = join(dir, "replies.json");
  writeFileSync(
    replies,
    JSON.stringify([
      { content: "", tool_calls: [{ name: "math.factorial", arguments: { number: 1 } }] }, // irrelevance: wrong
      { content: "", tool_calls: [{ name: "math.factorial", arguments: { number: 5 } }] }, // right
      { content: "", tool_calls: [{ name: "math.factorial", arguments: { number: "six" } }] }, // wrong type
    ]),
  );
  return { dir, replies };
}

describe("toolgen eval bfcl --model", () => {
  it("runs a model through the checker and prints {accuracy, total, by_category}", async () => {
    const { dir, replies } = fixture();
    const { stdout } = await run(process.execPath, [
      BIN,
      "eval",
      "bfcl",
      "--data",
      dir,
      "--model",
      `scripted:${replies}`,
      "--json",
    ]);
    const json = JSON.parse(stdout);
    expect(json).toMatchObject({
      accuracy: 33.33,
      total: 3,
      by_category: { irrelevance: { correct: 0, total: 1 }, simple_python: { correct: 1, total: 2 } },
    });
    expect(json.failed_ids).toEqual(["irrelevance_0", "simple_python_1"]);
  });
});
