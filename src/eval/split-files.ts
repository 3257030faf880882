import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { csvField, csvRecords } from "../catalog/import/csv.ts";
import { formatJsonlQueries } from "../catalog/import/jsonl.ts";
import { loadQueries } from "../catalog/load.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { dropRepeats, splitQueries, splitThreeWay, type SplitFractions } from "./split.ts";
import { ToolgenError } from "../errors.ts";

export interface SplitFilesOptions {
  seed: number;
  trainOut: string;
  devOut: string;
  /** With a test file: the three-way rule (`splitThreeWay`, fractions from `dev`/`test`). */
  testOut?: string;
  /** Two-way only: the train share (default 0.8). */
  trainFraction?: number;
  /** Three-way only: dev and test shares (default 0.1 each). */
  fractions?: SplitFractions;
}

export interface SplitFilesResult {
  train: number;
  dev: number;
  test?: number;
  /**
   * Rows left out because the same query text (by `queryKey`) is already in an earlier part: a dev row repeating
   * a train query, a test row repeating a train or dev query. Train is never changed by this.
   */
  dropped: { dev: number; test?: number };
  format: "csv" | "jsonl";
}

/** Refuses two outputs on one path (the second write would silently replace the first) or over the input. */
function checkPaths(file: string, outputs: Record<string, string | undefined>): void {
  const seen = new Map<string, string>([[resolve(file), "--queries"]]);
  for (const [name, path] of Object.entries(outputs)) {
    if (path === undefined) continue;
    const other = seen.get(resolve(path));
    if (other !== undefined)
      throw new ToolgenError("invalid_option", `${name} and ${other} are the same file (${path})`);
    seen.set(resolve(path), name);
  }
}

function splitRows<T>(
  rows: readonly T[],
  text: (row: T) => string,
  o: SplitFilesOptions,
): { parts: T[][]; dropped: number[] } {
  const parts =
    o.testOut === undefined
      ? Object.values(splitQueries(rows, o.seed, o.trainFraction ?? 0.8))
      : Object.values(splitThreeWay(rows, o.seed, o.fractions));
  return dropRepeats(parts, text);
}

/**
 * Splits a query file with the project's rule (`splitQueries`, or `splitThreeWay` when a test file is asked for):
 * a MetaTool CSV stays a CSV with the same header (rows unchanged, in shuffled order); any other query file is
 * written as our JSONL. Every path is checked before anything is written.
 */
export function splitQueryFile(file: string, o: SplitFilesOptions): SplitFilesResult {
  checkPaths(file, { "--train-out": o.trainOut, "--dev-out": o.devOut, "--test-out": o.testOut });
  if (o.testOut !== undefined && o.trainFraction !== undefined)
    throw new ToolgenError(
      "invalid_option",
      "a three-way split takes --dev-fraction and --test-fraction, not --train-fraction",
    );
  const outs = [o.trainOut, o.devOut, ...(o.testOut === undefined ? [] : [o.testOut])];
  let parts: unknown[][];
  let dropped: number[];
  let format: "csv" | "jsonl";
  if (file.endsWith(".csv")) {
    loadQueries(file); // validates the columns and rows first
    const { header, records } = csvRecords(readFileSync(file, "utf8"));
    const queryColumn = header.find((h) => h.toLowerCase() === "query") ?? header[0]!;
    ({ parts, dropped } = splitRows(records, (r) => r[queryColumn] ?? "", o));
    const text = (rows: Record<string, string>[]): string =>
      [header, ...rows.map((r) => header.map((h) => r[h]))].map((r) => r.map(csvField).join(",")).join("\n") +
      "\n";
    outs.forEach((path, i) => writeFileAtomic(path, text(parts[i] as Record<string, string>[])));
    format = "csv";
  } else {
    const queries = loadQueries(file);
    ({ parts, dropped } = splitRows(queries, (q) => q.query, o));
    outs.forEach((path, i) => writeFileAtomic(path, formatJsonlQueries(parts[i] as typeof queries)));
    format = "jsonl";
  }
  return {
    train: parts[0]!.length,
    dev: parts[1]!.length,
    ...(o.testOut === undefined ? {} : { test: parts[2]!.length }),
    dropped: { dev: dropped[0]!, ...(o.testOut === undefined ? {} : { test: dropped[1]! }) },
    format,
  };
}
