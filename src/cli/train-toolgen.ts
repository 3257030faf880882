import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { loadCatalog, loadQueries } from "../catalog/load.ts";
import type { LabelledQuery } from "../catalog/catalog.ts";
import { INDEX_KINDS, isIndexKind } from "../toolgen/ids.ts";
import { STAGES, type Stage, type Trajectory } from "../train/datasets.ts";
import { MANIFEST_FILE, readManifest } from "../toolgen/model-folder.ts";
import { trainToolGen, type ToolGenTrainOptions } from "../train/pipeline.ts";
import { CommandError } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";
import { integerOption, positiveNumberOption } from "./number-options.ts";

/** The options `toolgen train` gives the ToolGen branch (`--catalog …`). */
export interface ToolGenTrainCliOptions {
  catalog: string;
  queries?: string[];
  trajectories?: string;
  out: string;
  preset: string;
  index: string;
  stages?: string;
  epochs?: string;
  tokenDropout?: string;
  averageLast?: string;
  userLoss?: string;
  userLossFraction?: string;
  splitDigits?: boolean;
  devFraction?: string;
  devToolsFraction?: string;
  gateAt?: string;
  seed: string;
  lr?: string;
  batchSize?: string;
  vocabSize?: string;
  progress: boolean;
  resume?: boolean;
  json?: boolean;
}

/** The share of the queries `toolgen train` holds out as dev queries unless told (`--dev-fraction`). */
export const DEFAULT_DEV_FRACTION = 0.05;

function parseStages(text: string | undefined): Stage[] | undefined {
  if (text === undefined) return undefined;
  const stages = text.split(",").map((s) => s.trim());
  for (const s of stages) {
    if (!(STAGES as readonly string[]).includes(s))
      throw new ToolgenError(
        "invalid_option",
        `--stages: unknown stage "${s}" (accepted: ${STAGES.join(", ")})`,
      );
  }
  return stages as Stage[];
}

/** `stage=value` pairs (`--epochs memorization=8,retrieval=3`, `--token-dropout retrieval=0.25`). */
function parseStageValues(
  flag: string,
  text: string | undefined,
  valid: (n: number) => boolean,
  example: string,
): Partial<Record<Stage, number>> {
  const out: Partial<Record<Stage, number>> = {};
  for (const part of text?.split(",") ?? []) {
    const [stage, value] = part.split("=").map((s) => s.trim());
    const n = Number(value);
    if (!(STAGES as readonly string[]).includes(stage ?? "") || value === "" || !valid(n)) {
      throw new ToolgenError(
        "invalid_option",
        `${flag} expects stage=value pairs, e.g. ${example}; got "${part}"`,
      );
    }
    out[stage as Stage] = n;
  }
  return out;
}

function readTrajectories(file: string): Trajectory[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line, i) => {
      let t: Partial<Trajectory>;
      try {
        t = JSON.parse(line) as Partial<Trajectory>;
      } catch (e) {
        throw new ToolgenError("invalid_input", `${file}:${i + 1}: not JSON`, { cause: e });
      }
      if (typeof t.query !== "string" || !Array.isArray(t.steps)) {
        throw new ToolgenError(
          "invalid_option",
          `${file}:${i + 1}: expected {"query", "steps": [{thought, action, arguments, observation?}]}`,
        );
      }
      return t as Trajectory;
    });
}

/** A share of queries or tools in [0, 0.5]. */
function shareOption(text: string, flag: string): number {
  const n = Number(text);
  if (text.trim() === "" || !(n >= 0 && n <= 0.5))
    throw new ToolgenError("invalid_option", `${flag} must be a number in [0, 0.5], got "${text}"`);
  return n;
}

/** The dev queries held out for the hybrid's gate (`--dev-fraction`, `--dev-tools-fraction`, `--gate-at`). */
function devOptions(opts: ToolGenTrainCliOptions): ToolGenTrainOptions["dev"] {
  const fraction = shareOption(opts.devFraction ?? String(DEFAULT_DEV_FRACTION), "--dev-fraction");
  const tools = opts.devToolsFraction ?? "auto";
  const toolsFraction = tools === "auto" ? "auto" : shareOption(tools, "--dev-tools-fraction (or auto)");
  const gateAt = opts.gateAt !== undefined ? integerOption(opts.gateAt, "--gate-at", 1) : undefined;
  return { fraction, toolsFraction, ...(gateAt !== undefined ? { gateAt } : {}) };
}

/** The ToolGen branch of `toolgen train`: catalog + labelled queries → a virtualized, stage-trained model folder. */
export async function runToolGenTraining(
  opts: ToolGenTrainCliOptions,
  command: Command,
  signal: AbortSignal,
): Promise<void> {
  if (opts.preset !== "tiny" && opts.preset !== "small")
    throw new ToolgenError("invalid_option", `--preset must be tiny or small, got "${opts.preset}"`);
  if (!isIndexKind(opts.index))
    throw new ToolgenError(
      "invalid_option",
      `--index must be one of ${INDEX_KINDS.join(", ")}, got "${opts.index}"`,
    );
  const seed = Number(opts.seed);
  if (!Number.isInteger(seed) || seed < 0)
    throw new ToolgenError("invalid_option", `--seed must be a non-negative integer, got "${opts.seed}"`);
  // Every option is checked here, before trainToolGen writes the folder (a half-written one would carry the
  // wrong fingerprint and block the corrected command).
  // not given: the preset's schedule decides (train.ts gives these options no commander default)
  const lr = opts.lr !== undefined ? positiveNumberOption(opts.lr, "--lr") : undefined;
  const batchSize =
    opts.batchSize !== undefined ? integerOption(opts.batchSize, "--batch-size", 1) : undefined;
  const vocabSize =
    opts.vocabSize !== undefined ? integerOption(opts.vocabSize, "--vocab-size", 256) : undefined;
  const dev = devOptions(opts);
  // ToolGen training always continues a matching run in --out; --resume adds the promise that there is one.
  if (opts.resume && !readManifest(opts.out)) {
    throw new ToolgenError(
      "invalid_option",
      `--resume: ${opts.out} holds no ToolGen training run (${MANIFEST_FILE}) to continue; drop --resume to start one`,
    );
  }
  const catalog = loadCatalog(opts.catalog);
  const queries: LabelledQuery[] = (opts.queries ?? []).flatMap((f) => loadQueries(f, catalog));
  const epochs = parseStageValues("--epochs", opts.epochs, (n) => n > 0, "memorization=8,retrieval=3");
  const dropout = parseStageValues(
    "--token-dropout",
    opts.tokenDropout,
    (n) => n >= 0 && n < 1,
    "retrieval=0.25 (a probability in [0, 1))",
  );
  const averageLast = parseStageValues(
    "--average-last",
    opts.averageLast,
    (n) => n >= 0 && n < 1,
    "retrieval=0.25 (the fraction of the stage's last updates averaged, in [0, 1))",
  );
  const userLoss = parseStageValues(
    "--user-loss",
    opts.userLoss,
    (n) => n === 0 || n === 1,
    "memorization=1,retrieval=0 (1: on, 0: off)",
  );
  const userLossFraction = parseStageValues(
    "--user-loss-fraction",
    opts.userLossFraction,
    (n) => n > 0 && n <= 1,
    "retrieval=0.25 (the fraction of the user's words in the loss, in (0, 1])",
  );
  const stages = Object.fromEntries(
    STAGES.map((s) => [
      s,
      {
        ...(epochs[s] !== undefined ? { epochs: epochs[s] } : {}),
        ...(dropout[s] !== undefined ? { tokenDropout: dropout[s] } : {}),
        ...(userLoss[s] !== undefined ? { userLoss: userLoss[s] === 1 } : {}),
        ...(userLossFraction[s] !== undefined ? { userLossFraction: userLossFraction[s] } : {}),
        ...(averageLast[s] !== undefined ? { averageLast: averageLast[s] } : {}),
        ...(lr !== undefined ? { lr } : {}),
      },
    ]),
  );
  const manifest = await trainToolGen({
    catalog,
    queries,
    trajectories: opts.trajectories ? readTrajectories(opts.trajectories) : undefined,
    out: opts.out,
    preset: opts.preset,
    index: opts.index,
    stages: parseStages(opts.stages),
    seed,
    progress: opts.progress,
    signal,
    dev,
    schedule: {
      ...(batchSize !== undefined ? { batchSize } : {}),
      ...(vocabSize !== undefined ? { tokenizerVocab: vocabSize } : {}),
      ...(opts.splitDigits ? { splitDigits: true } : {}),
      stages,
    },
  }).catch((error: unknown) => {
    // Ctrl-C: the stage's checkpoint is written; end like the text branch (130) so scripts see an interrupt
    if (signal.aborted) throw new CommandError((error as Error).message, { exitCode: 130 });
    throw error;
  });
  if (opts.json) {
    process.stdout.write(
      JSON.stringify({ out: opts.out, catalog: catalog.length, queries: queries.length, ...manifest }) + "\n",
    );
  } else {
    for (const r of manifest.done) {
      process.stdout.write(
        `${r.stage}: ${r.samples} samples × ${r.epochs} epochs = ${r.steps} steps, ${r.seconds.toFixed(1)} s, loss ${r.finalLoss.toFixed(4)}, peak ${r.peakRssMb} MB\n`,
      );
    }
    if (manifest.gate) {
      const g = manifest.gate;
      const parts = g.parts.map(
        (p) =>
          `${p.part} ${p.queries}: ToolGen ${p.toolgen}, ${g.gate.lexical ?? "bm25"} ${p.lexical ?? p.bm25}, gate ${p.chosen}`,
      );
      process.stdout.write(`hybrid gate on the held-out dev queries (${g.metric}; ${parts.join("; ")})\n`);
    }
    process.stdout.write(
      `ToolGen model (${manifest.index} ids, ${catalog.length} tools) in ${opts.out}; use --model ${opts.out}\n`,
    );
  }
}
