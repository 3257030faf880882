/**
 * One declared addition (bench/add-tools.ts CONFIGS) run on the experiment's base model and timed, with its CPU split
 * into phases at the training log's lines (bench/add-tools-cpu.ts): what add-tools-rebuild.ts and add-tools-retime.ts
 * both measure.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { addToolsData, CONFIGS, DIR, timed, type Timing } from "./add-tools.ts";
import { marker, phases, stageEnd, type Mark } from "./add-tools-cpu.ts";
import type { ToolGenManifest } from "../src/toolgen/model-folder.ts";
import type { AddToolsOptions } from "../src/train/add-tools.ts";

export interface TimedAddition {
  model: ToolGenManifest;
  timing: Timing;
  marks: Mark[];
  /** CPU seconds of the rows fit and of each stage. */
  phasesCpu: Record<string, number>;
}

/**
 * Trains configuration `name` into `out` (emptied first); `bench` names the calling script in errors; `override`
 * replaces some of the configuration's options (the reference run below).
 */
export async function timedAddition(
  name: string,
  out: string,
  bench: string,
  override: Partial<AddToolsOptions> = {},
): Promise<TimedAddition> {
  const d = addToolsData()!;
  const c = CONFIGS.find((x) => x.name === name);
  if (!c) throw new Error(`${bench}: no configuration ${JSON.stringify(name)}`);
  const { addToolsToModel } = await import("../src/train/add-tools.ts");
  rmSync(out, { recursive: true, force: true });
  const { log, marks } = marker();
  const { result: model, timing } = await timed(() =>
    addToolsToModel({
      log,
      from: join(DIR, "base"),
      out,
      tools: d.newCatalog,
      queries: d.parts.new.train,
      progress: false,
      ...c.options,
      ...override,
    }),
  );
  const phasesCpu = phases(
    marks,
    [["setup", /^rows: fitting /], ["rows", /^rows: loss /], stageEnd("memorization"), stageEnd("retrieval")],
    timing.cpu_s,
  );
  return { model, timing, marks, phasesCpu };
}

/** The retrieval steps of the reference run (about; a quarter epoch of the configuration's retrieval samples). */
export const REFERENCE_RETRIEVAL_EPOCHS = 0.25;

/**
 * The CPU seconds of one retrieval step with the full user loss on every sample, the step the full retraining
 * pays, for a configuration whose own steps are cheaper (userLossSamples, replayUserLoss false): its share at its
 * own rate (add-tools-cpu.ts) would divide by its own cheaper step. Run right after the addition, in the same
 * process, so at the same load: the configuration's replay and samples, no rows fit (its cost is not a step's), a
 * one-step memorization, a quarter epoch of retrieval; written to `out` (a scratch folder, removed after).
 */
export async function referenceRetrievalStep(
  name: string,
  out: string,
  bench: string,
): Promise<{ cpu_per_step: number; steps: number; cpu_s: number }> {
  const c = CONFIGS.find((x) => x.name === name);
  if (!c) throw new Error(`${bench}: no configuration ${JSON.stringify(name)}`);
  const r = await timedAddition(name, out, bench, {
    userLossSamples: undefined,
    replayUserLoss: undefined,
    rowsFirst: false,
    epochs: { memorization: 1e-3, retrieval: REFERENCE_RETRIEVAL_EPOCHS },
  });
  rmSync(out, { recursive: true, force: true });
  const steps = r.model.added?.at(-1)?.stages.find((s) => s.stage === "retrieval")?.steps ?? NaN;
  const cpu = r.phasesCpu.retrieval ?? NaN;
  return { cpu_per_step: cpu / steps, steps, cpu_s: cpu };
}
