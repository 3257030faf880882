/**
 * Full-schedule timing of `toolgen train --preset tiny` exactly as a user runs it: the CLI in a child process
 * (its default kernels: the native gemm when built and checked, else WebAssembly; TOOLGEN_KERNELS=wasm pins them)
 * under GNU time (wall time and peak RSS of the whole process), its `--json` result (losses per stage), and the
 * machine's load before and after. Two parts:
 *   metatool          MetaTool's default schedule (memorization, then retrieval) on the train part of
 *                     `toolgen eval split --seed 1` (80 / 10 / 10), or on all shared queries with --all-queries
 *   stabletoolbench   the 2,479-API StableToolBench catalog at the default schedule, retrieval on the G1 train
 *                     part of bench/toolgen/plans.ts (the memorization stage's time is read from the run's log)
 *   npx tsx bench/train-schedule.ts metatool|stabletoolbench [--all-queries] [--work DIR]
 * Writes bench/results/train-schedule-PART.json. Long (tens of minutes): never part of `npm test`.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeBenchResult } from "./lib/result.ts";
import { ProgressRecorder } from "./lib/train-progress.ts";
import { sharedFile } from "./lib/shared-file.ts";
import { stableToolBenchData } from "./toolgen/plans.ts";

const part = process.argv[2];
const allQueries = process.argv.includes("--all-queries");
const workArg = process.argv.indexOf("--work");
const work = resolve(
  workArg > 0 ? process.argv[workArg + 1]! : join(tmpdir(), `toolgen-train-schedule-${part}`),
);
const BIN = resolve(import.meta.dirname, "../bin/toolgen.mjs");

function fail(message: string): never {
  process.stderr.write(`bench/train-schedule: ${message}\n`);
  process.exit(1);
}

if (part !== "metatool" && part !== "stabletoolbench")
  fail("usage: train-schedule.ts metatool|stabletoolbench");
if (!existsSync("/usr/bin/time")) fail("GNU time (/usr/bin/time) is needed to measure the child's peak RSS");
mkdirSync(work, { recursive: true });

function toolgen(args: string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  if (r.status !== 0) fail(`toolgen ${args[0]} failed: ${r.stderr.trim().split("\n").pop()}`);
  return r.stdout;
}

let catalog: string;
let queries: string;
if (part === "metatool") {
  catalog = sharedFile("metatool/tools.json") ?? fail("the shared MetaTool data is absent");
  const all = sharedFile("metatool/queries.csv") ?? fail("the shared MetaTool data is absent");
  queries = all;
  if (!allQueries) {
    queries = join(work, "train.csv");
    toolgen(
      ["eval", "split", "--queries", all, "--seed", "1", "--train-out", queries].concat([
        "--dev-out",
        join(work, "dev.csv"),
        "--test-out",
        join(work, "test.csv"),
      ]),
    );
  }
} else {
  catalog = sharedFile("stabletoolbench/apis.json") ?? fail("the shared StableToolBench data is absent");
  const data = stableToolBenchData() ?? fail("the shared StableToolBench data is absent");
  queries = join(work, "g1-train.jsonl");
  writeFileSync(
    queries,
    data.train.map((q) => JSON.stringify({ query: q.query, relevant: q.relevant })).join("\n"),
  );
}

const out = join(work, "model");
const args = [
  "train",
  "--catalog",
  catalog,
  "--queries",
  queries,
  "--out",
  out,
  "--preset",
  "tiny",
  "--json",
];
const loadBefore = loadavg();
const started = Date.now();
// asynchronous, so the progress lines are timed as they arrive (the step rate through each stage, with the load)
const progress = new ProgressRecorder();
const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
  const child = spawn("/usr/bin/time", ["-v", process.execPath, BIN, ...args]);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
    progress.feed(c);
  });
  child.on("close", (status) => done({ status, stdout, stderr }));
});
const loadAfter = loadavg();
if (run.status !== 0) fail(`toolgen train failed: ${run.stderr.trim().split("\n").pop()}`);
writeFileSync(join(work, "train.log"), run.stderr);
const figures = parseTrainRun(run.stdout, run.stderr);

writeBenchResult(
  `train-schedule-${part}`,
  `npx tsx bench/train-schedule.ts ${process.argv.slice(2).join(" ")}`,
  {
    cli: `toolgen ${args.join(" ")}`,
    queries_file: allQueries || part === "stabletoolbench" ? queries : "train part of eval split --seed 1",
    load_average_before: loadBefore.map((x) => +x.toFixed(2)),
    load_average_after: loadAfter.map((x) => +x.toFixed(2)),
    wall_seconds_measured_here: Math.round((Date.now() - started) / 100) / 10,
    ...figures,
    // steps per second in windows of a minute through each stage, with the 1-minute load average (2 = this
    // run's own two threads): a mid-stage drop with the load up is another job, with the load flat the steps
    rate_by_minute: progress.windows(60),
  },
);

/**
 * GNU time's report (wall clock, peak RSS, CPU seconds) and the CLI's JSON result. Exported shape is flat so that a
 * run made by hand with the same command (`/usr/bin/time -v node bin/toolgen.mjs train ... --json`) reads the same.
 */
export function parseTrainRun(stdout: string, stderr: string): Record<string, unknown> {
  const field = (label: string): string | undefined =>
    stderr
      .split("\n")
      .find((l) => l.trim().startsWith(label))
      ?.split(": ")
      .pop()
      ?.trim();
  const clock = (field("Elapsed (wall clock) time") ?? "0").split(":").map(Number);
  const wall = clock.reduce((acc, x) => acc * 60 + x, 0);
  const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
  // the kernels' family each stage ran with (toolgen train picks the native gemm when it is built and passes its
  // self-check, else WebAssembly, and says which in one line on stderr)
  const stages = (result.done ?? []) as Array<{ gemm?: string }>;
  const kernelsLine = stderr
    .split("\n")
    .find((l) => /^toolgen: (training with|the native gemm failed)/.test(l));
  return {
    kernels: [...new Set(stages.map((d) => d.gemm ?? "unrecorded"))].join(",") || "unrecorded",
    ...(kernelsLine ? { kernels_line: kernelsLine } : {}),
    wall_seconds: wall,
    peak_rss_mb: Math.round(Number(field("Maximum resident set size (kbytes)") ?? 0) / 1024),
    cpu_seconds: Number(field("User time (seconds)") ?? 0) + Number(field("System time (seconds)") ?? 0),
    result,
  };
}
