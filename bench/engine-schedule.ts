/**
 * Full-schedule timing of the ToolGen stages at the tiny preset, engine side: the default MetaTool run
 * (memorization of its tools, then retrieval over all shared queries) and the memorization stage over the
 * StableToolBench catalog. Samples, tokenizer, virtualization and schedule are built as src/train/pipeline.ts
 * builds them; the stages run through src/nn train() with the pipeline's options. Each stage runs its full
 * schedule, or with `--steps N` only its first N steps, the time of the rest extrapolated from the mean step
 * time (the JSON says which). Wall time, peak RSS and the last losses per stage go to
 * bench/results/engine-schedule.json (or `--out NAME`).
 *   npx tsx bench/engine-schedule.ts [--steps 40] [--parts metatool,stabletoolbench] [--out NAME]
 */
import { loadavg } from "node:os";
import { writeBenchResult } from "./lib/result.ts";
import { stageSeed, TINY, toolgenSetup } from "./lib/toolgen-stage.ts";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import type { CatalogEntry, LabelledQuery } from "../src/catalog/catalog.ts";
import { train } from "../src/nn/train/trainer.ts";
import type { Stage } from "../src/train/datasets.ts";
import { sharedFile } from "./lib/shared-file.ts";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const maxSteps = Number(arg("steps") ?? 0);
const parts = (arg("parts") ?? "metatool,stabletoolbench").split(",");
const outName = arg("out") ?? "engine-schedule";
const schedule = TINY;
const SEED = 1;

interface StageTiming {
  stage: Stage;
  samples: number;
  steps: number;
  steps_run: number;
  extrapolated: boolean;
  seconds: number;
  seconds_per_step: number;
  cpu_seconds_per_step: number;
  real_tokens_per_s: number;
  final_loss: number;
  last_losses_mean: number;
}

async function runStages(
  catalog: CatalogEntry[],
  queries: LabelledQuery[],
  stages: Stage[],
): Promise<{ setup_seconds: number; stages: StageTiming[] }> {
  const t0 = performance.now();
  const { model, stageSamples } = toolgenSetup(catalog, queries, SEED);
  const setup = (performance.now() - t0) / 1000;
  const out: StageTiming[] = [];
  for (const stage of stages) {
    const samples = stageSamples(stage);
    const { epochs, lr, tokenDropout, averageLast } = schedule.stages[stage];
    const steps = Math.max(1, Math.ceil((epochs * samples.length) / schedule.batchSize));
    const run = maxSteps > 0 ? Math.min(steps, maxSteps) : steps;
    const seqLen = Math.min(
      model.config.maxPositions,
      samples.reduce((m, s) => Math.max(m, s.ids.length), 1),
    );
    const abort = new AbortController();
    const losses: number[] = [];
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    await train(
      model,
      { kind: "samples", samples, padId: model.config.padTokenId ?? 0, seqLen, pack: true },
      {
        steps,
        batchSize: schedule.batchSize,
        lr,
        seed: stageSeed(stage, SEED),
        warmupFraction: schedule.warmupFraction,
        tokenDropout,
        averageLast,
        signal: abort.signal,
        onStep: (info) => {
          losses.push(info.loss);
          if (info.step >= run) abort.abort();
        },
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    // real tokens (no padding): the mean sample length times the samples seen, the same for any engine version
    const meanLen = samples.reduce((a, s) => a + s.ids.length, 0) / samples.length;
    const realTokens = run * schedule.batchSize * meanLen;
    const perStep = seconds / run;
    const tail = losses.slice(-Math.min(20, losses.length));
    out.push({
      stage,
      samples: samples.length,
      steps,
      steps_run: run,
      extrapolated: run < steps,
      seconds: Math.round(perStep * steps * 10) / 10,
      seconds_per_step: Math.round(perStep * 1e4) / 1e4,
      // CPU time of all threads: on a loaded machine it shows the work done, where wall time shows the share got
      cpu_seconds_per_step: Math.round(((cpu.user + cpu.system) / 1e6 / run) * 1e4) / 1e4,
      real_tokens_per_s: Math.round(realTokens / seconds),
      final_loss: Math.round(losses[losses.length - 1]! * 1e4) / 1e4,
      last_losses_mean: Math.round((tail.reduce((a, b) => a + b, 0) / tail.length) * 1e4) / 1e4,
    });
    process.stderr.write(`${stage}: ${JSON.stringify(out[out.length - 1])}\n`);
  }
  return { setup_seconds: Math.round(setup * 10) / 10, stages: out };
}

const figures: Record<string, unknown> = {
  load_average_start: loadavg().map((x) => Math.round(x * 100) / 100),
  steps_limit: maxSteps > 0 ? maxSteps : null,
};
const started = performance.now();
const tools = sharedFile("metatool/tools.json");
const queriesFile = sharedFile("metatool/queries.csv");
if (parts.includes("metatool") && tools && queriesFile) {
  const catalog = loadCatalog(tools);
  const queries = loadQueries(queriesFile, catalog);
  figures.metatool = {
    queries: queries.length,
    ...(await runStages(catalog, queries, ["memorization", "retrieval"])),
  };
}
const apis = sharedFile("stabletoolbench/apis.json");
if (parts.includes("stabletoolbench") && apis) {
  const catalog = loadCatalog(apis);
  figures.stabletoolbench = { apis: catalog.length, ...(await runStages(catalog, [], ["memorization"])) };
}
figures.wall_seconds = Math.round((performance.now() - started) / 100) / 10;
figures.peak_rss_mb = Math.round(process.resourceUsage().maxRSS / 1024);
figures.load_average_end = loadavg().map((x) => Math.round(x * 100) / 100);
writeBenchResult(
  outName,
  `npx tsx bench/engine-schedule.ts ${process.argv.slice(2).join(" ")}`.trim(),
  figures,
);
