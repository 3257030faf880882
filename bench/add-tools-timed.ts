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

export interface TimedAddition {
  model: ToolGenManifest;
  timing: Timing;
  marks: Mark[];
  /** CPU seconds of the rows fit and of each stage. */
  phasesCpu: Record<string, number>;
}

/** Trains configuration `name` into `out` (emptied first); `bench` names the calling script in errors. */
export async function timedAddition(name: string, out: string, bench: string): Promise<TimedAddition> {
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
    }),
  );
  const phasesCpu = phases(
    marks,
    [["setup", /^rows: fitting /], ["rows", /^rows: loss /], stageEnd("memorization"), stageEnd("retrieval")],
    timing.cpu_s,
  );
  return { model, timing, marks, phasesCpu };
}
