import type { Command } from "commander";
import type { BfclAggregate } from "../eval/bfcl-aggregate.ts";
import {
  BfclModelAbortError,
  DEFAULT_MAX_CONSECUTIVE_ERRORS,
  evaluateBfclModel,
  evaluateBfclOracle,
  type BfclReport,
} from "../eval/bfcl.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { resolveModel } from "../models/resolve.ts";
import { ToolgenError } from "../errors.ts";
import { CommandError, runAction } from "./run-action.ts";

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

function aggregateText(name: string, a: BfclAggregate): string {
  const figure = a.accuracy === null ? "n/a" : `${a.accuracy}%`;
  const missing = a.missing.length > 0 && a.categories.length > 0 ? ` (without ${a.missing.join(", ")})` : "";
  return `  ${name}: ${figure}${a.categories.length > 0 ? ` over ${a.total} items` : ""}${missing}`;
}

function bfclText(report: BfclReport): string {
  const v4 = report.bfcl_v4;
  const lines = [
    "BFCL v4 summary",
    aggregateText("Non-Live AST", v4.non_live),
    aggregateText("  simple (python, java, javascript)", v4.simple),
    aggregateText("Live AST", v4.live),
    aggregateText("Irrelevance", v4.irrelevance),
    aggregateText("Relevance", v4.relevance),
    `All items (plain share, not a BFCL figure): ${report.accuracy}% (${report.correct}/${report.total})`,
  ];
  for (const [c, f] of Object.entries(report.by_category))
    lines.push(`  ${c}: ${f.accuracy}% (${f.correct}/${f.total})`);
  for (const [fmt, f] of Object.entries(report.by_format ?? {}))
    lines.push(`  format ${fmt}: ${f.accuracy}%`);
  for (const [m, f] of Object.entries(report.mutations ?? {}))
    lines.push(`  mutation ${m}: ${f.rejected}/${f.applied} rejected`);
  for (const f of report.failures.slice(0, 20))
    lines.push(`  FAIL ${f.id} ${f.format ?? ""} ${f.errorType}: ${f.error}`);
  return lines.join("\n") + "\n";
}

/**
 * Progress on stderr: one line redrawn in place on a terminal, else a line every `everyMs` (and at the end) so
 * that a log shows the run is alive; model errors are printed as they come, each on its own line.
 */
function progressLines(label: string, everyMs = 10_000) {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  let shown = "";
  let errors = 0;
  const line = (done: number, total: number): string =>
    `${label}: ${done}/${total} items (${((100 * done) / Math.max(1, total)).toFixed(1)} %)` +
    (errors > 0 ? `, ${errors} model error${errors === 1 ? "" : "s"}` : "");
  return {
    update: (done: number, total: number): void => {
      shown = line(done, total);
      const now = Date.now();
      if (tty) process.stderr.write(`\r${shown}\x1b[K`);
      else if (done === 1 || done === total || now - last >= everyMs) {
        process.stderr.write(shown + "\n");
        last = now;
      }
    },
    modelError: (id: string, message: string, inARow: number): void => {
      errors++;
      const text = `${label}: model error on ${id} (${inARow} in a row): ${oneLine(message)}`;
      process.stderr.write(tty ? `\r${text}\x1b[K\n${shown}` : text + "\n");
    },
    stop: (): void => {
      if (tty && shown !== "") process.stderr.write("\n");
    },
  };
}

function parseLimit(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n))
    throw new ToolgenError(
      "invalid_option",
      `--max-consecutive-errors must be a whole number ≥ 0 (0 = never stop), got "${text}"`,
    );
  return n;
}

/** What --json prints: the summary without the failure list (its size and the failed ids instead). */
function summaryJson(report: BfclReport): Record<string, unknown> {
  const { failures, ...summary } = report;
  return {
    ...summary,
    failures: failures.length,
    failed_ids: [...new Set(failures.map((f) => f.id))].slice(0, 100),
  };
}

interface BfclOptions {
  data: string;
  categories?: string;
  oracle?: boolean;
  model?: string;
  maxConsecutiveErrors: string;
  report?: string;
  json?: boolean;
}

/**
 * `toolgen eval bfcl --data DIR [--categories a,b] (--oracle | --model SPEC) [--max-consecutive-errors N]
 * [--report FILE] [--json]`.
 */
export function registerBfcl(evalCmd: Command): void {
  evalCmd
    .command("bfcl")
    .description(
      "BFCL accuracy as the leaderboard scores it (AST categories, relevance, irrelevance, v4 summary): --oracle checks the pipeline with the possible answers, --model runs a backend",
    )
    .requiredOption("--data <dir>", "BFCL data folder (BFCL_v4_<category>.json + possible_answer/)")
    .option("--categories <list>", "comma-separated categories (default: all in the folder)")
    .option("--oracle", "render each possible answer in every parser format, parse back and check")
    .option("--model <spec>", "a model spec (openai:MODEL@URL, builtin:DIR, gguf:FILE, scripted:FILE)")
    .option(
      "--max-consecutive-errors <n>",
      "with --model: stop (exit 1) after this many model errors in a row; 0 = never stop",
      String(DEFAULT_MAX_CONSECUTIVE_ERRORS),
    )
    .option("--report <file>", "also write the JSON report (with every failure)")
    .option("--json", "print one JSON object")
    .action(
      runAction(async (opts: BfclOptions) => {
        const progress = progressLines("eval bfcl");
        try {
          if ((opts.oracle === true) === (opts.model !== undefined))
            throw new ToolgenError("invalid_option", "give exactly one of --oracle or --model SPEC");
          const maxConsecutiveErrors = parseLimit(opts.maxConsecutiveErrors);
          const categories = opts.categories
            ?.split(",")
            .map((c) => c.trim())
            .filter(Boolean);
          const report = opts.oracle
            ? evaluateBfclOracle(opts.data, { categories, onProgress: progress.update })
            : await evaluateBfclModel(opts.data, await resolveModel(opts.model as string), {
                categories,
                maxConsecutiveErrors,
                onProgress: progress.update,
                onModelError: progress.modelError,
              });
          progress.stop();
          if (opts.report !== undefined) writeFileAtomic(opts.report, JSON.stringify(report, null, 2) + "\n");
          process.stdout.write(opts.json ? JSON.stringify(summaryJson(report)) + "\n" : bfclText(report));
        } catch (error) {
          progress.stop();
          const message = oneLine((error as Error).message);
          if (!(error instanceof BfclModelAbortError)) throw new CommandError(message, { cause: error });
          // A stopped run keeps what it measured: the partial report goes where the full one would have.
          if (opts.report !== undefined) {
            writeFileAtomic(opts.report, JSON.stringify({ error: message, ...error.report }, null, 2) + "\n");
          }
          throw new CommandError(message, {
            json: { error: message, ...summaryJson(error.report) },
            cause: error,
          });
        }
      }),
    );
}
