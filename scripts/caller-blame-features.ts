/**
 * Which of the argument scorer's features push a wrong value over the answer (BFCL dev). For each wrong value that
 * scripts/caller-wrong-values.ts logs as a span the scorer prefers to the answer (classes outranked, swapped,
 * held-made, held-expected; the answer in the function's own segment), the chosen span's and the best answer's
 * weighted features are compared: per feature index, the summed weight * value difference (chosen minus answer) and
 * in how many values it exceeds 0.3. One line per value too, with the features that count most.
 *
 * Usage: npx tsx scripts/caller-wrong-values.ts --model DIR --categories parallel_multiple --log LOG
 *        npx tsx scripts/caller-blame-features.ts --model DIR --log LOG [--category parallel_multiple]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readBfclCategory } from "../src/catalog/import/bfcl.ts";
import { checkCall } from "../src/eval/bfcl-checker.ts";
import { blockOf, scoreFunctions } from "../src/models/factored/decide.ts";
import { pairFeatures } from "../src/models/factored/features.ts";
import { flattenTool } from "../src/models/factored/nested.ts";
import { ANALYSIS_OPTIONS, loadCallerForAnalysis } from "./caller-analysis-model.ts";

const { values: args } = parseArgs({
  options: {
    model: ANALYSIS_OPTIONS.model,
    bfcl: ANALYSIS_OPTIONS.bfcl,
    category: { type: "string", default: "parallel_multiple" },
    log: { type: "string" },
  },
});
const { stats, joiners, w } = loadCallerForAnalysis(args.model!);
const items = new Map(readBfclCategory(args.bfcl!, args.category!).map((i) => [i.id, i]));
const RANKED = new Set(["outranked", "swapped", "held-made", "held-expected"]);
const sum = new Map<number, number>();
const large = new Map<number, number>();
let values = 0;
for (const line of readFileSync(args.log!, "utf8").split("\n")) {
  const f = line.split("\t");
  if (f[0] !== args.category || !RANKED.has(f[2]!) || !line.endsWith("in segment")) continue;
  const gap = Number(f[6]!.replace("gap ", ""));
  if (!(gap > 0) || !Number.isFinite(gap)) continue;
  const item = items.get(f[1]!)!;
  const dot = f[3]!.lastIndexOf(".");
  const [fn, param] = [f[3]!.slice(0, dot), f[3]!.slice(dot + 1)];
  const made: unknown = JSON.parse(f[4]!.replace("made ", ""));
  const want: unknown = JSON.parse(f[5]!.replace("want ", ""));
  const question = item.question[0]!.map((m) => m.content).join("\n");
  const s = scoreFunctions(item.tools.map(flattenTool), question, w, stats, joiners).find(
    (x) => x.view.tool.function.name === fn,
  );
  const p = s?.params.find((x) => x.info.name === param);
  const doc = item.docs.find((d) => d.name === fn);
  if (!s || !p || !doc) continue;
  const props = ((doc.parameters ?? {}) as { properties?: Record<string, unknown> }).properties ?? {};
  const one = {
    ...doc,
    parameters: { type: "dict", properties: { [param]: props[param] }, required: [] },
  } as typeof doc;
  const ok = (v: unknown) =>
    checkCall(one, { name: fn, arguments: { [param]: v } }, { [fn]: { [param]: want } } as never, "python")
      .valid;
  const cs = p.info.candidates;
  const answer = cs
    .map((_, i) => i)
    .filter((i) => ok(cs[i]!.value))
    .sort((a, b) => p.probs[b]! - p.probs[a]!)[0];
  const chosen = cs.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(made));
  if (answer === undefined || chosen < 0) continue;
  const xa = pairFeatures(s.view, p.info, cs[answer]!);
  const xc = pairFeatures(s.view, p.info, cs[chosen]!);
  const wa = w.argument[blockOf(cs[answer]!)]!;
  const wc = w.argument[blockOf(cs[chosen]!)]!;
  values++;
  const counted: string[] = [];
  for (let k = 0; k < xa.length; k++) {
    const d = (wc[k] ?? 0) * xc[k]! - (wa[k] ?? 0) * xa[k]!;
    sum.set(k, (sum.get(k) ?? 0) + d);
    if (d > 0.3) {
      large.set(k, (large.get(k) ?? 0) + 1);
      counted.push(`x${k} ${d.toFixed(1)}`);
    }
  }
  console.log(
    `${f[1]}\t${f[3]}\tmade ${JSON.stringify(made)}\tanswer ${JSON.stringify(cs[answer]!.value)}\t${counted.join(", ")}`,
  );
}
console.log(`values ${values}`);
for (const [k, v] of [...sum].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`x[${k}]\tsum ${v.toFixed(1)}\tover 0.3 in ${large.get(k) ?? 0}`);
