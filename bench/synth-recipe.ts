import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { cpus, loadavg } from "node:os";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import type { LabelledQuery } from "../src/catalog/catalog.ts";
import { formatJsonlQueries } from "../src/catalog/import/jsonl.ts";
import { writeFileAtomic } from "../src/io/atomic.ts";
import { observationFor } from "../src/synth/outputs.ts";
import type { SynthItem } from "../src/synth/types.ts";
import { writeBenchResult } from "./lib/result.ts";

/**
 * The five-command recipe (issue 38) on a catalog the project did not write: a StableToolBench category (Movies,
 * 85 APIs, by default) as its own catalog. `toolgen synth` → `toolgen train --preset tiny` → `toolgen eval retrieval` on the
 * synth held-out questions and on StableToolBench's real G1/G2 queries whose relevant APIs are all in the slice
 * (written by people for ToolBench, never seen by the generator), BM25 beside it with the same (no) tuning →
 * the ToolGen agent on held-out synth questions (first call's tool, its arguments, declines).
 * `train` runs `prepare` first, so that the data is the code's at the time the training starts. It trains the
 * memorization and retrieval stages only: the tiny preset's context is 256 tokens and the ToolGen agent's prompt
 * is longer (670 tokens on this catalog), so agent trajectories would be cut in training and the agent cannot
 * run on the model (measured with one epoch per stage: every agent run stopped with "the prompt is 670 tokens;
 * the model's context is 256"); the agent's attempt is still recorded.
 *   npx tsx bench/synth-recipe.ts prepare   # the slice, the real queries, toolgen synth (seconds)
 *   npx tsx bench/synth-recipe.ts train     # toolgen train --preset tiny (heavy: run under the lock)
 *   npx tsx bench/synth-recipe.ts measure   # evals + agent, writes bench/results/synth-recipe.json
 * Nothing here is tuned: one run per setting, the defaults of every command but the settings the environment
 * names (SYNTH_RECIPE_CATEGORY, SYNTH_RECIPE_PER_TOOL, SYNTH_RECIPE_EPOCHS), each recorded in the result's command;
 * every run is kept in bench/results/synth-recipe.json under its catalog (and questions per tool). Runs so far
 * (docs/toolgen-training.md): Movies with the preset's schedule at 8 and 24 (SYNTH_RECIPE_PER_TOOL=24, = auto)
 * questions per tool and with SYNTH_RECIPE_EPOCHS=memorization=8,retrieval=4;
 * Translation with the preset's schedule at 8 and at 40 questions per tool.
 */
const ROOT = resolve(import.meta.dirname, "..");
const DATA = resolve(ROOT, "../shared/data/stabletoolbench");
/** `SYNTH_RECIPE_CATEGORY=Translation`: another category of StableToolBench as the catalog (default Movies). */
const CATEGORY = process.env.SYNTH_RECIPE_CATEGORY ?? "Movies";
const PER_TOOL = process.env.SYNTH_RECIPE_PER_TOOL;
const WORK = join(
  ROOT,
  "runs",
  `synth-recipe${CATEGORY === "Movies" ? "" : `-${CATEGORY}`}${PER_TOOL ? `-per-tool-${PER_TOOL}` : ""}`,
);
const SLICE = join(WORK, `${CATEGORY.toLowerCase()}.json`);
const SYNTH = join(WORK, "synth");
// `SYNTH_RECIPE_QUICK=1`: one epoch per stage into another folder, to try the phases (its figures are not kept)
const QUICK = process.env.SYNTH_RECIPE_QUICK === "1";
/**
 * `SYNTH_RECIPE_EPOCHS="memorization=8,retrieval=4"`: a shorter schedule than the tiny preset's 32 and 16 epochs,
 * for a run that must stay under ~3 minutes on a loaded machine (recorded with the result).
 */
const EPOCHS = QUICK ? "memorization=1,retrieval=1,agent=1" : process.env.SYNTH_RECIPE_EPOCHS;
const MODEL = join(WORK, QUICK ? "quick-model" : EPOCHS ? `model-${EPOCHS.replace(/[=,]/g, "-")}` : "model");
/** What the training printed, with its time and revision, beside the model it describes. */
const TRAIN_RECORD = join(WORK, `train-${basename(MODEL)}.json`);
const REAL = join(WORK, "real-queries.jsonl");
const QUERY_FILES = ["G1_category", "G1_instruction", "G1_tool", "G2_category", "G2_instruction"];
/** `SYNTH_RECIPE_PER_TOOL=40`: more questions per tool (default 8); the preset's schedule counts epochs, so a small
 * catalog with few questions gets few optimizer steps. */
const SYNTH_ARGS = ["--per-tool", process.env.SYNTH_RECIPE_PER_TOOL ?? "8", "--seed", "1"];
const AGENT_QUESTIONS = QUICK ? 3 : 60;

function toolgen(args: string[]): { stdout: string; seconds: number } {
  const started = performance.now();
  const stdout = execFileSync("npx", ["toolgen", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return { stdout, seconds: (performance.now() - started) / 1000 };
}

function prepare(): void {
  const raw = JSON.parse(readFileSync(join(DATA, "apis.json"), "utf8")) as Array<Record<string, unknown>>;
  const slice = raw.filter((r) => r.category_name === CATEGORY);
  writeFileAtomic(SLICE, JSON.stringify(slice));
  const ids = new Set(loadCatalog(SLICE).map((e) => e.id));
  const seen = new Set<string>();
  const real: LabelledQuery[] = [];
  for (const file of QUERY_FILES) {
    for (const q of loadQueries(join(DATA, `${file}.json`))) {
      if (q.relevant.length === 0 || !q.relevant.every((id) => ids.has(id)) || seen.has(q.query)) continue;
      seen.add(q.query);
      real.push({ ...q, id: `${file}:${q.id ?? real.length}` });
    }
  }
  writeFileAtomic(REAL, formatJsonlQueries(real));
  const synth = toolgen(["synth", "--catalog", SLICE, "--out", SYNTH, ...SYNTH_ARGS, "--json"]);
  writeFileAtomic(
    join(WORK, "prepare.json"),
    JSON.stringify({
      apis: ids.size,
      realQueries: real.length,
      synth: JSON.parse(synth.stdout),
      synthSeconds: synth.seconds,
    }),
  );
  process.stdout.write(`${ids.size} APIs, ${real.length} real queries; synth ${synth.stdout}`);
}

function gitRevision(): string {
  return execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
}

function trainModel(): void {
  // the data again, from the code as it is when the training starts (the run may wait for the lock)
  prepare();
  const revision = gitRevision();
  const t = toolgen([
    "train",
    "--catalog",
    SLICE,
    "--queries",
    join(SYNTH, "queries.jsonl"),
    "--out",
    MODEL,
    "--preset",
    "tiny",
    ...(EPOCHS ? ["--epochs", EPOCHS] : []),
    "--json",
  ]);
  writeFileAtomic(
    TRAIN_RECORD,
    JSON.stringify({
      seconds: t.seconds,
      git_revision: revision,
      load_at_end: loadavg()[0],
      ...JSON.parse(t.stdout),
    }),
  );
}

function evalRetrieval(queries: string, retriever: "toolgen" | "bm25", extra: string[] = []) {
  const model = retriever === "toolgen" ? ["--model", MODEL, ...extra] : extra;
  const r = toolgen([
    "eval",
    "retrieval",
    "--catalog",
    SLICE,
    "--queries",
    queries,
    "--retriever",
    retriever,
    ...model,
    "--json",
  ]);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const lines = <T>(file: string): T[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as T);

/** JSON with object keys sorted, so that two argument objects compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

async function agentOnHeldOut() {
  const { resolveModel } = await import("../src/models/resolve.ts");
  const { createToolGenAgent } = await import("../src/agents/toolgen.ts");
  const catalog = loadCatalog(SLICE);
  const model = await resolveModel(`builtin:${MODEL}`);
  const items = lines<SynthItem>(join(SYNTH, "held-out.jsonl")).slice(0, AGENT_QUESTIONS);
  let tool = 0;
  let args = 0;
  let answerable = 0;
  let declined = 0;
  let declines = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];
  for (const [i, item] of items.entries()) {
    const agent = createToolGenAgent({
      model,
      catalog,
      argumentsConstraint: "json-schema",
      maxRounds: 6,
      execute: (entry) => observationFor(entry.id),
    });
    const started = performance.now();
    const run = await agent.chat(`q${i}`, item.question);
    latencies.push(performance.now() - started);
    if (run.stoppedBecause === "model_error") {
      errors++;
      firstError ??= run.error;
    }
    const calls = run.toolCalls.map((c) => c.call.function);
    if (item.calls.length === 0) {
      declines++;
      if (calls.length === 0) declined++;
      continue;
    }
    answerable++;
    const first = calls[0];
    if (first?.name === item.calls[0]!.name) {
      tool++;
      if (canonical(first.arguments) === canonical(item.calls[0]!.arguments)) args++;
    }
  }
  latencies.sort((a, b) => a - b);
  return {
    questions: items.length,
    answerable,
    firstCallTool: answerable ? tool / answerable : null,
    firstCallToolAndArguments: answerable ? args / answerable : null,
    declines,
    declined: declines ? declined / declines : null,
    modelErrors: errors,
    firstError: firstError ?? null,
    p50Ms: latencies[Math.floor(latencies.length / 2)] ?? null,
  };
}

async function measure(): Promise<void> {
  const started = new Date().toISOString();
  const load = loadavg()[0];
  const heldOut = join(SYNTH, "held-out-queries.jsonl");
  const retrieval = {
    synthHeldOut: { toolgen: evalRetrieval(heldOut, "toolgen"), bm25: evalRetrieval(heldOut, "bm25") },
    realG1G2: { toolgen: evalRetrieval(REAL, "toolgen"), bm25: evalRetrieval(REAL, "bm25") },
    // not a result: whether the model learnt its own training questions (a fit check)
    synthTrainFitCheck: {
      toolgen: evalRetrieval(join(SYNTH, "queries.jsonl"), "toolgen", ["--allow-overlap"]),
    },
  };
  const retrieve = toolgen([
    "retrieve",
    "--catalog",
    SLICE,
    "--retriever",
    "toolgen",
    "--model",
    `builtin:${MODEL}`,
    "--json",
    lines<SynthItem>(join(SYNTH, "held-out.jsonl"))[0]!.question,
  ]);
  const agent = await agentOnHeldOut();
  const read = (f: string) =>
    existsSync(f) ? (JSON.parse(readFileSync(f, "utf8")) as Record<string, unknown>) : null;
  if (QUICK) {
    process.stdout.write(JSON.stringify({ retrieval, agent }) + "\n");
    return;
  }
  const env =
    (CATEGORY !== "Movies" ? `SYNTH_RECIPE_CATEGORY=${CATEGORY} ` : "") +
    (process.env.SYNTH_RECIPE_PER_TOOL ? `SYNTH_RECIPE_PER_TOOL=${process.env.SYNTH_RECIPE_PER_TOOL} ` : "") +
    (EPOCHS ? `SYNTH_RECIPE_EPOCHS=${EPOCHS} ` : "");
  const command = `${env}npx tsx bench/synth-recipe.ts train && ${env}npx tsx bench/synth-recipe.ts measure`;
  // one file, a run per category: the other categories' runs are kept as they were (each with its own date,
  // revision and command)
  const resultFile = join(ROOT, "bench", "results", "synth-recipe.json");
  const previous = existsSync(resultFile)
    ? (JSON.parse(readFileSync(resultFile, "utf8")) as Record<string, unknown>)
    : {};
  const previousRuns = (previous.runs ?? {}) as Record<string, unknown>;
  writeBenchResult("synth-recipe", command, {
    runs: {
      ...previousRuns,
      [`${CATEGORY}${PER_TOOL ? `, per-tool ${PER_TOOL}` : ""}${EPOCHS ? `, epochs ${EPOCHS}` : ""}`]: {
        date: new Date().toISOString(),
        command,
        git_revision: gitRevision(),
        started,
        load_at_start: load,
        cores: cpus().length,
        catalog: `StableToolBench apis.json, category ${CATEGORY}`,
        synth_options: SYNTH_ARGS.join(" "),
        train_epochs: EPOCHS ?? "the tiny preset's (memorization 32, retrieval 16)",
        prepare: read(join(WORK, "prepare.json")),
        train: read(TRAIN_RECORD),
        retrieval,
        retrieve_example: JSON.parse(retrieve.stdout),
        agent_on_synth_held_out: agent,
        notes:
          "One run, no tuning. Real G1/G2 queries: every StableToolBench G1/G2 query whose relevant APIs are all in the slice. " +
          "Agent: the ToolGen agent with the schema constraint, tools not run (the observation is a placeholder).",
      },
    },
  });
}

const phase = process.argv[2];
if (phase === "prepare") prepare();
else if (phase === "train") trainModel();
else if (phase === "measure") await measure();
else {
  process.stderr.write("usage: npx tsx bench/synth-recipe.ts prepare|train|measure\n");
  process.exitCode = 1;
}
