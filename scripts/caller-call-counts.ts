/**
 * Which functions the factored caller calls and how many times, against BFCL's possible answers (dev): for each
 * item of the parallel categories, each gold or called function is "right" (as many calls as the answer), "toomany",
 * "toofew", "extra" (not in the answer) or uncalled, and then why: "threshold" (under the call threshold), "fillfloor"
 * (its required values too unlikely), "unmentioned" (past the gate, dropped by the mention filter) or
 * "uncalled-other" (dropped later). Two bounds on what better call counts alone could win, the values left as
 * decoded: "trim" (items whose every expected call is among the calls made: dropping the others would make them
 * right) and "add" (failed items whose every call matches an expected one, too few of them). `--oracle-functions`
 * calls exactly the answer's functions (DecideOptions.onlyFunctions): what a perfect choice of functions wins.
 *
 * Usage: npx tsx scripts/caller-call-counts.ts --model DIR [--bfcl DIR] [--categories parallel_multiple,parallel]
 *        [--oracle-functions] [--json FILE (one row per item)]
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readBfclAnswers, readBfclCategory } from "../src/catalog/import/bfcl.ts";
import { checkBfclItem, checkCall } from "../src/eval/bfcl-checker.ts";
import { FactoredCallerModel } from "../src/models/caller-factored.ts";
import { ANALYSIS_OPTIONS, loadCallerForAnalysis } from "./caller-analysis-model.ts";
import {
  callProbability,
  mentioned,
  scoreFunctions,
  DOC_MENTIONS,
  FILL_FLOOR,
} from "../src/models/factored/decide.ts";

const { values: args } = parseArgs({
  options: {
    ...ANALYSIS_OPTIONS,
    "oracle-functions": { type: "boolean", default: false },
    json: { type: "string" },
  },
});

const { model, stats, joiners, w } = loadCallerForAnalysis(args.model!);
const rows: unknown[] = [];

/** Why a function the answer calls was not called. */
function whyUncalled(tools: Parameters<typeof scoreFunctions>[0], question: string, name: string): string {
  const scored = scoreFunctions(tools, question, w, stats, joiners);
  const fill = (s: (typeof scored)[number]) => s.features[5]!;
  const passing = scored.filter((s) => callProbability(s, w) >= w.callThreshold && fill(s) >= FILL_FLOOR);
  const i = passing.findIndex((s) => s.view.tool.function.name === name);
  if (i >= 0)
    return passing.length > 1 && !mentioned(passing, DOC_MENTIONS, true)[i]
      ? "unmentioned"
      : "uncalled-other";
  const s = scored.find((x) => x.view.tool.function.name === name);
  return s && fill(s) < FILL_FLOOR ? "fillfloor" : "threshold";
}

for (const category of args.categories!.split(",")) {
  const answers = readBfclAnswers(args.bfcl!, category);
  const kinds: Record<string, number> = {};
  const bump = (k: string) => (kinds[k] = (kinds[k] ?? 0) + 1);
  let correct = 0;
  let trim = 0;
  let add = 0;
  for (const item of readBfclCategory(args.bfcl!, category)) {
    const question = item.question[0]!.map((m) => m.content).join("\n");
    const gold = answers.get(item.id)!;
    const oracle = args["oracle-functions"] ? { onlyFunctions: gold.map((c) => Object.keys(c)[0]!) } : {};
    const calls = new FactoredCallerModel(model.file, model.id, oracle).calls(item.tools, question);
    const ok = checkBfclItem(category, item.docs, calls, gold).valid;
    // each expected call matched to a distinct call made, as the checker does
    const used = new Set<number>();
    for (const want of gold) {
      const doc = item.docs.find((d) => d.name === Object.keys(want)[0]);
      const k = doc ? calls.findIndex((c, i) => !used.has(i) && checkCall(doc, c, want, "python").valid) : -1;
      if (k >= 0) used.add(k);
    }
    const count = (names: string[]) =>
      names.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map<string, number>());
    const want = count(gold.map((c) => Object.keys(c)[0]!));
    const made = count(calls.map((c) => c.name));
    const status: Record<string, string> = {};
    for (const name of new Set([...want.keys(), ...made.keys()])) {
      const [g, p] = [want.get(name) ?? 0, made.get(name) ?? 0];
      status[name] =
        g === p
          ? "right"
          : g === 0
            ? "extra"
            : p === 0
              ? whyUncalled(item.tools, question, name)
              : p > g
                ? "toomany"
                : "toofew";
      if (!ok) bump(`function:${status[name]}`);
    }
    if (ok) correct++;
    else bump(Object.values(status).every((s) => s === "right") ? "item:counts-right" : "item:counts-wrong");
    if (ok || used.size === gold.length) trim++;
    if (!ok && used.size === calls.length && calls.length < gold.length) add++;
    rows.push({ id: item.id, category, ok, status, calls, expected: gold });
  }
  const total = answers.size;
  console.log(
    JSON.stringify({
      category,
      oracleFunctions: args["oracle-functions"],
      correct,
      total,
      trimBound: trim,
      addBound: add,
      kinds,
    }),
  );
}
if (args.json) writeFileSync(args.json, JSON.stringify(rows, null, 1));
