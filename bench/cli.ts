/**
 * How long the compiled CLI takes to start, next to bare `node -e 0` in the same run (the machine is shared and
 * noisy, so the ratios are the figures to compare):
 *  - `toolgen --help`;
 *  - `toolgen retrieve` (BM25) over the 2,479-API StableToolBench catalog, until it exits;
 *  - `toolgen serve mcp` over the same catalog, until the `initialize` request sent at spawn is answered.
 * Goals (issue 17): --help ≤ 0.5 s, MCP initialize ≤ 1 s. The development path (bin through tsx on the
 * sources, TOOLGEN_BIN=src) is timed for --help and initialize as the reference. Runs are interleaved round
 * by round, so load drifts hit every case alike. Builds dist/ first (scripts/build.mjs).
 * Run: npm run bench:cli [-- --catalog FILE] [--rounds N]
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { quantile } from "../src/eval/metrics.ts";
import { SHARED_DATA } from "../test/helpers/shared-data.ts";
import { writeBenchResult } from "./lib/result.ts";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/toolgen.mjs");

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

/** Seconds from spawn until the process exits (status 0 required). */
function timeExit(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("exit", (code) =>
      code === 0
        ? done((performance.now() - started) / 1000)
        : fail(new Error(`${args.join(" ")} exited ${code}: ${stderr}`)),
    );
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench-cli", version: "0" },
  },
});

/** Seconds from spawning `serve mcp` (initialize written at once) until its answer arrives on stdout. */
function timeInitialize(catalog: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, "serve", "mcp", "--catalog", catalog], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split("\n").find((l) => l.includes('"id":1'));
      if (!line) return;
      const seconds = (performance.now() - started) / 1000;
      child.kill();
      if (line.includes('"result"')) done(seconds);
      else fail(new Error(`initialize failed: ${line}`));
    });
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      if (signal === null) fail(new Error(`serve mcp exited ${code} before answering: ${stderr}`));
    });
    child.stdin.write(INITIALIZE + "\n");
  });
}

const summary = (xs: number[]) => ({
  runs: xs.length,
  median_s: Math.round(quantile(xs, 0.5) * 1000) / 1000,
  min_s: Math.round(Math.min(...xs) * 1000) / 1000,
  max_s: Math.round(Math.max(...xs) * 1000) / 1000,
});

async function main(): Promise<void> {
  const catalog = option("--catalog", join(SHARED_DATA, "stabletoolbench/apis.json"));
  const rounds = Number(option("--rounds", "7"));
  if (!existsSync(catalog)) {
    process.stderr.write(`SKIP: ${catalog} is absent (see ../shared/data/README.md); no figures written\n`);
    process.exitCode = 1;
    return;
  }
  if (!process.argv.includes("--no-build")) execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")]);
  const dist = { ...process.env, TOOLGEN_BIN: "dist" };
  const src = { ...process.env, TOOLGEN_BIN: "src" };
  const cases: Record<string, () => Promise<number>> = {
    node_e0: () => timeExit(["-e", "0"], process.env),
    help: () => timeExit([BIN, "--help"], dist),
    retrieve: () =>
      timeExit([BIN, "retrieve", "--catalog", catalog, "weather forecast for a city", "-k", "5"], dist),
    mcp_initialize: () => timeInitialize(catalog, dist),
    help_tsx_sources: () => timeExit([BIN, "--help"], src),
    mcp_initialize_tsx_sources: () => timeInitialize(catalog, src),
  };
  const REFERENCE_ROUNDS = 3; // the tsx path takes seconds a run; three rounds show its level
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const loadBefore = loadavg();
  for (let round = 0; round < rounds; round++) {
    for (const [name, measure] of Object.entries(cases)) {
      if (name.endsWith("tsx_sources") && round >= REFERENCE_ROUNDS) continue;
      times[name]!.push(await measure());
    }
    process.stderr.write(`round ${round + 1}/${rounds} done\n`);
  }
  const figures = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, summary(xs)]));
  const base = quantile(times.node_e0!, 0.5);
  const ratio = (k: string) => Math.round((quantile(times[k]!, 0.5) / base) * 100) / 100;
  writeBenchResult(
    "cli",
    `npm run bench:cli${process.argv.length > 2 ? " -- " + process.argv.slice(2).join(" ") : ""}`,
    {
      load: {
        before: loadBefore.map((x) => Math.round(x * 100) / 100),
        after: loadavg().map((x) => Math.round(x * 100) / 100),
      },
      catalog: catalog.replace(resolve(ROOT, ".."), ".."),
      bin: "node bin/toolgen.mjs with TOOLGEN_BIN=dist (compiled JavaScript); *_tsx_sources: TOOLGEN_BIN=src",
      figures,
      ratio_to_node_e0: Object.fromEntries(
        Object.keys(times)
          .filter((k) => k !== "node_e0")
          .map((k) => [k, ratio(k)]),
      ),
      goals: {
        help_median_le_0_5_s: figures.help!.median_s <= 0.5,
        mcp_initialize_median_le_1_s: figures.mcp_initialize!.median_s <= 1,
      },
    },
  );
}

await main();
