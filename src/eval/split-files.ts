import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { csvField, csvRecords } from "../catalog/import/csv.ts";
import { formatJsonlQueries } from "../catalog/import/jsonl.ts";
import { loadQueries } from "../catalog/load.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { dropRepeats, splitQueries, splitThreeWay, type SplitFractions } from "./split.ts";
import { splitByTool } from "./split-tools.ts";
import { ToolgenError } from "../errors.ts";

export interface SplitFilesOptions {
  seed: number;
  trainOut: string;
  devOut: string;
  /** With a test file: the three-way rule (`splitThreeWay`, fractions from `dev`/`test`). */
  testOut?: string;
  /** Two-way only: the train share (default 0.8). */
  trainFraction?: number;
  /** Three-way only: dev and test shares (default 0.1 each); with `by: "tool"`, shares of the tools. */
  fractions?: SplitFractions;
  /** `tool`: split the tools, not the queries (`splitByTool`): dev and test tools are in no train query. */
  by?: "query" | "tool";
}

export interface SplitFilesResult {
  train: number;
  dev: number;
  test?: number;
  /**
   * Rows left out because the same query text (by `queryKey`) is already in an earlier part: a dev row repeating
   * a train query, a test row repeating a train or dev query. Train is never changed by this.
   */
  dropped: { dev: number; test?: number; mixed?: number };
  format: "csv" | "jsonl";
  /** With `by: "tool"`: how many tools each part holds. */
  tools?: { train: number; dev: number; test?: number };
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

interface SplitParts<T> {
  parts: T[][];
  dropped: number[];
  mixed?: number;
  tools?: number[];
}

function splitRows<T>(
  rows: readonly T[],
  text: (row: T) => string,
  relevant: (row: T) => readonly string[],
  o: SplitFilesOptions,
): SplitParts<T> {
  if (o.by === "tool") {
    const threeWay = o.testOut !== undefined;
    const split = splitByTool(rows, relevant, o.seed, {
      dev: threeWay ? o.fractions?.dev : 1 - (o.trainFraction ?? 0.8),
      test: threeWay ? o.fractions?.test : 0,
    });
    const parts = threeWay ? [split.train, split.dev, split.test] : [split.train, split.dev];
    const tools = threeWay
      ? [split.tools.train.length, split.tools.dev.length, split.tools.test.length]
      : [split.tools.train.length, split.tools.dev.length];
    return { ...dropRepeats(parts, text), mixed: split.mixed, tools };
  }
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
  let split: SplitParts<unknown>;
  let format: "csv" | "jsonl";
  if (file.endsWith(".csv")) {
    const labelled = loadQueries(file); // validates the columns and rows first; one query per record
    const { header, records } = csvRecords(readFileSync(file, "utf8"));
    const queryColumn = header.find((h) => h.toLowerCase() === "query") ?? header[0]!;
    const relevantOf = new Map(records.map((r, i) => [r, labelled[i]?.relevant ?? []]));
    split = splitRows(
      records,
      (r) => r[queryColumn] ?? "",
      (r) => relevantOf.get(r) ?? [],
      o,
    ) as SplitParts<unknown>;
    const parts = split.parts;
    const text = (rows: Record<string, string>[]): string =>
      [header, ...rows.map((r) => header.map((h) => r[h]))].map((r) => r.map(csvField).join(",")).join("\n") +
      "\n";
    outs.forEach((path, i) => writeFileAtomic(path, text(parts[i] as Record<string, string>[])));
    format = "csv";
  } else {
    const queries = loadQueries(file);
    split = splitRows(
      queries,
      (q) => q.query,
      (q) => q.relevant,
      o,
    ) as SplitParts<unknown>;
    const parts = split.parts;
    outs.forEach((path, i) => writeFileAtomic(path, formatJsonlQueries(parts[i] as typeof queries)));
    format = "jsonl";
  }
  const { parts, dropped, mixed, tools } = split;
  return {
    train: parts[0]!.length,
    dev: parts[1]!.length,
    ...(o.testOut === undefined ? {} : { test: parts[2]!.length }),
    dropped: {
      dev: dropped[0]!,
      ...(o.testOut === undefined ? {} : { test: dropped[1]! }),
      ...(mixed === undefined ? {} : { mixed }),
    },
    format,
    ...(tools === undefined
      ? {}
      : {
          tools: { train: tools[0]!, dev: tools[1]!, ...(tools[2] === undefined ? {} : { test: tools[2] }) },
        }),
  };
}
