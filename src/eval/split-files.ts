import { readFileSync } from "node:fs";
import { csvField, csvRecords } from "../catalog/import/csv.ts";
import { formatJsonlQueries } from "../catalog/import/jsonl.ts";
import { loadQueries } from "../catalog/load.ts";
import { writeFileAtomic } from "../nn/io/atomic.ts";
import { splitQueries } from "./split.ts";

export interface SplitFilesResult {
  train: number;
  dev: number;
  format: "csv" | "jsonl";
}

/**
 * Splits a query file with the project's rule (`splitQueries`): a MetaTool CSV stays a CSV with the same header
 * (rows unchanged, in shuffled order); any other query file is written as our JSONL.
 */
export function splitQueryFile(
  file: string,
  seed: number,
  trainOut: string,
  devOut: string,
  trainFraction = 0.8,
): SplitFilesResult {
  if (file.endsWith(".csv")) {
    loadQueries(file); // validates the columns and rows first
    const { header, records } = csvRecords(readFileSync(file, "utf8"));
    const { train, dev } = splitQueries(records, seed, trainFraction);
    const write = (path: string, rows: Record<string, string>[]): void =>
      writeFileAtomic(
        path,
        [header, ...rows.map((r) => header.map((h) => r[h]))]
          .map((r) => r.map(csvField).join(","))
          .join("\n") + "\n",
      );
    write(trainOut, train);
    write(devOut, dev);
    return { train: train.length, dev: dev.length, format: "csv" };
  }
  const { train, dev } = splitQueries(loadQueries(file), seed, trainFraction);
  writeFileAtomic(trainOut, formatJsonlQueries(train));
  writeFileAtomic(devOut, formatJsonlQueries(dev));
  return { train: train.length, dev: dev.length, format: "jsonl" };
}
