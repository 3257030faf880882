import { parseToolCalls, TOOL_CALL_FORMATS, type ToolCallFormat } from "../chat/parse/index.ts";
import type { Message } from "../chat/messages.ts";
import { bfclCategories, readBfclAnswers, readBfclCategory, type BfclItem } from "../catalog/import/bfcl.ts";
import { CatalogError } from "../catalog/catalog.ts";
import type { ChatModel } from "../models/model.ts";
import { checkBfclItem, type BfclCall, type CheckResult } from "./bfcl-checker.ts";
import { answerToCall, MUTATIONS, mutateCalls, type Mutation } from "./bfcl-oracle.ts";
import { renderReply } from "./bfcl-render.ts";

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

/** `{"accuracy", "total", "by_category"}` (DESIGN.md), accuracy in percent; the oracle adds formats and mutations. */
export interface BfclReport {
  accuracy: number;
  total: number;
  correct: number;
  by_category: Record<string, BfclCategoryFigures>;
  by_format?: Record<string, BfclCategoryFigures>;
  mutations?: Record<Mutation, { applied: number; rejected: number }>;
  failures: BfclFailure[];
}

export interface BfclEvalOptions {
  categories?: string[];
  onProgress?: (done: number, total: number) => void;
}

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
      if (expected === undefined && !category.includes("irrelevance")) {
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

/**
 * The oracle: each possible answer becomes a reply in every parser format, is parsed back by the chat layer's
 * parsers and checked. An item counts as correct when every format passes. Each mutation of the correct calls
 * (wrong value, missing required, extra parameter, wrong function) must be rejected.
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
  let correct = 0;
  for (const { category, items } of loaded) {
    let categoryCorrect = 0;
    for (const { item, expected } of items) {
      const calls = expected.map((e) =>
        answerToCall(
          e,
          item.docs.find((d) => d.name === Object.keys(e)[0]),
        ),
      );
      let allFormats = true;
      for (const format of TOOL_CALL_FORMATS) {
        const parsed = parseToolCalls(format, renderReply(format, calls));
        const back: BfclCall[] = parsed.calls.map((c) => ({ name: c.name, arguments: c.arguments }));
        const result: CheckResult =
          parsed.errors.length > 0
            ? {
                valid: false,
                errorType: "parse_error",
                error: parsed.errors.map((e) => e.message).join("; "),
              }
            : checkBfclItem(category, item.docs, back, expected);
        if (result.valid) formatCorrect[format]++;
        else {
          allFormats = false;
          failures.push({ id: item.id, format, errorType: result.errorType, error: result.error });
        }
      }
      if (allFormats) categoryCorrect++;
      for (const mutation of MUTATIONS) {
        const mutated = calls.length === 0 ? undefined : mutateCalls(mutation, calls, expected, item.docs);
        if (mutated === undefined) continue;
        mutations[mutation].applied++;
        // Through the same round trip as the correct answer: rejected only when every format rejects it.
        const accepted = TOOL_CALL_FORMATS.some((format) => {
          const parsed = parseToolCalls(format, renderReply(format, mutated));
          const back = parsed.calls.map((c) => ({ name: c.name, arguments: c.arguments }));
          return parsed.errors.length === 0 && checkBfclItem(category, item.docs, back, expected).valid;
        });
        if (!accepted) mutations[mutation].rejected++;
        else
          failures.push({
            id: item.id,
            errorType: `mutation_accepted:${mutation}`,
            error: JSON.stringify(mutated),
          });
      }
      options.onProgress?.(++done, total);
    }
    byCategory[category] = figures(categoryCorrect, items.length);
    correct += categoryCorrect;
  }
  return {
    ...figures(correct, total),
    by_category: byCategory,
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

/** Runs a real model through the same checker: the model gets the item's tools, its tool calls are checked. */
export async function evaluateBfclModel(
  dir: string,
  model: ChatModel,
  options: BfclEvalOptions = {},
): Promise<BfclReport> {
  const loaded = loadCategories(dir, options.categories);
  const total = loaded.reduce((n, c) => n + c.items.length, 0);
  const byCategory: Record<string, BfclCategoryFigures> = {};
  const failures: BfclFailure[] = [];
  let done = 0;
  let correct = 0;
  for (const { category, items } of loaded) {
    let categoryCorrect = 0;
    for (const { item, expected } of items) {
      let result: CheckResult;
      try {
        const { message } = await model.generate(itemMessages(item), { tools: item.tools, temperature: 0 });
        const calls = (message.tool_calls ?? []).map((c) => ({
          name: c.function.name,
          arguments: c.function.arguments,
        }));
        result = checkBfclItem(category, item.docs, calls, expected);
      } catch (error) {
        result = { valid: false, errorType: "model_error", error: (error as Error).message };
      }
      if (result.valid) categoryCorrect++;
      else failures.push({ id: item.id, errorType: result.errorType, error: result.error });
      options.onProgress?.(++done, total);
    }
    byCategory[category] = figures(categoryCorrect, items.length);
    correct += categoryCorrect;
  }
  return { ...figures(correct, total), by_category: byCategory, failures };
}
