import { parseToolCalls, TOOL_CALL_FORMATS, type ToolCallFormat } from "../chat/parse/index.ts";
import type { Message } from "../chat/messages.ts";
import { bfclCategories, readBfclAnswers, readBfclCategory, type BfclItem } from "../catalog/import/bfcl.ts";
import { CatalogError } from "../catalog/catalog.ts";
import type { ChatModel } from "../models/model.ts";
import { bfclV4Summary, type BfclV4Summary } from "./bfcl-aggregate.ts";
import { checkBfclItem, type BfclCall, type CheckResult } from "./bfcl-checker.ts";
import { MUTATIONS, mutateCalls, oracleCalls, type Mutation } from "./bfcl-oracle.ts";
import { checkRelevance, scoringOf } from "./bfcl-relevance.ts";
import { renderReply } from "./bfcl-render.ts";
import { ToolgenError } from "../errors.ts";

export interface BfclFailure {
  id: string;
  errorType?: string;
  error?: string;
  format?: string;
}

export interface BfclCategoryFigures {
  accuracy: number;
  total: number;
  correct: number;
}

/**
 * `{"accuracy", "total", "by_category"}` (what `toolgen eval bfcl --json` prints), accuracy in percent; `bfcl_v4` holds the leaderboard's
 * summary figures (bfcl-aggregate.ts). The top-level accuracy is the plain share of all loaded items, not a BFCL
 * figure. The oracle adds formats and mutations.
 */
export interface BfclReport {
  accuracy: number;
  total: number;
  correct: number;
  by_category: Record<string, BfclCategoryFigures>;
  bfcl_v4: BfclV4Summary;
  by_format?: Record<string, BfclCategoryFigures>;
  mutations?: Record<Mutation, { applied: number; rejected: number }>;
  failures: BfclFailure[];
}

export interface BfclEvalOptions {
  categories?: string[];
  onProgress?: (done: number, total: number) => void;
}

export interface BfclModelOptions extends BfclEvalOptions {
  /** Stop after this many model errors in a row (an unreachable or broken server). Default 5; 0 = never stop. */
  maxConsecutiveErrors?: number;
  /** Called on each model error, with how many came in a row (progress lines show why items fail). */
  onModelError?: (id: string, message: string, inARow: number) => void;
}

/** Thrown when a model run stops after too many consecutive model errors; `report` holds the items done. */
export class BfclModelAbortError extends ToolgenError {
  override name = "BfclModelAbortError";
  constructor(
    message: string,
    readonly report: BfclReport,
  ) {
    super("bfcl_model_abort", message);
  }
}

export const DEFAULT_MAX_CONSECUTIVE_ERRORS = 5;

interface LoadedCategory {
  category: string;
  items: {
    item: BfclItem;
    expected: ReturnType<typeof readBfclAnswers> extends Map<string, infer V> ? V : never;
  }[];
}

const percent = (correct: number, total: number): number =>
  total === 0 ? 0 : Math.round((10000 * correct) / total) / 100;

function loadCategories(dir: string, requested?: string[]): LoadedCategory[] {
  const available = bfclCategories(dir);
  if (available.length === 0)
    throw new CatalogError({ file: dir }, "no BFCL_v*_<category>.json files in this folder");
  const categories = requested ?? available;
  for (const c of categories) {
    if (!available.includes(c))
      throw new CatalogError({ file: dir }, `unknown category "${c}" (have: ${available.join(", ")})`);
  }
  return categories.map((category) => {
    const answers = readBfclAnswers(dir, category);
    const items = readBfclCategory(dir, category).map((item) => {
      const expected = answers.get(item.id);
      // Relevance and irrelevance are scored on whether a call was made: they need no possible answer.
      if (expected === undefined && scoringOf(category) === "ast") {
        throw new CatalogError(
          { file: dir, record: item.id, field: "ground_truth" },
          "no possible answer for this item",
        );
      }
      return { item, expected: expected ?? [] };
    });
    return { category, items };
  });
}

function figures(correct: number, total: number): BfclCategoryFigures {
  return { accuracy: percent(correct, total), total, correct };
}

/** The overall figures of a report from its per-category ones. */
function summary(
  byCategory: Record<string, BfclCategoryFigures>,
): Pick<BfclReport, "accuracy" | "total" | "correct" | "by_category" | "bfcl_v4"> {
  const all = Object.values(byCategory);
  const correct = all.reduce((n, f) => n + f.correct, 0);
  const total = all.reduce((n, f) => n + f.total, 0);
  return { ...figures(correct, total), by_category: byCategory, bfcl_v4: bfclV4Summary(byCategory) };
}

/** A reply parsed back: the AST categories fail on a parse error; for (ir)relevance it decodes to no call. */
function checkParsed(
  category: string,
  item: BfclItem,
  parsed: { calls: { name: string; arguments: Record<string, unknown> }[]; errors: { message: string }[] },
  expected: LoadedCategory["items"][number]["expected"],
): CheckResult {
  const back: BfclCall[] = parsed.calls.map((c) => ({ name: c.name, arguments: c.arguments }));
  const scoring = scoringOf(category);
  if (scoring !== "ast") return checkRelevance(scoring, parsed.errors.length > 0 ? [] : back);
  if (parsed.errors.length > 0) {
    return { valid: false, errorType: "parse_error", error: parsed.errors.map((e) => e.message).join("; ") };
  }
  return checkBfclItem(category, item.docs, back, expected);
}

/**
 * The oracle: each possible answer becomes a reply in every parser format, is parsed back by the chat layer's
 * parsers and checked. An item counts as correct when every format passes. Each mutation of the correct calls
 * (wrong value, missing required, extra parameter, wrong function; a call where none is wanted and no call where
 * one is) must be rejected.
 */
export function evaluateBfclOracle(dir: string, options: BfclEvalOptions = {}): BfclReport {
  const loaded = loadCategories(dir, options.categories);
  const total = loaded.reduce((n, c) => n + c.items.length, 0);
  const byCategory: Record<string, BfclCategoryFigures> = {};
  const formatCorrect = Object.fromEntries(TOOL_CALL_FORMATS.map((f) => [f, 0])) as Record<
    ToolCallFormat,
    number
  >;
  const mutations = Object.fromEntries(MUTATIONS.map((m) => [m, { applied: 0, rejected: 0 }])) as NonNullable<
    BfclReport["mutations"]
  >;
  const failures: BfclFailure[] = [];
  let done = 0;
  for (const { category, items } of loaded) {
    let categoryCorrect = 0;
    const scoring = scoringOf(category);
    for (const { item, expected } of items) {
      const calls = oracleCalls(scoring, expected, item.docs);
      let allFormats = true;
      for (const format of TOOL_CALL_FORMATS) {
        const parsed = parseToolCalls(format, renderReply(format, calls));
        const result = checkParsed(category, item, parsed, expected);
        if (result.valid) formatCorrect[format]++;
        else {
          allFormats = false;
          failures.push({ id: item.id, format, errorType: result.errorType, error: result.error });
        }
      }
      if (allFormats) categoryCorrect++;
      for (const mutation of MUTATIONS) {
        const mutated = mutateCalls(mutation, scoring, calls, expected, item.docs);
        if (mutated === undefined) continue;
        mutations[mutation].applied++;
        // Through the same round trip as the correct answer: rejected only when every format rejects it.
        const accepted = TOOL_CALL_FORMATS.some((format) => {
          const parsed = parseToolCalls(format, renderReply(format, mutated));
          return checkParsed(category, item, parsed, expected).valid;
        });
        if (!accepted) mutations[mutation].rejected++;
        else
          failures.push({
            id: item.id,
            errorType: `mutation_accepted:${mutation}`,
            error: JSON.stringify(mutated),
          });
      }
      done++;
      options.onProgress?.(done, total);
    }
    byCategory[category] = figures(categoryCorrect, items.length);
  }
  return {
    ...summary(byCategory),
    by_format: Object.fromEntries(TOOL_CALL_FORMATS.map((f) => [f, figures(formatCorrect[f], total)])),
    mutations,
    failures,
  };
}

/** The conversation of an item (its first turn, as BFCL's single-turn categories have). */
function itemMessages(item: BfclItem): Message[] {
  return (item.question[0] ?? []).map((m) => ({
    role: (["system", "user", "assistant", "tool"].includes(m.role) ? m.role : "user") as Message["role"],
    content: m.content,
  }));
}

/**
 * Runs a real model through the same checker: the model gets the item's tools, its tool calls are checked. After
 * `maxConsecutiveErrors` model errors in a row the run stops with a BfclModelAbortError (a dead server would
 * otherwise fail every item, each after its retries, and read as a score of 0).
 */
export async function evaluateBfclModel(
  dir: string,
  model: ChatModel,
  options: BfclModelOptions = {},
): Promise<BfclReport> {
  const limit = options.maxConsecutiveErrors ?? DEFAULT_MAX_CONSECUTIVE_ERRORS;
  if (!Number.isInteger(limit) || limit < 0)
    throw new ToolgenError("invalid_option", `maxConsecutiveErrors must be a whole number ≥ 0, got ${limit}`);
  const loaded = loadCategories(dir, options.categories);
  const total = loaded.reduce((n, c) => n + c.items.length, 0);
  const byCategory: Record<string, BfclCategoryFigures> = {};
  const failures: BfclFailure[] = [];
  let done = 0;
  let inARow = 0;
  for (const { category, items } of loaded) {
    let categoryCorrect = 0;
    byCategory[category] = figures(0, 0);
    for (const { item, expected } of items) {
      let result: CheckResult;
      try {
        const { message } = await model.generate(itemMessages(item), { tools: item.tools, temperature: 0 });
        inARow = 0;
        const calls = (message.tool_calls ?? []).map((c) => ({
          name: c.function.name,
          arguments: c.function.arguments,
        }));
        result = checkBfclItem(category, item.docs, calls, expected);
      } catch (error) {
        const text = (error as Error).message;
        result = { valid: false, errorType: "model_error", error: text };
        inARow++;
        options.onModelError?.(item.id, text, inARow);
      }
      if (result.valid) categoryCorrect++;
      else failures.push({ id: item.id, errorType: result.errorType, error: result.error });
      byCategory[category] = figures(categoryCorrect, byCategory[category].total + 1);
      done++;
      options.onProgress?.(done, total);
      if (limit > 0 && inARow >= limit) {
        throw new BfclModelAbortError(
          `stopped after ${inARow} model errors in a row (${done}/${total} items done); last: ${result.error ?? ""}`,
          { ...summary(byCategory), failures },
        );
      }
    }
  }
  return { ...summary(byCategory), failures };
}
