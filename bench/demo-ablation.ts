/**
 * What each part of the demo's decoding is worth, on the hand-written dev sets and set 1 (never sets 2 and 3:
 * test sets are scored once per model): the model alone (free arguments, its likeliest action), + the JSON
 * Schema, + the copy constraint (neutral language policy), + each family of the English policy alone
 * (src/constrain/policy.ts: numbers, dates, pointing, properties), + all of them, + the demo's action prior
 * (word Naive Bayes, decline gate, enum evidence: src/demo/action-prior.ts), which is the demo as shipped; then
 * the demo as shipped less each family.
 *
 * Usage: npx tsx bench/demo-ablation.ts [--dir MODEL] [--from-results]
 *   runs each configuration through bench/demo.ts (`--skip-generated`: the hand-written sets only) into
 *   bench/results/history/demo-ablation-*.json, then writes bench/results/demo-ablation.json: one row per
 *   configuration with the command that measured it. --from-results: only the second step, from runs made
 *   before; --dir: the model folder (default the committed one).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync } from "node:fs";
import { parseArgs } from "node:util";
import { writeBenchResult } from "./lib/result.ts";

const { values: args } = parseArgs({
  options: { dir: { type: "string" }, "from-results": { type: "boolean", default: false } },
});

interface Run {
  name: string;
  flags: string[];
  /** The row each of the run's --arguments modes gives, in order. */
  rows: string[];
}

const base = ["--skip-generated", ...(args.dir ? ["--dir", args.dir] : [])];
const RUNS: Run[] = [
  {
    name: "demo-ablation-a",
    flags: [
      "--policy",
      "neutral",
      "--lexical-weight",
      "off",
      "--arguments",
      "free,json-schema,json-schema+copy",
    ],
    rows: [
      "model alone (free arguments, its likeliest action)",
      "+ JSON Schema constraint",
      "+ copy constraint (neutral policy: no word lists, no property-name rules)",
    ],
  },
  ...(["numbers", "dates", "pointing", "properties"] as const).map((family) => ({
    name: `demo-ablation-neutral-${family}`,
    flags: ["--policy", `neutral+${family}`, "--lexical-weight", "off", "--arguments", "json-schema+copy"],
    rows: [`+ copy constraint + English policy's ${family} family alone`],
  })),
  {
    name: "demo-ablation-english",
    flags: ["--policy", "english", "--lexical-weight", "off", "--arguments", "json-schema+copy"],
    rows: ["+ copy constraint + the whole English policy"],
  },
  {
    name: "demo-ablation-full",
    flags: ["--arguments", "json-schema+copy"],
    rows: ["+ the demo's action prior (word Naive Bayes, decline gate, enum evidence): the demo as shipped"],
  },
  // and the other way: the demo as shipped less one family of its English policy
  ...(["numbers", "dates", "pointing", "properties"] as const).map((family) => ({
    name: `demo-ablation-without-${family}`,
    flags: ["--policy", `english-${family}`, "--arguments", "json-schema+copy"],
    rows: [`the demo as shipped without the English policy's ${family} family`],
  })),
];

const resultFile = (name: string) => new URL(`./results/${name}.json`, import.meta.url);
const historyFile = (name: string) => new URL(`./results/history/${name}.json`, import.meta.url);

for (const run of RUNS) {
  if (args["from-results"]) continue;
  execFileSync("npx", ["tsx", "bench/demo.ts", "--name", run.name, ...base, ...run.flags], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  renameSync(resultFile(run.name), historyFile(run.name));
}

const pick = (c: Record<string, Record<string, number>>) => ({
  set1_correct_pct: c.handwritten?.answer_correct_pct,
  set1_first_tool_pct: c.handwritten?.first_tool_correct_pct,
  set1_off_topic_declined_pct: c.off_topic?.declined_pct,
  dev_correct_pct: c.handwritten_dev?.answer_correct_pct,
  dev_first_tool_pct: c.handwritten_dev?.first_tool_correct_pct,
  dev_off_topic_declined_pct: c.off_topic_dev?.declined_pct,
  dev_off_topic_2_declined_pct: c.off_topic_dev_2?.declined_pct,
});

const rows = RUNS.flatMap((run) => {
  // the shipped configuration was first measured by the policy's before/after check (the same flags on the whole
  // sets): that run serves when no ablation run of its own exists
  const file = [historyFile(run.name), resultFile(run.name), resultFile("demo-policy-after")].find((f) =>
    existsSync(f),
  )!;
  const result = JSON.parse(readFileSync(file, "utf8")) as {
    command: string;
    model: string;
    git_revision: string;
    configurations: Record<string, Record<string, number>>[];
  };
  return run.rows.map((row, i) => ({
    row,
    ...pick(result.configurations[i]!),
    command: result.command,
    model: result.model,
    git_revision: result.git_revision,
    raw: file.pathname.slice(file.pathname.indexOf("bench/")),
  }));
});

writeBenchResult(
  "demo-ablation",
  `npx tsx bench/demo-ablation.ts${process.argv
    .slice(2)
    .map((a) => ` ${a}`)
    .join("")}`,
  {
    ...(args.dir ? { model_dir: args.dir } : {}),
    model_note:
      "i1, the committed models/demo (the 2026-12-03 runs read /tmp/h38/model-i1, a byte-identical copy of it, so that a rebuild could not swap the model between runs)",
    sets: "set 1 (src/demo/held-out/handwritten.json, 143 + 20 off-topic) and the hand-written dev sets (86 on-topic, 30 + 61 off-topic); never sets 2 and 3",
    rows,
  },
);
