import { seededShuffle } from "./split.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Splitting by tool: what a retriever is asked to do for a user's own tools, which no training query named. The
 * tools (not the queries) are shuffled and cut; a query goes to the part that holds its tools.
 */

/** The tool a catalog id belongs to: `tool&&api` → tool (StableToolBench), a plain name → itself (MetaTool). */
export function toolOf(id: string): string {
  const cut = id.indexOf("&&");
  return cut < 0 ? id : id.slice(0, cut);
}

export interface ToolSplit<T> {
  train: T[];
  dev: T[];
  /** Empty for a two-way split. */
  test: T[];
  /** The tools of each part (sorted). */
  tools: { train: string[]; dev: string[]; test: string[] };
  /** Queries whose tools fall in two parts: dropped (counted), so that no held-out tool is in a training query. */
  mixed: number;
}

export interface ToolSplitFractions {
  /** Share of the tools for dev (default 0.1). */
  dev?: number;
  /** Share of the tools for test (default 0.1; 0 = a two-way train/dev split). */
  test?: number;
}

/**
 * The tool rule: the distinct tools of all rows, sorted, then `seededShuffle(tools, seed)`; the first
 * round(n × (1 − dev − test)) are train tools, the next round(n × dev) dev tools, the rest test tools. A row goes
 * to the part holding all its tools; a row naming tools of two parts is dropped and counted in `mixed`. Rows keep
 * their file order within each part.
 */
export function splitByTool<T>(
  rows: readonly T[],
  relevant: (row: T) => readonly string[],
  seed: number,
  fractions: ToolSplitFractions = {},
): ToolSplit<T> {
  const dev = fractions.dev ?? 0.1;
  const test = fractions.test ?? 0.1;
  if (!Number.isInteger(seed))
    throw new ToolgenError("invalid_option", `seed must be an integer, got ${seed}`);
  if (!(dev > 0 && dev < 1) || !(test >= 0 && test < 1) || !(dev + test < 1))
    throw new ToolgenError(
      "invalid_option",
      `tool fractions must be dev in (0, 1), test in [0, 1) and dev + test < 1, got dev ${dev}, test ${test}`,
    );
  const tools = [...new Set(rows.flatMap((r) => relevant(r).map(toolOf)))].sort();
  const shuffled = seededShuffle(tools, seed);
  const trainCut = Math.round(tools.length * (1 - dev - test));
  const devCut = test === 0 ? tools.length : trainCut + Math.round(tools.length * dev);
  const partOf = new Map<string, 0 | 1 | 2>();
  shuffled.forEach((tool, i) => partOf.set(tool, i < trainCut ? 0 : i < devCut ? 1 : 2));
  const parts: [T[], T[], T[]] = [[], [], []];
  let mixed = 0;
  for (const row of rows) {
    const owners = new Set(relevant(row).map((id) => partOf.get(toolOf(id))!));
    if (owners.size !== 1) {
      if (owners.size > 1) mixed++;
      continue;
    }
    parts[[...owners][0]].push(row);
  }
  const toolsOf = (p: number): string[] => shuffled.filter((t) => partOf.get(t) === p).sort();
  return {
    train: parts[0],
    dev: parts[1],
    test: parts[2],
    tools: { train: toolsOf(0), dev: toolsOf(1), test: toolsOf(2) },
    mixed,
  };
}

/**
 * The tools that held-out rows name and some training row also names (sorted): empty for a tool-disjoint split.
 * What `eval split --by tool` promises, checked from the rows themselves, so a leak planted later is caught.
 */
export function toolLeaks<T>(
  train: readonly T[],
  heldOut: readonly T[],
  relevant: (row: T) => readonly string[],
): string[] {
  const trained = new Set(train.flatMap((r) => relevant(r).map(toolOf)));
  return [...new Set(heldOut.flatMap((r) => relevant(r).map(toolOf)))].filter((t) => trained.has(t)).sort();
}
