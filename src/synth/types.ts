import type { ValuePool } from "./value-pool.ts";

/**
 * What `synthesize` produces: labelled questions for any catalog, written from each tool's JSON Schema and text
 * alone. A call's `name` is the catalog entry's id (`CatalogEntry.id`: `tool&&api` for ToolBench-style catalogs,
 * the function name for BFCL, OpenAI tool lists and MetaTool), so `tools`, `calls` and ToolGen ids agree.
 */
export interface SynthCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface SynthItem {
  id: string;
  question: string;
  /** The calls that answer the question, in order; `[]` means no tool of the catalog answers it (decline). */
  calls: SynthCall[];
  /** The tools offered with the question: the called ones plus distractors (catalog ids), in a drawn order. */
  tools: string[];
}

export interface SynthOptions {
  seed: number;
  /** Single-call questions per tool (each tool of the catalog gets this many). */
  perTool: number;
  /** Two-call questions as a share of the single-call ones (default 0.15). */
  multiCallShare?: number;
  /** Most calls a multi-call question holds (default 2; above 2, each draws 2 to maxCalls). */
  maxCalls?: number;
  /** Multi-call questions that call one tool again with other values, as a share (default 0.35). */
  sameToolShare?: number;
  /**
   * Of the same-tool multi-call questions not written as one listed parameter, the share written as groups of
   * several varied values, one group per call (default 0: each call's clauses in full).
   */
  pairedShare?: number;
  /**
   * Of the multi-call questions that run through several tools, the share of each tool's requests written with
   * one parameter's values listed, a call per value ("the weather for Oslo and Rome, and the time in Lima"),
   * several tools each called one or more times (default 0: each tool of a run called once, as before).
   */
  listedToolShare?: number;
  /**
   * Share of requests written with the values first and the request straight after them ("use city X to get
   * the weather"), and of clause joins that are a space alone ("with city X where days is 3"): words then follow
   * a value, as in people's questions, where synth's other forms end a value at a comma or the question's end
   * (default 0: none, and the questions are as before the option).
   */
  inlineShare?: number;
  /**
   * Of the multi-call questions, the share written in one of three shapes drawn evenly (multi-shapes.ts): a value
   * said once for two calls, the first call's values set out before the requests, the second call pointing back
   * to the first's value (default 0: none, and the questions are as before the option).
   */
  shapeShare?: number;
  /**
   * Of the joins between the requests of a multi-call question (JOINERS, AGAIN; not the shapes' joins), the share
   * written as a marked link: a link word set off by a comma, semicolon, colon or dash (", and finally, can you
   * …", link-marks.ts), so a plain word stands before a mark and is no value (default 0: none, and the questions
   * are as before the option).
   */
  linkMarkShare?: number;
  /**
   * Of the one-call questions, the share opened by a marked link ("Finally, can you …", "Also; …",
   * link-marks.ts), as a later request of a longer exchange: the argument scorer learns from one-call questions
   * only, and there a plain word before a mark is then no value (default 0: none, questions as before).
   */
  linkLeadShare?: number;
  /** Decline questions as a share of the single-call ones (default 0.1). */
  declineShare?: number;
  /** Catalog tools offered besides the called ones (default 3; fewer when the catalog is small). */
  distractors?: number;
  /** Real values from the catalogs' own schemas for string parameters without values of their own (off unless given). */
  valuePool?: ValuePool;
}

/** A ToolGen agent-stage trajectory, the JSON shape `toolgen train --trajectories` reads (train/datasets.ts). */
export interface SynthTrajectoryStep {
  thought: string;
  action: string;
  arguments: Record<string, unknown>;
  observation?: string;
}

export interface SynthTrajectory {
  query: string;
  steps: SynthTrajectoryStep[];
}
