/**
 * The factored caller's parts that the BFCL analysis scripts (caller-call-counts.ts, caller-wrong-values.ts) score
 * with directly: the loaded model, its word statistics, joiner words and weights.
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
