import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { CATALOG_FORMATS, loadCatalog, type CatalogFormat } from "../catalog/load.ts";
import { ToolgenError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { splitHeldOut } from "../synth/split.ts";
import { synthQueries, synthTrajectories } from "../synth/outputs.ts";
import {
  DEFAULT_DECLINE_SHARE,
  DEFAULT_DISTRACTORS,
  DEFAULT_MAX_CALLS,
  DEFAULT_MULTI_CALL_SHARE,
  synthesizeWithReport,
} from "../synth/synthesize.ts";
import { integerOption } from "./number-options.ts";
import { runAction } from "./run-action.ts";

interface SynthCliOptions {
  catalog: string;
  format?: string;
  out: string;
  perTool: string;
  seed: string;
  multiCallShare: string;
  declineShare: string;
  maxCalls: string;
  shapeShare: string;
  distractors: string;
  heldOut: string;
  json?: boolean;
}

function shareOption(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === "" || !(Number.isFinite(n) && n >= 0 && n <= 1))
    throw new ToolgenError("invalid_option", `${flag} must be a number in [0, 1], got "${value}"`);
  return n;
}

/**
 * `--per-tool auto`: the tiny preset counts epochs, so the questions, not the catalog, set how many optimizer steps
 * the retrieval stage takes. On StableToolBench's Translation category (11 APIs) 8 questions per tool gave 62
 * steps and a model that had not learnt even its own questions; 40 gave 259 steps and 98.5 NDCG@1 on them
 * (bench/results/synth-recipe.json). About 2,000 questions in all, and at least 4 per tool, keeps a small catalog
 * above that.
 */
const AUTO_QUESTIONS = 2000;
const MIN_PER_TOOL = 4;
export function autoPerTool(tools: number): number {
  return Math.max(MIN_PER_TOOL, Math.ceil(AUTO_QUESTIONS / Math.max(1, tools)));
}

const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r) + "\n").join("");

/**
 * `toolgen synth --catalog FILE --out DIR`: labelled questions written from the catalog's schemas (src/synth),
 * as SynthItems, ToolGen agent trajectories and retrieval queries, with a held-out share kept apart.
 */
export function register(program: Command): void {
  program
    .command("synth")
    .description("write labelled questions and ToolGen trajectories for any catalog, from its tools' schemas")
    .requiredOption("--catalog <file>", "catalog file or folder (format recognised from the file)")
    .option("--format <name>", `force the catalog format (${CATALOG_FORMATS.join(", ")})`)
    .requiredOption(
      "--out <dir>",
      "folder for questions.jsonl, trajectories.jsonl, queries.jsonl and held-out files",
    )
    .option(
      "--per-tool <n>",
      `one-call questions per tool; auto: at least ${MIN_PER_TOOL}, and ${AUTO_QUESTIONS.toLocaleString("en-US")} in all for a small catalog`,
      "auto",
    )
    .option("--seed <n>", "random seed", "0")
    .option(
      "--multi-call-share <x>",
      "two-call questions, as a share of the one-call ones",
      String(DEFAULT_MULTI_CALL_SHARE),
    )
    .option(
      "--max-calls <n>",
      "most calls a multi-call question holds (2 to 8; above 2 each draws 2 to n)",
      String(DEFAULT_MAX_CALLS),
    )
    .option(
      "--shape-share <x>",
      "multi-call questions written as a value said once for two calls, values set out first or a call pointing back (src/synth/multi-shapes.ts)",
      "0",
    )
    .option(
      "--decline-share <x>",
      "questions no tool answers, as a share of the one-call ones",
      String(DEFAULT_DECLINE_SHARE),
    )
    .option(
      "--distractors <n>",
      "tools offered with a question besides the called ones",
      String(DEFAULT_DISTRACTORS),
    )
    .option("--held-out <x>", "share of the questions kept out of the training files", "0.1")
    .option("--json", "print a JSON summary")
    .action(
      runAction((opts: SynthCliOptions) => {
        // every option checked before the catalog is read and before anything is written
        const perTool = opts.perTool === "auto" ? undefined : integerOption(opts.perTool, "--per-tool", 1);
        const seed = integerOption(opts.seed, "--seed", 0);
        const multiCallShare = shareOption(opts.multiCallShare, "--multi-call-share");
        const declineShare = shareOption(opts.declineShare, "--decline-share");
        const shapeShare = shareOption(opts.shapeShare, "--shape-share");
        const distractors = integerOption(opts.distractors, "--distractors", 0);
        const maxCalls = integerOption(opts.maxCalls, "--max-calls", 2);
        if (maxCalls > 8)
          throw new ToolgenError(
            "invalid_option",
            `--max-calls must be a whole number from 2 to 8, got ${maxCalls}`,
          );
        const heldOutShare = shareOption(opts.heldOut, "--held-out");
        if (existsSync(opts.out) && !statSync(opts.out).isDirectory())
          throw new ToolgenError("invalid_option", `--out ${opts.out} is a file, not a folder`);
        const started = Date.now();
        const catalog = loadCatalog(opts.catalog, { format: opts.format as CatalogFormat | undefined });
        const { items, unusable } = synthesizeWithReport(catalog, {
          seed,
          perTool: perTool ?? autoPerTool(catalog.length),
          multiCallShare,
          maxCalls,
          shapeShare,
          declineShare,
          distractors,
        });
        const { train, heldOut } = splitHeldOut(items, heldOutShare, seed);
        writeFileAtomic(join(opts.out, "questions.jsonl"), jsonl(train));
        writeFileAtomic(join(opts.out, "trajectories.jsonl"), jsonl(synthTrajectories(train)));
        writeFileAtomic(join(opts.out, "queries.jsonl"), jsonl(synthQueries(train)));
        writeFileAtomic(join(opts.out, "held-out.jsonl"), jsonl(heldOut));
        writeFileAtomic(join(opts.out, "held-out-queries.jsonl"), jsonl(synthQueries(heldOut)));
        const summary = {
          out: opts.out,
          tools: catalog.length,
          unusable: unusable.length,
          questions: items.length,
          train: train.length,
          heldOut: heldOut.length,
          oneCall: items.filter((i) => i.calls.length === 1).length,
          twoCall: items.filter((i) => i.calls.length === 2).length,
          moreCalls: items.filter((i) => i.calls.length > 2).length,
          decline: items.filter((i) => i.calls.length === 0).length,
          seconds: (Date.now() - started) / 1000,
        };
        if (opts.json) process.stdout.write(JSON.stringify(summary) + "\n");
        else {
          process.stdout.write(
            `${summary.questions} questions for ${summary.tools} tools (${summary.oneCall} one-call, ${summary.twoCall} two-call, ${summary.moreCalls > 0 ? `${summary.moreCalls} with 3 or more calls, ` : ""}${summary.decline} decline; ${summary.unusable} tools with no valid call) in ${summary.seconds.toFixed(1)} s\n` +
              `${summary.train} for training in ${opts.out}/questions.jsonl, trajectories.jsonl, queries.jsonl; ${summary.heldOut} held out in held-out.jsonl, held-out-queries.jsonl\n`,
          );
          if (unusable.length > 0)
            process.stdout.write(
              `no valid call drawn for: ${unusable.slice(0, 10).join(", ")}${unusable.length > 10 ? ", …" : ""}\n`,
            );
        }
      }),
    );
}
