import type { Command } from "commander";
import { loadCatalog, loadQueries, CATALOG_FORMATS, type CatalogFormat } from "../catalog/load.ts";
import { INDEX_KINDS, isIndexKind } from "../toolgen/ids.ts";
import { STAGES, type Stage } from "../train/datasets.ts";
import { exportTraining, readTrajectoriesFile } from "../train/export.ts";
import { EXPORT_FORMATS, isExportFormat } from "../train/export-formats.ts";
import { runAction } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";
import { positiveIntegerOption } from "./number-options.ts";

interface ExportTrainingCliOptions {
  catalog: string;
  catalogFormat?: string;
  queries: string[];
  trajectories?: string;
  format: string;
  out: string;
  index: string;
  model: string;
  gpus: string;
  perDeviceBatch: string;
  template: string;
  epochs?: string;
  json?: boolean;
}

/** `--epochs memorization=8,retrieval=1,agent=2`. */
function epochs(text: string | undefined): Partial<Record<Stage, number>> {
  const out: Partial<Record<Stage, number>> = {};
  for (const part of text?.split(",") ?? []) {
    const [stage, value] = part.split("=").map((s) => s.trim());
    const n = Number(value);
    if (!(STAGES as readonly string[]).includes(stage ?? "") || !(n > 0))
      throw new ToolgenError(
        "invalid_option",
        `--epochs expects stage=N pairs (stages: ${STAGES.join(", ")}), got "${part}"`,
      );
    out[stage as Stage] = n;
  }
  return out;
}

/** The `export` group is shared with `export gguf`: whichever registers first creates it. */
function exportGroup(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === "export") ??
    program.command("export").description("write models and data in other tools' formats")
  );
}

/** `toolgen export training --catalog F --queries F [--trajectories F] --format llamafactory|axolotl|trl --out DIR`. */
export function register(program: Command): void {
  exportGroup(program)
    .command("training")
    .description(
      "write ToolGen's stage datasets and paper-recipe configs (DeepSpeed ZeRO-3) for LLaMA-Factory, axolotl or TRL",
    )
    .requiredOption("--catalog <file>", "catalog file or folder (format recognised from the file)")
    .option("--catalog-format <name>", `force the catalog format (${CATALOG_FORMATS.join(", ")})`)
    .requiredOption("--queries <files...>", "labelled queries for the retrieval stage (one or more files)")
    .option("--trajectories <file>", "agent trajectories JSONL for the agent-tuning stage")
    .requiredOption("--format <name>", EXPORT_FORMATS.join(" | "))
    .requiredOption("--out <dir>", "folder to write the data, configs and run.sh into")
    .option("--index <kind>", `how tools are written (${INDEX_KINDS.join(", ")})`, "atomic")
    .option("--model <dir>", "the virtualized model folder as the training machine sees it", "virtualized")
    .option("--gpus <n>", "GPUs on the training machine", "8")
    .option("--per-device-batch <n>", "sequences per GPU per step (the total batch stays 512)", "2")
    .option("--template <name>", "the engine's chat template name", "llama3")
    .option("--epochs <list>", "override epochs, e.g. memorization=8,retrieval=1,agent=2")
    .option("--json", "print one JSON object with the summary")
    .action(
      runAction((opts: ExportTrainingCliOptions) => {
        if (!isExportFormat(opts.format))
          throw new ToolgenError(
            "invalid_option",
            `--format must be one of ${EXPORT_FORMATS.join(", ")}, got "${opts.format}"`,
          );
        if (!isIndexKind(opts.index))
          throw new ToolgenError(
            "invalid_option",
            `--index must be one of ${INDEX_KINDS.join(", ")}, got "${opts.index}"`,
          );
        const entries = loadCatalog(opts.catalog, {
          format: opts.catalogFormat as CatalogFormat | undefined,
        });
        const queries = opts.queries.flatMap((f) => loadQueries(f, entries));
        const summary = exportTraining({
          format: opts.format,
          out: opts.out,
          entries,
          queries,
          trajectories: opts.trajectories ? readTrajectoriesFile(opts.trajectories) : undefined,
          index: opts.index,
          model: opts.model,
          gpus: positiveIntegerOption(opts.gpus, "--gpus"),
          perDeviceBatch: positiveIntegerOption(opts.perDeviceBatch, "--per-device-batch"),
          template: opts.template,
          epochs: epochs(opts.epochs),
        });
        if (opts.json) process.stdout.write(JSON.stringify(summary) + "\n");
        else {
          const counts = summary.stages.map((s) => `${s} ${summary.records[s]}`).join(", ");
          process.stdout.write(
            `wrote ${summary.files.length} files to ${summary.out} (${opts.format}: ${counts})\n`,
          );
          if (summary.skippedLabels > 0)
            process.stdout.write(
              `left out ${summary.skippedLabels} relevance labels naming tools outside the catalog\n`,
            );
          process.stdout.write(`run the stages with: bash ${summary.out}/run.sh\n`);
        }
      }),
    );
}
