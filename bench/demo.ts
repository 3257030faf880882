/**
 * The demo model on questions it never saw: the held-out split of the demo generator (seed 1001, 2 questions per
 * tool, none equal to a training question), run end to end through the ToolGen agent exactly as `toolgen demo`
 * runs them. Reports how often the first action names the right tool, the first call's arguments are the
 * question's, and the final answer equals the right tool's real output; per-question latency; and NDCG of the
 * model's tool ranking in the short retrieval prompt against BM25 on the same questions.
 */
import { writeBenchResult } from "./lib/result.ts";
import { demoData, openDemoModel, prepareDemoModel, withSandbox } from "../src/demo/model.ts";
import { createDemoRunner } from "../src/demo/runner.ts";
import { ndcgAtK, quantile } from "../src/eval/metrics.ts";
import { createRetriever } from "../src/retrieval/create.ts";
import { executeToolCall } from "../src/tools/execute.ts";

const { dir, committed } = await prepareDemoModel({ log: (l) => process.stderr.write(l + "\n") });
const data = await demoData();
const { chat } = openDemoModel(dir);
const runner = createDemoRunner({ model: chat, catalog: data.catalog, tools: data.tools, write: () => {} });
const questions = data.heldOut;
let action = 0;
let args = 0;
let answer = 0;
const latencies: number[] = [];
await withSandbox(async () => {
  for (const [i, q] of questions.entries()) {
    const got = await runner.ask(q.query);
    latencies.push(Math.round(got.seconds * 1000));
    const first = got.calls[0];
    if (first?.tool === q.tool) action++;
    if (first?.tool === q.tool && JSON.stringify(first.arguments) === JSON.stringify(q.arguments)) args++;
    const truth = await executeToolCall(
      { id: `t${i}`, type: "function", function: { name: q.tool, arguments: q.arguments } },
      data.tools,
    );
    if (got.stoppedBecause === "answer" && truth.ok && got.answer === truth.content) answer++;
    process.stderr.write(`\r${i + 1}/${questions.length}`);
  }
});
process.stderr.write("\n");

async function ndcgRow(kind: string, model?: string) {
  const retriever = await createRetriever(kind, { catalog: data.catalog, ...(model ? { model } : {}) });
  const sums = { 1: 0, 3: 0, 5: 0 };
  for (const q of questions) {
    const ranked = (await retriever.search(q.query, { k: 5 })).map((h) => h.id);
    for (const k of [1, 3, 5] as const) sums[k] += ndcgAtK(ranked, [q.tool], k);
  }
  const pct = (x: number) => Math.round((1000 * x) / questions.length) / 10;
  return { retriever: kind, "ndcg@1": pct(sums[1]), "ndcg@3": pct(sums[3]), "ndcg@5": pct(sums[5]) };
}

const pct = (n: number) => Math.round((1000 * n) / questions.length) / 10;
writeBenchResult("demo", "npm run bench:demo", {
  model: committed ? "models/demo (committed)" : dir,
  questions: questions.length,
  split: "demo generator, seed 1001, 2 per tool, training questions excluded",
  agent_first_action_correct_pct: pct(action),
  agent_first_call_arguments_correct_pct: pct(args),
  agent_answer_correct_pct: pct(answer),
  question_latency_p50_ms: quantile(latencies, 0.5),
  question_latency_p95_ms: quantile(latencies, 0.95),
  question_latencies_ms: latencies,
  retrieval_prompt: [await ndcgRow("toolgen", dir), await ndcgRow("bm25")],
});
