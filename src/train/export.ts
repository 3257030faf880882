import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { buildToolIndex, type IndexKind } from "../toolgen/ids.ts";
import {
  agentSamples,
  memorizationSamples,
  retrievalSamples,
  type Stage,
  type StageSample,
  type Trajectory,
} from "./datasets.ts";
import {
  DEEPSPEED_FILE,
  PAPER_RECIPE,
  deepSpeedZero3,
  runScript,
  stageConfigs,
  type ConfigOptions,
} from "./export-configs.ts";
import {
  llamaFactoryDatasetInfo,
  stageFile,
  toChatMessages,
  toPromptCompletion,
  toShareGpt,
  type ExportFormat,
} from "./export-formats.ts";
import { ToolgenError } from "../errors.ts";

/**
 * `toolgen export training`: ToolGen's three stage datasets (memorization, retrieval, agent tuning) written for
 * an existing training engine — LLaMA-Factory, axolotl or TRL — with DeepSpeed ZeRO-3 and stage configs that
 * reproduce the paper, so an 8B model is trained on GPUs from toolgen's data. The model itself is prepared by
 * `toolgen virtualize`.
 */
export interface TrainingExportOptions {
  format: ExportFormat;
  out: string;
  entries: readonly CatalogEntry[];
  queries: readonly LabelledQuery[];
  trajectories?: readonly Trajectory[];
  /** How tools are written (default atomic: the tokens `toolgen virtualize` adds). */
  index?: IndexKind;
  /** The virtualized model folder, as the training machine sees it (default `virtualized`). */
  model?: string;
  gpus?: number;
  perDeviceBatch?: number;
  /** The engine's chat template name (default llama3, the paper's). */
  template?: string;
  epochs?: Partial<Record<Stage, number>>;
}

export interface TrainingExportSummary {
  out: string;
  format: ExportFormat;
  stages: Stage[];
  /** Stage samples, and records written (TRL writes one record per assistant turn). */
  samples: Partial<Record<Stage, number>>;
  records: Partial<Record<Stage, number>>;
  /** Relevance labels naming tools outside the catalog (left out). */
  skippedLabels: number;
  files: string[];
}

function records(format: ExportFormat, stage: Stage, samples: readonly StageSample[]): unknown[] {
  if (format === "llamafactory") return samples.map((s, i) => toShareGpt(s, `${stage} sample ${i + 1}`));
  if (format === "axolotl") return samples.map(toChatMessages);
  return samples.flatMap(toPromptCompletion);
}

function serialise(format: ExportFormat, rows: readonly unknown[]): string {
  if (format === "llamafactory") return JSON.stringify(rows) + "\n";
  return rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length > 0 ? "\n" : "");
}

function positiveInt(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ToolgenError("invalid_option", `${what} must be a positive integer, got ${value}`);
  return value;
}

export function exportTraining(o: TrainingExportOptions): TrainingExportSummary {
  if (o.entries.length === 0) throw new ToolgenError("invalid_option", "the catalog is empty");
  const index = buildToolIndex(o.entries, o.index ?? "atomic");
  const data: Partial<Record<Stage, StageSample[]>> = { memorization: memorizationSamples(o.entries, index) };
  const retrieval = retrievalSamples(o.queries, index, { skipUnknown: true });
  if (retrieval.samples.length === 0)
    throw new ToolgenError(
      "invalid_option",
      "no retrieval samples: none of the queries labels a tool of this catalog",
    );
  data.retrieval = retrieval.samples;
  if (o.trajectories && o.trajectories.length > 0)
    data.agent = agentSamples(o.trajectories, o.entries, index);
  const stages = (["memorization", "retrieval", "agent"] as const).filter((s) => data[s] !== undefined);
  for (const [stage, n] of Object.entries(o.epochs ?? {})) {
    if (!(typeof n === "number" && n > 0))
      throw new ToolgenError("invalid_option", `epochs for ${stage} must be a positive number`);
  }
  const config: ConfigOptions = {
    format: o.format,
    model: o.model ?? "virtualized",
    stages,
    gpus: positiveInt(o.gpus ?? 8, "gpus"),
    perDeviceBatch: positiveInt(o.perDeviceBatch ?? 2, "per-device batch"),
    template: o.template ?? "llama3",
    recipe: { ...PAPER_RECIPE, epochs: { ...PAPER_RECIPE.epochs, ...o.epochs } },
  };
  const configs = stageConfigs(config); // validates the batch arithmetic before anything is written

  mkdirSync(o.out, { recursive: true });
  const written: string[] = [];
  const write = (file: string, text: string) => {
    writeFileAtomic(join(o.out, file), text);
    written.push(file);
  };
  const summary: TrainingExportSummary = {
    out: o.out,
    format: o.format,
    stages,
    samples: {},
    records: {},
    skippedLabels: retrieval.skipped,
    files: written,
  };
  for (const stage of stages) {
    const rows = records(o.format, stage, data[stage]!);
    write(stageFile(o.format, stage), serialise(o.format, rows));
    summary.samples[stage] = data[stage]!.length;
    summary.records[stage] = rows.length;
  }
  if (o.format === "llamafactory") {
    const info = Object.fromEntries(
      stages.map((s) => [`toolgen_${s}`, llamaFactoryDatasetInfo(stageFile("llamafactory", s))]),
    );
    write("dataset_info.json", JSON.stringify(info, null, 2) + "\n");
  }
  write(DEEPSPEED_FILE, JSON.stringify(deepSpeedZero3(), null, 2) + "\n");
  for (const c of configs) write(c.file, c.text);
  write("run.sh", runScript(config));
  return summary;
}

/** Reads trajectories JSONL: `{"query", "steps": [{"thought", "action", "arguments", "observation"?}]}`. */
export function readTrajectoriesFile(file: string): Trajectory[] {
  const out: Trajectory[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      const where = `${file}:${i + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        throw new ToolgenError("invalid_input", `${where}: not JSON`, { cause: e });
      }
      const t = value as Partial<Trajectory>;
      const okStep = (s: unknown) => {
        const step = s as Record<string, unknown>;
        return (
          typeof step?.thought === "string" &&
          typeof step.action === "string" &&
          typeof step.arguments === "object" &&
          step.arguments !== null
        );
      };
      if (typeof t?.query !== "string" || !Array.isArray(t.steps) || !t.steps.every(okStep)) {
        throw new ToolgenError(
          "invalid_input",
          `${where}: expected {"query", "steps": [{"thought", "action", "arguments", "observation"?}]}`,
        );
      }
      out.push(t as Trajectory);
    });
  return out;
}
