/**
 * The demo model on questions it never saw, run end to end through the ToolGen agent exactly as `toolgen demo`
 * runs them:
 * - the hand-written held-out set (src/demo/held-out/handwritten.json: questions a person typed, never trained on):
 *   correct answers (src/demo/grading.ts), right first tool choice, and BM25 over the tool descriptions picking
 *   the tool (`toolgen retrieve --retriever bm25 -k 1`) beside it;
 * - its off-topic questions: the share the model declines (Finish with give_up_and_restart);
 * - the hand-written dev questions: off-topic (src/demo/held-out/handwritten-dev.json), the same share, and
 *   on-topic (handwritten-dev-questions.json), correct answers and right first tool: these may choose
 *   among models, the test set's may not;
 * - the generated held-out split (demo generator, seed 1001, training questions excluded): right first tool,
 *   right first arguments, correct answer;
 * - latency per question (p50, p95) and the load of the machine while it ran.
 *
 * Usage: npm run bench:demo [-- --name NAME] [-- --arguments MODE[,MODE…]] [-- --dir DIR] [-- --handwritten FILE]
 *   writes bench/results/NAME.json (default "demo"); --arguments: how the arguments turns are decoded, each
 *   mode measured in turn in the same run (side by side under the same load; default
 *   "json-schema+copy,json-schema"): json-schema+copy (`toolgen demo`'s default: the schema, free strings and
 *   numbers copied from the conversation), json-schema (the schema alone), candidates (`toolgen demo
 *   --candidates`, the first demo's crutch), free (no constraint); --dir DIR: measure a demo model folder
 *   trained elsewhere instead of the committed one; --handwritten FILE: another hand-written set in the same
 *   format (src/demo/held-out/handwritten-2.json, written after the fourth round's rules were fixed); --dev: the
 *   dev sets only (the generated held-out split and the hand-written dev off-topic questions), with every generated
 *   answer recorded, so that a rule can be chosen and its failures read without running the test sets;
 *   --word-prior bm25|naive-bayes and --lexical-weight W|off: what weighs the model's likeliest tools, and by
 *   how much (off: the model's likeliest action alone); --schema-beams N [--beam-per-token]: the tools'
 *   arguments decoded by a beam search (src/constrain/beam.ts) instead of greedily; --policy SPEC: the language
 *   policy of the copy constraint (src/constrain/policy.ts: english, the default; neutral; "neutral+dates",
 *   "english-pointing": families numbers, dates, pointing, properties added or taken away); --skip-generated:
 *   the generated held-out split not run (ablations on the hand-written sets).
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { writeBenchResult } from "./lib/result.ts";
import { isCorrectAnswer, isSameCall, resultPart, type HandwrittenSet } from "../src/demo/grading.ts";
import {
  demoData,
  HELD_OUT_PER_TOOL,
  openDemoModel,
  handwrittenDevSet,
  prepareDemoModel,
  withSandbox,
} from "../src/demo/model.ts";
import { createDemoRunner, type DemoAnswer, type DemoArgumentsDecoding } from "../src/demo/runner.ts";
import { quantile } from "../src/eval/metrics.ts";
import { createRetriever } from "../src/retrieval/create.ts";
import {
  actionDecodingWords,
  DEMO_DECLINE_WITHOUT_EVIDENCE,
  DEMO_ENUM_WEIGHT,
  DEMO_EVIDENCE_BEAMS,
  DEMO_NEXT_CALL_NEEDS,
  DEMO_OVERRIDE_DECLINE_AT,
  DEMO_PRIOR_WEIGHTS,
  DEMO_WORD_PRIOR,
  demoActionDecoder,
  WORD_PRIORS,
  type WordPriorKind,
} from "../src/demo/action-prior.ts";
import { executeToolCall } from "../src/tools/execute.ts";
import { policyFrom, type LanguagePolicy } from "../src/constrain/policy.ts";

const MODES = ["json-schema+copy", "json-schema", "candidates", "free"] as const;
type Mode = (typeof MODES)[number];
const DEFAULT_MODES = "json-schema+copy,json-schema";
const { values: args } = parseArgs({
  options: {
    name: { type: "string", default: "demo" },
    arguments: { type: "string", default: DEFAULT_MODES },
    dir: { type: "string" },
    handwritten: { type: "string" },
    dev: { type: "boolean", default: false },
    "lexical-weight": { type: "string" },
    "schema-beams": { type: "string", default: "1" },
    "beam-per-token": { type: "boolean", default: false },
    "decline-gate": { type: "string" },
    "word-prior": { type: "string" },
    "override-decline-at": { type: "string" },
    "next-call-needs": { type: "string" },
    "enum-weight": { type: "string" },
    "evidence-beams": { type: "string" },
    policy: { type: "string", default: "english" },
    "skip-generated": { type: "boolean", default: false },
  },
});
const modes = args.arguments!.split(",") as Mode[];
for (const mode of modes) {
  if (!MODES.includes(mode)) {
    process.stderr.write(
      `bench:demo: --arguments takes ${MODES.join(", ")} (comma-separated), got ${mode}\n`,
    );
    process.exit(1);
  }
}
// --policy SPEC: what the copy constraint knows of English and of property names (src/constrain/policy.ts):
// english (default), neutral (schema + copy constraint only), or families added or taken away
// ("neutral+numbers", "english-dates"; families: numbers, dates, pointing, properties).
let policy: LanguagePolicy;
try {
  policy = policyFrom(args.policy!);
} catch (error) {
  process.stderr.write(`bench:demo: --policy: ${(error as Error).message}\n`);
  process.exit(1);
}
const load = [loadavg()];
// --dir: a demo model trained elsewhere (e.g. with other settings) instead of the one `toolgen demo` uses.
const { dir, committed } = args.dir
  ? { dir: args.dir, committed: false }
  : await prepareDemoModel({ log: (l) => process.stderr.write(l + "\n") });
const data = await demoData();
const set = JSON.parse(
  readFileSync(args.handwritten ?? new URL("../src/demo/held-out/handwritten.json", import.meta.url), "utf8"),
) as HandwrittenSet;
const devSet = handwrittenDevSet();
// 70 more off-topic dev questions, written for choosing the decline gate.
const offTopicDev2 = (
  JSON.parse(
    readFileSync(new URL("../src/demo/held-out/handwritten-dev-off-topic-2.json", import.meta.url), "utf8"),
  ) as { offTopic: string[] }
).offTopic;
// Hand-written on-topic dev questions (written after the fifth round's rules were chosen).
const devQuestions = (
  JSON.parse(
    readFileSync(new URL("../src/demo/held-out/handwritten-dev-questions.json", import.meta.url), "utf8"),
  ) as Pick<HandwrittenSet, "questions">
).questions;
const devOnly = args.dev!;
// The demo's action decoding (the model's 5 likeliest tools weighed by BM25, src/demo/action-prior.ts);
// --lexical-weight W: another weight; "off": the model's likeliest action alone.
// --word-prior bm25|naive-bayes: what weighs the model's likeliest tools (default: the demo's).
const prior = (args["word-prior"] ?? DEMO_WORD_PRIOR) as WordPriorKind;
if (!WORD_PRIORS.includes(prior)) {
  process.stderr.write(`bench:demo: --word-prior takes ${WORD_PRIORS.join(" or ")}, got ${prior}\n`);
  process.exit(1);
}
const weightArg = args["lexical-weight"] ?? String(DEMO_PRIOR_WEIGHTS[prior]);
const lexicalWeight = weightArg === "off" ? undefined : Number(weightArg);
if (lexicalWeight !== undefined && !(lexicalWeight >= 0)) {
  process.stderr.write(`bench:demo: --lexical-weight takes a number ≥ 0 or off, got ${weightArg}\n`);
  process.exit(1);
}
// --schema-beams N: the arguments turns decoded by a beam search of N beams (1: greedy, the default);
// --beam-per-token: its finished values compared by mean log-probability per token.
const schemaBeams = Number(args["schema-beams"]);
if (!Number.isInteger(schemaBeams) || schemaBeams < 1) {
  process.stderr.write(`bench:demo: --schema-beams takes a positive integer, got ${args["schema-beams"]}\n`);
  process.exit(1);
}
// --decline-gate on|off: decline questions without lexical evidence (action-prior.ts); default: the demo's.
const gateArg = args["decline-gate"];
if (gateArg !== undefined && gateArg !== "on" && gateArg !== "off") {
  process.stderr.write(`bench:demo: --decline-gate takes on or off, got ${gateArg}\n`);
  process.exit(1);
}
const declineGate = gateArg === undefined ? DEMO_DECLINE_WITHOUT_EVIDENCE : gateArg === "on";
// --override-decline-at P|off: the Naive Bayes probability at which a first decline gives way (action-prior.ts).
const overrideArg = args["override-decline-at"];
if (
  overrideArg !== undefined &&
  overrideArg !== "off" &&
  !(Number(overrideArg) > 0 && Number(overrideArg) <= 1)
) {
  process.stderr.write(
    `bench:demo: --override-decline-at takes a probability in (0, 1] or off, got ${overrideArg}\n`,
  );
  process.exit(1);
}
// --next-call-needs P|off: the Naive Bayes probability a tool needs after a call that worked (action-prior.ts).
const nextArg = args["next-call-needs"];
if (nextArg !== undefined && nextArg !== "off" && !(Number(nextArg) > 0 && Number(nextArg) <= 1)) {
  process.stderr.write(
    `bench:demo: --next-call-needs takes a probability in (0, 1] or off, got ${nextArg}\n`,
  );
  process.exit(1);
}
const nextCallNeeds =
  prior !== "naive-bayes"
    ? undefined
    : nextArg === undefined
      ? DEMO_NEXT_CALL_NEEDS
      : nextArg === "off"
        ? undefined
        : Number(nextArg);
// --enum-weight W: how much the question's enum values weigh a tool (action-prior.ts; 0: not at all).
if (args["enum-weight"] !== undefined && !(Number(args["enum-weight"]) >= 0)) {
  process.stderr.write(`bench:demo: --enum-weight takes a number ≥ 0, got ${args["enum-weight"]}\n`);
  process.exit(1);
}
// --evidence-beams N: how many of the model's likeliest actions the enum evidence may reach (action-prior.ts).
if (
  args["evidence-beams"] !== undefined &&
  !(Number.isInteger(Number(args["evidence-beams"])) && Number(args["evidence-beams"]) >= 0)
) {
  process.stderr.write(`bench:demo: --evidence-beams takes an integer ≥ 0, got ${args["evidence-beams"]}\n`);
  process.exit(1);
}
// --skip-generated: the generated held-out split is not run (an ablation on the hand-written sets alone).
const generatedSet = args["skip-generated"] ? [] : data.heldOut;
// --dev: the hand-written test sets are not run at all.
const testQuestions = devOnly ? [] : set.questions;
const testOffTopic = devOnly ? [] : set.offTopic;
const bm25 = await createRetriever("bm25", { catalog: data.catalog });
const bm25Picks: (string | null)[] = [];
for (const q of devOnly ? [] : set.questions)
  bm25Picks.push((await bm25.search(q.question, { k: 1 }))[0]?.id ?? null);

const pct = (n: number, of: number) => Math.round((1000 * n) / of) / 10;
const ms = (a: DemoAnswer) => Math.round(a.seconds * 1000);
const n = testQuestions.length;
const count = (rows: Record<string, unknown>[], f: (r: Record<string, unknown>) => boolean) =>
  rows.filter(f).length;
let done = 0;
const total =
  (testQuestions.length +
    testOffTopic.length +
    devSet.offTopic.length +
    offTopicDev2.length +
    devQuestions.length +
    generatedSet.length) *
  modes.length;
const tick = () => process.stderr.write(`\r${++done}/${total}`);

/** One decoding mode over the three sets: the summary figures and every hand-written and off-topic answer. */
async function measure(mode: Mode) {
  const opened = openDemoModel(dir, mode === "candidates", {
    schemaBeams,
    schemaBeamsPerToken: args["beam-per-token"]!,
  });
  const { chat } = opened;
  const actions =
    lexicalWeight === undefined
      ? undefined
      : demoActionDecoder(opened, data.catalog, {
          prior,
          weight: lexicalWeight,
          declineWithoutEvidence: declineGate,
          training: data.train,
          ...(args["override-decline-at"] !== undefined
            ? {
                overrideDeclineAt:
                  args["override-decline-at"] === "off" ? undefined : Number(args["override-decline-at"]),
              }
            : {}),
          nextCallNeeds,
          ...(args["enum-weight"] !== undefined ? { enumWeight: Number(args["enum-weight"]) } : {}),
          ...(args["evidence-beams"] !== undefined ? { evidenceBeams: Number(args["evidence-beams"]) } : {}),
        });
  const runner = createDemoRunner({
    ...(actions ? { actions } : {}),
    model: chat,
    catalog: data.catalog,
    tools: data.tools,
    write: () => {},
    arguments: (mode === "candidates" ? "free" : mode) as DemoArgumentsDecoding,
    policy,
  });
  const handwritten: Record<string, unknown>[] = [];
  const offTopic: Record<string, unknown>[] = [];
  const offTopicDev: Record<string, unknown>[] = [];
  const handwrittenDev: Record<string, unknown>[] = [];
  // in a sandbox of their own: their expected answers are those of a fresh one, in file order
  await withSandbox(async () => {
    for (const q of devQuestions) {
      const got = await runner.ask(q.question);
      handwrittenDev.push({
        question: q.question,
        tool: q.tool,
        first_tool: got.calls[0]?.tool ?? null,
        first_arguments: got.calls[0]?.arguments ?? null,
        answer: got.answer,
        declined: got.declined,
        correct: isCorrectAnswer(got.answer, q),
      });
      tick();
    }
  });
  const generated = { action: 0, args: 0, answer: 0 };
  const generatedAnswers: Record<string, unknown>[] = [];
  const latencies: number[] = [];
  const generatedLatencies: number[] = [];
  await withSandbox(async () => {
    for (const [i, q] of testQuestions.entries()) {
      const got = await runner.ask(q.question);
      latencies.push(ms(got));
      handwritten.push({
        question: q.question,
        tool: q.tool,
        first_tool: got.calls[0]?.tool ?? null,
        first_arguments: got.calls[0]?.arguments ?? null,
        bm25: bm25Picks[i],
        answer: got.answer,
        declined: got.declined,
        correct: isCorrectAnswer(got.answer, q),
      });
      tick();
    }
    for (const question of testOffTopic) {
      const got = await runner.ask(question);
      latencies.push(ms(got));
      offTopic.push({
        question,
        declined: got.declined,
        answer: got.answer,
        first_tool: got.calls[0]?.tool ?? null,
      });
      tick();
    }
    for (const question of [...devSet.offTopic, ...offTopicDev2]) {
      const got = await runner.ask(question);
      offTopicDev.push({ question, declined: got.declined, first_tool: got.calls[0]?.tool ?? null });
      tick();
    }
    for (const [i, q] of generatedSet.entries()) {
      const got = await runner.ask(q.query);
      generatedLatencies.push(ms(got));
      const first = got.calls[0];
      if (first?.tool === q.tool) generated.action++;
      if (isSameCall(data.tools, first, { tool: q.tool!, arguments: q.arguments })) generated.args++;
      const truth = await executeToolCall(
        { id: `t${i}`, type: "function", function: { name: q.tool!, arguments: q.arguments } },
        data.tools,
      );
      const correct =
        truth.ok && isCorrectAnswer(got.answer, { answer: truth.content, key: resultPart(truth.content) });
      if (correct) generated.answer++;
      if (devOnly)
        generatedAnswers.push({
          question: q.query,
          tool: q.tool,
          arguments: q.arguments,
          first_tool: first?.tool ?? null,
          first_arguments: first?.arguments ?? null,
          answer: got.answer,
          declined: got.declined,
          correct,
        });
      tick();
    }
  });
  const testFigures = {
    handwritten: {
      questions: n,
      answer_correct_pct: pct(
        count(handwritten, (r) => r.correct === true),
        n,
      ),
      first_tool_correct_pct: pct(
        count(handwritten, (r) => r.first_tool === r.tool),
        n,
      ),
      bm25_top1_tool_correct_pct: pct(
        count(handwritten, (r) => r.bm25 === r.tool),
        n,
      ),
      declined_pct: pct(
        count(handwritten, (r) => r.declined === true),
        n,
      ),
    },
    off_topic: {
      questions: set.offTopic.length,
      declined_pct: pct(
        count(offTopic, (r) => r.declined === true),
        set.offTopic.length,
      ),
    },
  };
  return {
    summary: {
      arguments_decoding: mode,
      policy: policy.name,
      action_decoding:
        lexicalWeight === undefined
          ? "the model's likeliest action"
          : actionDecodingWords(
              prior,
              lexicalWeight,
              declineGate,
              args["override-decline-at"] === undefined
                ? prior === "naive-bayes"
                  ? DEMO_OVERRIDE_DECLINE_AT
                  : undefined
                : args["override-decline-at"] === "off"
                  ? undefined
                  : Number(args["override-decline-at"]),
              nextCallNeeds,
              args["enum-weight"] !== undefined ? Number(args["enum-weight"]) : DEMO_ENUM_WEIGHT,
              args["evidence-beams"] !== undefined ? Number(args["evidence-beams"]) : DEMO_EVIDENCE_BEAMS,
            ),
      ...(devOnly ? {} : testFigures),
      off_topic_dev: {
        questions: devSet.offTopic.length,
        declined_pct: pct(
          count(offTopicDev.slice(0, devSet.offTopic.length), (r) => r.declined === true),
          devSet.offTopic.length,
        ),
      },
      off_topic_dev_2: {
        questions: offTopicDev2.length,
        declined_pct: pct(
          count(offTopicDev.slice(devSet.offTopic.length), (r) => r.declined === true),
          offTopicDev2.length,
        ),
      },
      ...(devQuestions.length > 0
        ? {
            handwritten_dev: {
              questions: devQuestions.length,
              answer_correct_pct: pct(
                count(handwrittenDev, (r) => r.correct === true),
                devQuestions.length,
              ),
              first_tool_correct_pct: pct(
                count(handwrittenDev, (r) => r.first_tool === r.tool),
                devQuestions.length,
              ),
              declined_pct: pct(
                count(handwrittenDev, (r) => r.declined === true),
                devQuestions.length,
              ),
            },
          }
        : {}),
      ...(generatedSet.length === 0
        ? {}
        : {
            generated_held_out: {
              questions: data.heldOut.length,
              split: `demo generator, seed 1001, ${HELD_OUT_PER_TOOL} per tool, training questions excluded`,
              first_tool_correct_pct: pct(generated.action, data.heldOut.length),
              first_call_arguments_correct_pct: pct(generated.args, data.heldOut.length),
              answer_correct_pct: pct(generated.answer, data.heldOut.length),
            },
          }),
      latency_ms: {
        ...(devOnly
          ? {}
          : {
              handwritten_and_off_topic_p50: quantile(latencies, 0.5),
              handwritten_and_off_topic_p95: quantile(latencies, 0.95),
            }),
        ...(generatedSet.length === 0
          ? {}
          : {
              generated_p50: quantile(generatedLatencies, 0.5),
              generated_p95: quantile(generatedLatencies, 0.95),
            }),
      },
    },
    answers: devOnly
      ? { off_topic_dev: offTopicDev, handwritten_dev: handwrittenDev, generated: generatedAnswers }
      : { handwritten, off_topic: offTopic, off_topic_dev: offTopicDev, handwritten_dev: handwrittenDev },
  };
}

const measured = [];
for (const mode of modes) measured.push(await measure(mode));
process.stderr.write("\n");
load.push(loadavg());

const flags = [
  ...(args.name === "demo" ? [] : [`--name ${args.name}`]),
  ...(args.arguments === DEFAULT_MODES ? [] : [`--arguments ${args.arguments}`]),
  ...(args.dir ? [`--dir ${args.dir}`] : []),
  ...(args.handwritten ? [`--handwritten ${args.handwritten}`] : []),
  ...(devOnly ? ["--dev"] : []),
  ...(args["lexical-weight"] ? [`--lexical-weight ${args["lexical-weight"]}`] : []),
  ...(schemaBeams > 1 ? [`--schema-beams ${schemaBeams}`] : []),
  ...(args["beam-per-token"] ? ["--beam-per-token"] : []),
  ...(gateArg ? [`--decline-gate ${gateArg}`] : []),
  ...(args["word-prior"] ? [`--word-prior ${args["word-prior"]}`] : []),
  ...(args["override-decline-at"] ? [`--override-decline-at ${args["override-decline-at"]}`] : []),
  ...(nextArg ? [`--next-call-needs ${nextArg}`] : []),
  ...(args["enum-weight"] ? [`--enum-weight ${args["enum-weight"]}`] : []),
  ...(args["evidence-beams"] ? [`--evidence-beams ${args["evidence-beams"]}`] : []),
  ...(args.policy !== "english" ? [`--policy ${args.policy}`] : []),
  ...(args["skip-generated"] ? ["--skip-generated"] : []),
];
writeBenchResult(args.name!, `npm run bench:demo${flags.length ? ` -- ${flags.join(" ")}` : ""}`, {
  model: committed ? "models/demo (committed)" : dir,
  handwritten_set: devOnly ? "not run (--dev)" : (args.handwritten ?? "src/demo/held-out/handwritten.json"),
  load_average_1_5_15_before_after: load.map((l) => l.map((x) => Math.round(x * 100) / 100)),
  ...(devOnly
    ? {}
    : {
        bm25_handwritten_top1_tool_correct_pct: pct(
          set.questions.filter((q, i) => bm25Picks[i] === q.tool).length,
          n,
        ),
      }),
  configurations: measured.map((m) => m.summary),
  answers: Object.fromEntries(measured.map((m, i) => [modes[i], m.answers])),
});
