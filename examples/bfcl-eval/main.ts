// BFCL evaluation from the library: a model answers each item of a BFCL-format folder, and toolgen's checker
// scores its calls as the leaderboard does (AST match against the possible answers; no call for irrelevance).
//   npx tsx --conditions toolgen-source examples/bfcl-eval/main.ts
import { fileURLToPath } from "node:url";
import { evaluateBfclModel } from "toolgen";
import { ScriptedModel } from "toolgen/testing";

const data = fileURLToPath(new URL("data", import.meta.url));
// A stand-in for a real model: five fixed replies, one of them wrong. Use resolveModel("openai:…@URL") for one.
const model = ScriptedModel.fromFile(fileURLToPath(new URL("replies.json", import.meta.url)));
const report = await evaluateBfclModel(data, model);

for (const [category, f] of Object.entries(report.by_category))
  console.log(`${category.padEnd(14)} ${f.correct}/${f.total} (${f.accuracy}%)`);
console.log(`BFCL non-live AST: ${report.bfcl_v4.non_live.accuracy}% (the mean over its categories)`);
console.log(`BFCL irrelevance:  ${report.bfcl_v4.irrelevance.accuracy}%`);
for (const f of report.failures) console.log(`FAIL ${f.id} ${f.errorType}: ${f.error}`);
