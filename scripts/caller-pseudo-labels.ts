/**
 * Prints the pseudo-labels the teachers give StableToolBench's G1 queries (scripts/stb-unlabelled.ts), to look at
 * them by eye and count them per chance band: a sample of `--sample N` value labels per band, drawn by a fixed seed.
 *
 *   npx tsx scripts/caller-pseudo-labels.ts --teachers models/caller,DIR2 --split odd --sample 15
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { FACTORED_WEIGHTS, type FactoredModelFile } from "../src/models/caller-factored.ts";
import { pseudoLabels, teacherOf } from "../src/train/pseudo-labels.ts";
import { Rng } from "../src/nn/rng.ts";
import { stbUnlabelled } from "./stb-unlabelled.ts";

const { values: args } = parseArgs({
  options: {
    teachers: { type: "string", default: "models/caller" },
    split: { type: "string", default: "odd" },
    data: { type: "string", default: "../shared/data/stabletoolbench" },
    sample: { type: "string", default: "15" },
  },
});
const teachers = args
  .teachers!.split(",")
  .map((d) => teacherOf(JSON.parse(readFileSync(join(d, FACTORED_WEIGHTS), "utf8")) as FactoredModelFile));
const questions = stbUnlabelled(args.data!, args.split as "even" | "odd" | "all");
const labelled = pseudoLabels(questions, teachers, 0);
const bands = [0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.01];
const rng = new Rng(7);
console.log(`${questions.length} questions, ${labelled.length} with agreed labels`);
for (let b = 0; b + 1 < bands.length; b++) {
  const inBand = labelled.flatMap((e) =>
    e.labels.filter((l) => l.chance >= bands[b]! && l.chance < bands[b + 1]!).map((l) => ({ e, l })),
  );
  const values = inBand.filter((x) => x.l.value !== undefined);
  console.log(`\n== chance [${bands[b]}, ${bands[b + 1]}): ${inBand.length} labels, ${values.length} values`);
  for (let i = values.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
  for (const { e, l } of values.slice(0, Number(args.sample)))
    console.log(
      `- ${l.name}.${l.param} = ${JSON.stringify(l.value)} (${l.chance.toFixed(2)}) | ${e.question}`,
    );
}
