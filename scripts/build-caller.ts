/**
 * Builds the function caller (models/caller) from `toolgen synth` questions over catalogs that are not BFCL's,
 * and measures it on BFCL non-live (dev only: never trained on, no wording tuned to it).
 *
 * Usage:
 *   npm run caller:lm-model                   train and write models/caller-lm (15.4 min of training on 2 cores;
 *                                             models/caller is the factored caller now: build-factored-caller.ts)
 *   npx tsx scripts/build-caller.ts --eval    BFCL dev with the committed folder, each constraint in turn
 *                                             (copy, schema, none), into bench/results/bfcl-caller.json
 * Modes: copy (neutral policy, the default), copy+english, schema, none.
 * Options: --out DIR, --steps N, --per-tool N, --hidden N, --layers N, --batch N, --lr X, --init-from DIR (start from a trained builtin folder's weights), --max-seconds S (stop training then and
 * write what it has), --stb-every K (every K-th StableToolBench API only), --max-calls N (multi-call questions
 * with 2 to N calls; default 2), --multi-share X (multi-call questions per one-call one; default 0.3), --same-share X
 * (the share of multi-call questions that call one tool again; default 0.35), --max-tokens N (longer samples are
 * left out; the training rows' length; default 768), --bfcl DIR, --modes copy,schema,none, --categories a,b (a
 * quick look: printed, not recorded as a result), --synth-check (exact match on new synth questions of the
 * training kind, by number of calls; printed), --skip-forced-names (no loss on the function-name tokens the
 * decoder forces), --result NAME (bench/results/NAME.json; default bfcl-caller).
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import type { CatalogEntry } from "../src/catalog/catalog.ts";
import { loadCatalog } from "../src/catalog/load.ts";
import { demoCatalog } from "../src/demo/catalog.ts";
import { evaluateBfclModel, type BfclReport } from "../src/eval/bfcl.ts";
import { englishPolicy } from "../src/constrain/index.ts";
import { CallerChatModel, type CallerOptions } from "../src/models/caller-chat.ts";
import { synthesize } from "../src/synth/index.ts";
import { callerExamples, mismatchedDeclines, type CallerExample } from "../src/train/caller-data.ts";
import { trainCaller } from "../src/train/caller-train.ts";
import { writeBenchResult } from "../bench/lib/result.ts";
import { quantile, timed } from "./timed-model.ts";
import { callerCheckSet } from "./caller-check-set.ts";
import { pinWasmKernels } from "../src/nn/kernels/index.ts";

const { values: args } = parseArgs({
  options: {
    out: { type: "string", default: "models/caller-lm" },
    steps: { type: "string", default: "4900" },
    "per-tool": { type: "string", default: "4" },
    hidden: { type: "string" },
    batch: { type: "string", default: "8" },
    lr: { type: "string", default: "3e-3" },
    layers: { type: "string" },
    "max-seconds": { type: "string" },
    "init-from": { type: "string" },
    "stb-every": { type: "string", default: "1" },
    "max-calls": { type: "string", default: "2" },
    "max-tokens": { type: "string", default: "768" },
    "multi-share": { type: "string", default: "0.3" },
    "same-share": { type: "string", default: "0.35" },
    eval: { type: "boolean", default: false },
    bfcl: { type: "string", default: "../shared/data/bfcl" },
    modes: { type: "string", default: "copy,copy+english,schema,none" },
    categories: { type: "string" },
    result: { type: "string", default: "bfcl-caller" },
    "synth-check": { type: "boolean", default: false },
    "continue-bias": { type: "string" },
    "skip-forced-names": { type: "boolean", default: false },
  },
});

/** The catalogs trained on: none of them BFCL's. */
async function catalogs(): Promise<{ name: string; entries: CatalogEntry[]; perTool: number }[]> {
  const perTool = Number(args["per-tool"]);
  const stbEvery = Number(args["stb-every"]);
  return [
    {
      name: "stabletoolbench",
      entries: loadCatalog("../shared/data/stabletoolbench/apis.json").filter((_, i) => i % stbEvery === 0),
      perTool,
    },
    { name: "metatool", entries: loadCatalog("../shared/data/metatool/tools.json"), perTool: perTool * 3 },
    { name: "demo", entries: await demoCatalog(), perTool: perTool * 6 },
  ];
}

/**
 * Questions with 0, 1 and 3 distractors offered (BFCL-like prompts hold one function or several, but the mix
 * is the same for any catalog), multi-call and decline questions included.
 */
/** Mismatched declines (a question asked with only other functions offered) per one-call example. */
const DECLINE_SHARE = 0.2;

async function trainingExamples(): Promise<{ examples: CallerExample[]; counts: Record<string, number> }> {
  const examples: CallerExample[] = [];
  const counts: Record<string, number> = {};
  let seed = 1;
  for (const c of await catalogs()) {
    const perCatalog: CallerExample[] = [];
    for (const distractors of [0, 1, 3]) {
      const items = synthesize(c.entries, {
        seed: seed++,
        perTool: Math.max(1, Math.round(c.perTool / 3)),
        multiCallShare: Number(args["multi-share"]),
        maxCalls: Number(args["max-calls"]),
        sameToolShare: Number(args["same-share"]),
        declineShare: 0.2,
        distractors,
      });
      // synth's declines offer no function when it draws no distractors: the caller is always offered some
      const ex = callerExamples(items, c.entries).filter((e) => e.tools.length > 0);
      counts[`${c.name}/d${distractors}`] = ex.length;
      examples.push(...ex);
      perCatalog.push(...ex);
    }
    const declines = mismatchedDeclines(perCatalog, DECLINE_SHARE, seed++);
    counts[`${c.name}/declines`] = declines.length;
    examples.push(...declines);
  }
  return { examples, counts };
}

async function build(): Promise<void> {
  const started = Date.now();
  // the committed weights' kernels: WebAssembly, whose bytes are the same on every machine
  pinWasmKernels("models/caller-lm");
  const { examples, counts } = await trainingExamples();
  const declines = examples.filter((e) => e.calls.length === 0).length;
  const multi = examples.filter((e) => e.calls.length > 1).length;
  process.stderr.write(
    `examples: ${examples.length} (${declines} declines, ${multi} multi-call) ${JSON.stringify(counts)}\n`,
  );
  const steps = Number(args.steps);
  const result = await trainCaller({
    examples,
    out: args.out!,
    steps,
    batchSize: Number(args.batch),
    lr: Number(args.lr),
    seed: 1,
    tokenizerVocab: 1536,
    maxTokens: Number(args["max-tokens"]),
    ...(args.hidden || args.layers ? { config: sizeOverride() } : {}),
    ...(args["max-seconds"] ? { maxSeconds: Number(args["max-seconds"]) } : {}),
    ...(args["init-from"] ? { initFrom: args["init-from"] } : {}),
    ...(args["skip-forced-names"] ? { skipForcedNames: true } : {}),
    training: {
      command: `npx tsx scripts/build-caller.ts ${process.argv.slice(2).join(" ")}`,
      catalogs: counts,
      examples: examples.length,
      declines,
      multiCall: multi,
    },
  });
  process.stdout.write(
    JSON.stringify({ ...result, wallSeconds: Math.round((Date.now() - started) / 1000) }) + "\n",
  );
}

/** --hidden and --layers: a smaller or larger model than CALLER_CONFIG (intermediate ≈ 8/3 · hidden). */
function sizeOverride(): Record<string, number> {
  const hidden = Number(args.hidden ?? 96);
  return {
    hiddenSize: hidden,
    intermediateSize: Math.round((hidden * 8) / 3 / 32) * 32,
    numLayers: Number(args.layers ?? 3),
  };
}

/** --continue-bias X: the caller's "another call?" bias (src/models/caller-count-bias.ts) for this run. */
function continueBias(): CallerOptions {
  return args["continue-bias"] === undefined ? {} : { continueBias: Number(args["continue-bias"]) };
}

/** Times each generate call (the per-item latency BFCL's run sees). */
async function evaluate(): Promise<void> {
  const modes = args.modes!.split(",");
  const optionsOf: Record<string, CallerOptions> = {
    copy: { constraint: "copy" },
    "copy+english": { constraint: "copy", policy: englishPolicy },
    schema: { constraint: "schema" },
    none: { constraint: "none" },
  };
  const categories = args.categories?.split(",");
  const manifest = JSON.parse(readFileSync(`${args.out}/caller.json`, "utf8")) as { training?: unknown };
  const runs: Record<string, unknown> = {};
  for (const mode of modes) if (!optionsOf[mode]) throw new Error(`unknown mode ${mode}`);
  for (const mode of modes) {
    const times: number[] = [];
    const load = loadavg()[0];
    const model = timed(CallerChatModel.load(args.out!, { ...optionsOf[mode], ...continueBias() }), times);
    const report: BfclReport = await evaluateBfclModel(args.bfcl!, model, {
      maxConsecutiveErrors: 0,
      onProgress: (done, total) => {
        if (done % 100 === 0 || done === total) process.stderr.write(`${mode}: ${done}/${total}\n`);
      },
      categories,
    });
    const figures = {
      by_category: report.by_category,
      bfcl_v4: report.bfcl_v4,
      all_items: { accuracy: report.accuracy, correct: report.correct, total: report.total },
      latency_ms: { p50: quantile(times, 0.5), p95: quantile(times, 0.95), items: times.length },
      load_before: load,
      load_after: loadavg()[0],
      failure_kinds: countKinds(report),
    };
    process.stderr.write(`${mode}: ${JSON.stringify(figures)}\n`);
    runs[mode] = figures;
  }
  if (categories) return;
  const command = `npx tsx scripts/build-caller.ts --eval --out ${args.out} --modes ${modes.join(",")}`;
  writeBenchResult(
    args.result!,
    `${command}${args.result === "bfcl-caller" ? "" : ` --result ${args.result}`}`,
    {
      model: args.out,
      data: args.bfcl,
      note:
        "BFCL non-live is dev for the function caller: never trained on (synth questions over StableToolBench, MetaTool and the demo's tools), no wording tuned to it. " +
        "Modes: copy = reply schema + copy constraint under neutralPolicy (the default, `--model builtin:models/caller`); copy+english = the same with englishPolicy (English number words, dates, pointing words, property-name rules); schema = reply schema alone; none = free decoding, parsed after (model alone; unparseable replies count as no call, which scores irrelevance as declined).",
      training: manifest.training,
      runs,
    },
  );
}

function countKinds(report: BfclReport): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const f of report.failures) kinds[f.errorType ?? "?"] = (kinds[f.errorType ?? "?"] ?? 0) + 1;
  return kinds;
}

/**
 * --synth-check: the model on questions of its own kind — synth questions (seed 999, not a training seed) over
 * every 50th StableToolBench API (tools it was trained on, new questions), one-call and 2-4-call ones, no
 * distractors — scored by exact match (same calls, any order) and by how many calls it made. Not BFCL: it
 * tells a model that has not learnt its own task from one that has and meets other wording on BFCL.
 */
async function synthCheck(): Promise<void> {
  const examples = callerCheckSet();
  const model = CallerChatModel.load(args.out!, continueBias());
  const key = (calls: { name: string; arguments: unknown }[]) =>
    JSON.stringify(calls.map((c) => JSON.stringify([c.name, c.arguments])).sort());
  const byCount: Record<
    string,
    { items: number; exact: number; countRight: number; madeCalls: Record<string, number> }
  > = {};
  for (const e of examples) {
    const r = model.calls(e.tools, e.question);
    const group = (byCount[`${e.calls.length}_calls`] ??= {
      items: 0,
      exact: 0,
      countRight: 0,
      madeCalls: {},
    });
    group.items++;
    if (r.calls.length === e.calls.length) group.countRight++;
    if (key(r.calls) === key(e.calls)) group.exact++;
    group.madeCalls[r.calls.length] = (group.madeCalls[r.calls.length] ?? 0) + 1;
  }
  // the count decision, one-call and multi-call questions weighted alike
  const share = (gs: (typeof byCount)[string][]) =>
    gs.reduce((n, g) => n + g.countRight, 0) /
    Math.max(
      1,
      gs.reduce((n, g) => n + g.items, 0),
    );
  const multi = Object.entries(byCount)
    .filter(([k]) => k !== "1_calls")
    .map(([, g]) => g);
  const balancedCount = (share(byCount["1_calls"] ? [byCount["1_calls"]] : []) + share(multi)) / 2;
  process.stdout.write(
    JSON.stringify({
      model: args.out,
      continueBias: model.continueBias,
      items: examples.length,
      balancedCount,
      byCount,
    }) + "\n",
  );
}

await (args["synth-check"] ? synthCheck() : args.eval ? evaluate() : build());
