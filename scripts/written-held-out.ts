/**
 * The caller on people's questions it never trained on: the held-out fifth (by a hash of the id) of
 * data/written-questions/*.jsonl, questions written by hand over StableToolBench's APIs, scored as BFCL scores its
 * parallel-multiple items (src/eval/bfcl-checker.ts: every expected call matched by one made, in any order, no
 * call more, each argument right and none beyond the written ones). Each question is offered its called functions
 * and 3 distractors drawn as synth draws them (src/synth/offer.ts), the same for every model.
 *
 * Usage: npx tsx scripts/written-held-out.ts DIR [DIR...]  (default files: the three in data/written-questions;
 * --files a,b to name others). Prints one JSON line per model.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { loadCatalog } from "../src/catalog/load.ts";
import type { BfclExpectedCall } from "../src/catalog/import/bfcl.ts";
import { checkBfclItem } from "../src/eval/bfcl-checker.ts";
import { FactoredCallerModel } from "../src/models/caller-factored.ts";
import { distractorOffer } from "../src/synth/offer.ts";
import { SynthRng } from "../src/synth/rng.ts";
import { callerExamples } from "../src/train/caller-data.ts";
import { readWrittenQuestions, writtenItems, writtenSplit } from "../src/train/written-questions.ts";

export const WRITTEN_FILES = [1, 2, 3].map((n) => `data/written-questions/stabletoolbench-${n}.jsonl`);

/** Figures on the held-out written questions: all, and by shape (one call, one function several times, several functions). */
export interface WrittenFigures {
  accuracy: number;
  correct: number;
  total: number;
  /** Questions whose called functions (with how often each) are right, whatever the arguments. */
  functions_right: number;
  by_shape: Record<string, { correct: number; total: number }>;
}

const shapeOf = (names: readonly string[]): string =>
  names.length === 1 ? "one_call" : new Set(names).size === 1 ? "one_function_several" : "several_functions";

export function scoreWrittenHeldOut(
  modelDir: string,
  files: readonly string[],
  model = FactoredCallerModel.load(modelDir),
): WrittenFigures {
  const stb = loadCatalog("../shared/data/stabletoolbench/apis.json");
  const questions = files
    .flatMap((f) => readWrittenQuestions(f, stb))
    .filter((q) => writtenSplit(q.id) === "held-out");
  const examples = callerExamples(writtenItems(questions, distractorOffer(stb, 3, new SynthRng(7))), stb);
  const out: WrittenFigures = { accuracy: 0, correct: 0, total: 0, functions_right: 0, by_shape: {} };
  for (const e of examples) {
    const calls = model.calls(e.tools, e.question);
    const expected: BfclExpectedCall[] = e.calls.map((c) => ({
      [c.name]: Object.fromEntries(Object.entries(c.arguments).map(([k, v]) => [k, [v]])),
    }));
    const docs = e.tools.map((t) => ({
      name: t.function.name,
      description: t.function.description,
      parameters: t.function.parameters,
    }));
    const right = checkBfclItem("parallel_multiple", docs, calls, expected).valid;
    const names = (list: readonly { name: string }[]) => JSON.stringify(list.map((c) => c.name).sort());
    const shape = (out.by_shape[shapeOf(e.calls.map((c) => c.name))] ??= { correct: 0, total: 0 });
    shape.total++;
    out.total++;
    if (names(calls) === names(e.calls)) out.functions_right++;
    if (right) {
      shape.correct++;
      out.correct++;
    }
  }
  out.accuracy = out.total === 0 ? 0 : Math.round((10000 * out.correct) / out.total) / 100;
  return out;
}

function main(): void {
  const { values, positionals } = parseArgs({
    options: { files: { type: "string" } },
    allowPositionals: true,
  });
  const files = values.files?.split(",") ?? WRITTEN_FILES.filter((f) => existsSync(f));
  for (const dir of positionals)
    process.stdout.write(JSON.stringify({ model: dir, ...scoreWrittenHeldOut(dir, files) }) + "\n");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
