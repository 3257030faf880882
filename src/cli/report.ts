import { writeFileAtomic } from "../io/atomic.ts";
import type { Command } from "commander";
import { collectReportData, readResultFiles } from "../report/collect.ts";
import { renderReport } from "../report/html.ts";
import { runAction } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";

interface ReportCliOptions {
  out: string;
  title?: string;
}

/** `toolgen report --out FILE.html [PATHS…]`: one self-contained page from bench/results and eval JSON. */
export function register(program: Command): void {
  program
    .command("report")
    .description("write a self-contained HTML report (NDCG, training, latency) from result JSON files")
    .argument("[paths...]", "JSON files or folders of them (default: bench/results)")
    .requiredOption("--out <file>", "the HTML file to write")
    .option("--title <text>", "page title")
    .action(
      runAction((paths: string[], opts: ReportCliOptions) => {
        const { files, skipped } = readResultFiles(paths.length > 0 ? paths : ["bench/results"]);
        if (files.length === 0)
          throw new ToolgenError(
            "invalid_input",
            `no result JSON found in ${paths.join(", ") || "bench/results"}`,
          );
        const data = collectReportData(files, skipped);
        writeFileAtomic(
          opts.out,
          renderReport(data, {
            title: opts.title,
            generated: `Generated ${new Date().toISOString()} from ${files.length} files.`,
          }),
        );
        process.stdout.write(
          `${opts.out}: ${files.length} files, ${data.ndcg.length} NDCG rows, ${data.losses.length} loss curves, ${data.stages.length} training stages, ${data.latencySamples.length + data.percentiles.length} latency charts\n`,
        );
      }),
    );
}
