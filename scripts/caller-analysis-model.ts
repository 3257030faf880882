/**
 * The factored caller's parts that the BFCL analysis scripts (caller-call-counts.ts, caller-wrong-values.ts) score
 * with directly: the loaded model, its word statistics, joiner words and weights; and the options both take.
 */
import { FactoredCallerModel } from "../src/models/caller-factored.ts";

export function loadCallerForAnalysis(dir: string) {
  const model = FactoredCallerModel.load(dir);
  return {
    model,
    stats: new Map(Object.entries(model.file.words)),
    joiners: new Set(model.file.joiners),
    w: model.file.weights,
  };
}

/** The command-line options both scripts share (node:util parseArgs). */
export const ANALYSIS_OPTIONS = {
  model: { type: "string", default: "models/caller" },
  bfcl: { type: "string", default: "../shared/data/bfcl" },
  categories: { type: "string", default: "parallel_multiple,parallel" },
} as const;
