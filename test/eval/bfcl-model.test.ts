import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BfclModelAbortError, evaluateBfclModel, evaluateBfclOracle } from "../../src/eval/bfcl.ts";
import { resolveModel } from "../../src/models/resolve.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";

const run = promisify(execFile);
const BIN = join(import.meta.dirname, "../../bin/toolgen.mjs");
const RELEVANCE = join(import.meta.dirname, "../fixtures/bfcl/relevance");

/** Runs the CLI and returns its exit code and output, whether it succeeds or not. */
async function toolgen(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

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

describe("toolgen eval bfcl on relevance and irrelevance (fixture in BFCL's format)", () => {
  it("scores relevance on any call, irrelevance on no call, and computes the v4 summary", async () => {
    const model = ScriptedModel.fromFile(join(RELEVANCE, "replies.json"));
    const report = await evaluateBfclModel(RELEVANCE, model);
    const json = { ...report, failed_ids: report.failures.map((f) => f.id) };
    expect(json.by_category).toMatchObject({
      irrelevance: { correct: 1, total: 1 },
      live_irrelevance: { correct: 1, total: 2 },
      live_relevance: { correct: 1, total: 2 },
      live_simple: { correct: 1, total: 2 },
      live_multiple: { correct: 1, total: 1 },
    });
    expect(json.bfcl_v4).toMatchObject({
      live: { accuracy: 66.67, total: 3, missing: ["live_parallel", "live_parallel_multiple"] },
      irrelevance: { accuracy: 75, total: 3, missing: [] },
      relevance: { accuracy: 50, total: 2 },
      non_live: { accuracy: null },
    });
    expect(json.failed_ids).toEqual(["live_irrelevance_1-1-0", "live_relevance_1-1-0", "live_simple_1-1-0"]);
  });

  it("the oracle passes every item in every format and every flipped reply is rejected", () => {
    const report = evaluateBfclOracle(RELEVANCE);
    expect(report.failures).toEqual([]);
    expect(report.accuracy).toBe(100);
    expect(report.mutations?.relevance_flip).toEqual({ applied: 5, rejected: 5 });
    expect(report.bfcl_v4.relevance.accuracy).toBe(100);
  });
});

describe("toolgen eval bfcl --model against a broken server", () => {
  const args = (url: string, extra: string[]) => [
    "eval",
    "bfcl",
    "--data",
    RELEVANCE,
    "--model",
    `openai:some-model@${url}`,
    ...extra,
  ];

  it("stops after N model errors in a row, exits 1 with one line on stderr, keeps the partial report", async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      req.resume();
      res
        .writeHead(404, { "content-type": "text/html" })
        .end("<html><body>\n<h1>Not Found</h1>\n</body></html>");
    });
    const port = await listen(server);
    const report = join(mkdtempSync(join(tmpdir(), "bfcl-")), "report.json");
    try {
      const { code, stdout, stderr } = await toolgen(
        args(`http://127.0.0.1:${port}/v1`, ["--max-consecutive-errors", "3", "--report", report, "--json"]),
      );
      expect(code).toBe(1);
      expect(requests).toBe(3); // 404 is not retried; the fourth item is never asked
      const lines = stderr.trimEnd().split("\n");
      expect(lines.at(-1)).toMatch(
        /^toolgen eval bfcl: stopped after 3 model errors in a row \(3\/8 items done\); last: .*404/,
      );
      expect(stderr).toMatch(/eval bfcl: 1\/8 items/); // progress
      expect(stderr).toMatch(/model error on live_irrelevance_0-0-0 \(2 in a row\)/);
      expect(JSON.parse(stdout)).toMatchObject({
        error: expect.stringMatching(/stopped after 3/),
        total: 3,
        correct: 0,
      });
      expect(JSON.parse(readFileSync(report, "utf8")).failures).toHaveLength(3);
    } finally {
      server.close();
    }
  });

  it("stops on a dead port too (in process, without the retries' back-off)", async () => {
    const probe = createServer();
    const port = await listen(probe);
    await new Promise((resolve) => probe.close(resolve)); // nothing listens there now
    const model = await resolveModel(`openai:some-model@http://127.0.0.1:${port}/v1`, { maxRetries: 0 });
    const errors: number[] = [];
    const run = evaluateBfclModel(RELEVANCE, model, {
      maxConsecutiveErrors: 2,
      onModelError: (_id, _message, inARow) => errors.push(inARow),
    });
    await expect(run).rejects.toThrow(BfclModelAbortError);
    await expect(run).rejects.toThrow(
      /stopped after 2 model errors in a row \(2\/8 items done\); last: .*cannot reach/,
    );
    expect(errors).toEqual([1, 2]);
  });

  it("refuses a bad --max-consecutive-errors before starting", async () => {
    const bad = await toolgen(args("http://127.0.0.1:9/v1", ["--max-consecutive-errors", "many"]));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'toolgen eval bfcl: --max-consecutive-errors must be a whole number ≥ 0 (0 = never stop), got "many"\n',
    );
  });
});
