import type { Command } from "commander";
import { evaluateBfclModel, evaluateBfclOracle, type BfclReport } from "../eval/bfcl.ts";
import { progressBar } from "../eval/progress.ts";
import { writeFileAtomic } from "../nn/io/atomic.ts";
import { resolveModel } from "../models/resolve.ts";

function bfclText(report: BfclReport): string {
  const lines = [`BFCL accuracy ${report.accuracy}% (${report.correct}/${report.total})`];
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

/** `toolgen eval bfcl --data DIR [--categories a,b] (--oracle | --model SPEC) [--json]`. */
export function registerBfcl(evalCmd: Command): void {
  evalCmd
    .command("bfcl")
    .description(
      "BFCL AST accuracy: --oracle checks the pipeline with the possible answers, --model runs a backend",
    )
    .requiredOption("--data <dir>", "BFCL data folder (BFCL_v4_<category>.json + possible_answer/)")
    .option("--categories <list>", "comma-separated categories (default: all in the folder)")
    .option("--oracle", "render each possible answer in every parser format, parse back and check")
    .option("--model <spec>", "a model spec (openai:MODEL@URL, builtin:DIR, gguf:FILE, scripted:FILE)")
    .option("--report <file>", "also write the JSON report")
    .option("--json", "print one JSON object")
    .action(
      async (opts: {
        data: string;
        categories?: string;
        oracle?: boolean;
        model?: string;
        report?: string;
        json?: boolean;
      }) => {
        try {
          if ((opts.oracle === true) === (opts.model !== undefined))
            throw new Error("give exactly one of --oracle or --model SPEC");
          const categories = opts.categories
            ?.split(",")
            .map((c) => c.trim())
            .filter(Boolean);
          const bar = progressBar("eval bfcl");
          const report = opts.oracle
            ? evaluateBfclOracle(opts.data, { categories, onProgress: bar.update })
            : await evaluateBfclModel(opts.data, await resolveModel(opts.model as string), {
                categories,
                onProgress: bar.update,
              });
          bar.stop();
          const { failures, ...summary } = report;
          const json = {
            ...summary,
            failures: failures.length,
            failed_ids: [...new Set(failures.map((f) => f.id))].slice(0, 100),
          };
          if (opts.report !== undefined) writeFileAtomic(opts.report, JSON.stringify(report, null, 2) + "\n");
          process.stdout.write(opts.json ? JSON.stringify(json) + "\n" : bfclText(report));
        } catch (error) {
          process.stderr.write(`toolgen eval bfcl: ${(error as Error).message}\n`);
          process.exitCode = 1;
        }
      },
    );
}
