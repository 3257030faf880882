import { createInterface } from "node:readline";
import type { Command } from "commander";
import type { ChatModel } from "../models/model.ts";
import { resolveModel } from "../models/resolve.ts";
import { demoCatalog, demoTools } from "../demo/catalog.ts";
import {
  COMMITTED_DEMO_MODEL,
  demoData,
  ensureDemoModel,
  openDemoModel,
  prepareDemoModel,
  rebuildCommittedDemoModel,
  withSandbox,
} from "../demo/model.ts";
import { isCorrectAnswer } from "../demo/grading.ts";
import { actionDecodingWords, demoActionDecoder } from "../demo/action-prior.ts";
import type { ActionDecoder } from "../agents/toolgen.ts";
import { SHOWN_QUESTIONS, type DemoTruth } from "../demo/questions.ts";
import { createDemoRunner, type DemoAnswer, type DemoArgumentsDecoding } from "../demo/runner.ts";
import { ToolgenError } from "../errors.ts";
import { runAction } from "./run-action.ts";

interface DemoCliOptions {
  interactive?: boolean;
  model?: string;
  dir?: string;
  rebuild?: boolean;
  freeArguments?: boolean;
  candidates?: boolean;
  argumentsConstraint?: string;
  json?: boolean;
  modelActions?: boolean;
}

const ARGUMENTS_CONSTRAINTS = ["json-schema+copy", "json-schema"] as const;

/** `toolgen demo [--interactive] [--model SPEC]` — `npm start`. */
export function register(program: Command): void {
  program
    .command("demo")
    .description(
      "load the committed demo ToolGen model (or retrain it when the catalog changed) and answer questions with the demo's 67 tools",
    )
    .option("--interactive", "ask your own questions (a REPL; /exit quits)")
    .option(
      "--model <spec>",
      "use this model instead of the built-in demo model (openai:MODEL@BASEURL, builtin:DIR …)",
    )
    .option(
      "--dir <dir>",
      "train (or reuse) the demo model in this folder instead of using the committed one",
    )
    .option(
      "--rebuild",
      `retrain the committed demo model in ${COMMITTED_DEMO_MODEL} (deterministic; npm run demo:model)`,
    )
    .option(
      "--arguments-constraint <kind>",
      "how the model writes arguments and final answers: json-schema+copy (default: under the tool's JSON Schema, or the Finish schema, with free strings and numbers copied from the question, or for the final answer the last tool result whole) or json-schema (the schema alone)",
    )
    .option(
      "--free-arguments",
      "let the model write arguments and final answers with no constraint (default: under the tool's JSON Schema)",
    )
    .option(
      "--candidates",
      "the old demo's crutch, not the default: the built-in model picks its arguments and final answer among candidates built from the question and the tools' results",
    )
    .option(
      "--model-actions",
      "take the built-in model's likeliest action alone (default: its 5 likeliest tools weighed by the question's words, BM25 over the tool descriptions)",
    )
    .option(
      "--json",
      "print JSON instead of the readable steps: one object with every answer, or with --interactive one object per question line read from stdin",
    )
    .action(
      runAction(async (opts: DemoCliOptions) => {
        process.exitCode = await runDemo(opts);
      }),
    );
}

async function runDemo(opts: DemoCliOptions): Promise<number> {
  const err = (line: string) => process.stderr.write(line + "\n");
  if (opts.rebuild) {
    const manifest = await rebuildCommittedDemoModel(err);
    process.stdout.write(
      `${COMMITTED_DEMO_MODEL}: ${manifest.done.map((r) => `${r.stage} ${r.steps} steps, loss ${r.finalLoss.toFixed(4)}`).join("; ")}\n`,
    );
    return 0;
  }
  if (opts.candidates && (opts.freeArguments || opts.model)) {
    throw new ToolgenError(
      "invalid_option",
      "--candidates applies to the built-in demo model with constrained arguments only",
    );
  }
  const asked = opts.argumentsConstraint;
  if (asked !== undefined && !(ARGUMENTS_CONSTRAINTS as readonly string[]).includes(asked)) {
    throw new Error(`--arguments-constraint must be ${ARGUMENTS_CONSTRAINTS.join(" or ")}, got ${asked}`);
  }
  if (asked !== undefined && (opts.freeArguments || opts.candidates)) {
    throw new Error("--arguments-constraint cannot be combined with --free-arguments or --candidates");
  }
  const decoding: DemoArgumentsDecoding =
    opts.freeArguments || opts.candidates ? "free" : ((asked as DemoArgumentsDecoding) ?? "json-schema+copy");
  const writes =
    decoding === "json-schema+copy"
      ? "it writes the arguments itself under the tool's JSON Schema, copying free strings and numbers from the question, and its final answer under the Finish schema: the last tool result whole"
      : "it writes the arguments itself under the tool's JSON Schema and its final answer under the Finish schema";
  const [tools, catalog] = await Promise.all([demoTools(), demoCatalog()]);
  let model: ChatModel;
  let how: string;
  let actions: { decode: ActionDecoder; how: string } | undefined;
  const actionWords = opts.modelActions
    ? "the action is its choice among the tool tokens and <<Finish>>"
    : `the action is ${actionDecodingWords()}`;
  if (opts.model) {
    model = await resolveModel(opts.model);
    how = `${opts.model}: the action turn asks for a choice among the tool tokens, the arguments turns for the tool's JSON Schema (or the Finish schema)${decoding === "json-schema+copy" ? " with values copied from the conversation" : ""}; a backend that cannot enforce one is asked with less, or freely`;
  } else {
    const started = performance.now();
    const { dir, trained, manifest } = opts.dir
      ? await ensureDemoModel({ dir: opts.dir, log: err })
      : await prepareDemoModel({ log: err });
    const seconds = trained
      ? `trained in ${((performance.now() - started) / 1000).toFixed(0)} s`
      : `loaded (its training took ${manifest.done.map((r) => `${r.stage} ${r.seconds.toFixed(0)} s`).join(", ")})`;
    err(`toolgen demo: ${tools.length} tools; model ${dir} ${seconds}`);
    const opened = openDemoModel(dir, opts.candidates === true);
    model = opened.chat;
    if (!opts.modelActions)
      actions = demoActionDecoder(opened, catalog, { training: (await demoData()).train });
    how = opts.candidates
      ? `the built-in demo model; ${actionWords}, the arguments and final answer its choice among candidates built from the question and the tools' results (--candidates)`
      : opts.freeArguments
        ? `the built-in demo model; ${actionWords}; it writes everything else itself with no constraint (--free-arguments)`
        : `the built-in demo model; ${actionWords}; ${writes}; thoughts are free`;
  }
  const color = !opts.json && process.stdout.isTTY === true;
  const runner = createDemoRunner({
    model,
    catalog,
    tools,
    color,
    arguments: decoding,
    ...(actions ? { actions } : {}),
    write: opts.json ? () => {} : (t) => process.stdout.write(t),
  });
  if (!opts.json) process.stdout.write(`Model: ${how}\n`);
  return withSandbox(async (dir) => {
    if (!opts.json) process.stdout.write(`File tools work in a fresh sandbox folder: ${dir}/files\n`);
    if (opts.interactive) return opts.json ? jsonLines(runner.ask) : repl(runner.ask);
    const answers: (DemoAnswer & { correct: boolean })[] = [];
    for (const q of SHOWN_QUESTIONS) {
      const got = await runner.ask(q.question);
      answers.push({ ...got, correct: judge(got, q.truth) });
    }
    if (opts.json) process.stdout.write(JSON.stringify({ answers }) + "\n");
    else process.stdout.write(`\n${summary(answers, SHOWN_QUESTIONS)}\n`);
    return 0;
  });
}

/** Right when the truth is an answer and the model stated it, or when the question must be declined and was. */
function judge(got: DemoAnswer, truth: DemoTruth): boolean {
  return truth === null ? got.declined : isCorrectAnswer(got.answer, truth);
}

function summary(answers: (DemoAnswer & { correct: boolean })[], shown: typeof SHOWN_QUESTIONS): string {
  const onTopic = answers.filter((_, i) => shown[i]!.truth !== null);
  const offTopic = answers.filter((_, i) => shown[i]!.truth === null);
  const right = onTopic.filter((a) => a.correct).length;
  const declinedWrongly = onTopic.filter((a) => a.declined).length;
  return (
    `${right} of ${onTopic.length} questions answered correctly (the expected answer is known for each)` +
    (declinedWrongly > 0 ? `, ${declinedWrongly} declined` : "") +
    `; ${offTopic.filter((a) => a.correct).length} of ${offTopic.length} off-topic question(s) declined.`
  );
}

/** The JSON line `--interactive --json` prints for one question. */
export function answerLine(a: DemoAnswer): string {
  return JSON.stringify({
    question: a.question,
    answer: a.answer,
    declined: a.declined,
    stoppedBecause: a.stoppedBecause,
    steps: a.calls,
    constrained: a.constrained,
    seconds: Math.round(a.seconds * 1000) / 1000,
  });
}

/** `--interactive --json`: one question per stdin line, one JSON object per stdout line; no prompts. */
async function jsonLines(ask: (q: string) => Promise<DemoAnswer>): Promise<number> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    const text = line.trim();
    if (text === "") continue;
    if (text === "/exit" || text === "/quit") break;
    process.stdout.write(answerLine(await ask(text)) + "\n");
  }
  rl.close();
  return 0;
}

async function repl(ask: (q: string) => Promise<unknown>): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  process.stderr.write(`Ask a question (e.g. "${SHOWN_QUESTIONS[0]!.question}"); /exit quits.\n> `);
  for await (const line of rl) {
    const text = line.trim();
    if (text === "/exit" || text === "/quit") break;
    if (text !== "") await ask(text);
    process.stderr.write("> ");
  }
  rl.close();
  return 0;
}
