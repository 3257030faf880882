import type { BfclExpectedCall, BfclFunctionDoc } from "../catalog/import/bfcl.ts";
import { bfclJsonType } from "../catalog/import/schema-types.ts";
import {
  coerceLiteral,
  deepEqual,
  includesValue,
  isPlainRecord,
  kindOf,
  standardize,
  standardizeString,
} from "./bfcl-values.ts";
import { checkRelevance, scoringOf } from "./bfcl-relevance.ts";
import type { BfclCall, CheckResult } from "./bfcl-types.ts";

/**
 * The BFCL AST checker, after the leaderboard's published rules (`ast_checker.py`): function name; required
 * parameters present; no unknown parameters; types (an int is accepted for a float); strings compared after
 * `standardize_string`; lists and dicts element by element; `""` among the allowed values = may be omitted;
 * parallel = order-free matching. Works on JSON values, which makes the documented deviations
 * (docs/retrieval-and-evaluation.md): JSON has no int/float distinction, so 5.0 given for an integer passes
 * here where Python's checker refuses it, and ints inside a float array pass (Python converts int → float at
 * the top level only); `1` given for `true` inside a dict fails here where Python's `1 == True` passes it;
 * names with dots turned into underscores always pass (BFCL allows that only for models registered as needing
 * it).
 */

export type { BfclCall, CheckResult } from "./bfcl-types.ts";

export type BfclLanguage = "python" | "java" | "javascript";

export function languageOf(category: string): BfclLanguage {
  if (category.includes("java") && !category.includes("javascript")) return "java";
  if (category.includes("javascript")) return "javascript";
  return "python";
}

const OK: CheckResult = { valid: true };
const fail = (errorType: string, error: string): CheckResult => ({ valid: false, errorType, error });

interface ParamDoc {
  type?: string;
  items?: ParamDoc;
}

/** The JSON kind a BFCL type stands for: "integer", "number", "string", "boolean", "array", "object" or "" (any). */
function expectedKind(doc: ParamDoc | undefined): string {
  return bfclJsonType(doc?.type ?? "any") ?? "";
}

function matchesKind(value: unknown, kind: string): boolean {
  if (kind === "") return true;
  if (kind === "integer") return typeof value === "number" && Number.isInteger(value);
  return kindOf(value) === kind;
}

/** The kind of the first non-optional allowed value; undefined when every allowed value is "". */
function possibleAnswerKind(allowed: readonly unknown[]): string | undefined {
  const first = allowed.find((v) => v !== "");
  return first === undefined ? undefined : kindOf(first);
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/**
 * The allowed values of a list parameter, the omission marker "" read as the empty list: BFCL's list checkers
 * walk each allowed answer element by element, and "" has none, so `[]` passes wherever omission does.
 */
const allowedLists = (allowed: readonly unknown[]): unknown[] => allowed.map((a) => (a === "" ? [] : a));

/** One dict against its allowed forms `{key: [allowed values]}` (BFCL's dict_checker). */
function checkDict(
  param: string,
  value: Record<string, unknown>,
  candidates: readonly unknown[],
): CheckResult {
  let last = fail("dict_checker:unclear", `no allowed form for ${param}`);
  for (const candidate of candidates) {
    if (!isPlainRecord(candidate)) continue;
    const unexpected = Object.keys(value).find((key) => !Object.hasOwn(candidate, key));
    if (unexpected !== undefined) {
      last = fail("value_error:dict_key", `unexpected dict key ${JSON.stringify(unexpected)} in ${param}`);
      continue;
    }
    const wrong = Object.entries(value).find(
      ([key, v]) => !includesValue(asList(candidate[key]).map(standardize), standardize(v)),
    );
    if (wrong !== undefined) {
      last = fail(
        "value_error:dict_value",
        `invalid value ${JSON.stringify(wrong[1])} for ${param}.${wrong[0]}`,
      );
      continue;
    }
    const missing = Object.entries(candidate).find(
      ([key, allowed]) => !(key in value) && !asList(allowed).includes(""),
    );
    if (missing !== undefined) {
      last = fail("value_error:dict_key", `missing dict key ${JSON.stringify(missing[0])} in ${param}`);
      continue;
    }
    return OK;
  }
  return last;
}

/** A list of dicts, element by element in order, against each allowed list (BFCL's list_dict_checker). */
function checkListOfDicts(param: string, value: unknown[], candidates: readonly unknown[]): CheckResult {
  let last = fail("value_error:list_dict_count", `no allowed list of dicts matches ${param}`);
  for (const candidate of allowedLists(candidates)) {
    if (!Array.isArray(candidate)) continue;
    if (candidate.length !== value.length) {
      last = fail(
        "value_error:list_dict_count",
        `${param}: expected ${candidate.length} dicts, got ${value.length}`,
      );
      continue;
    }
    const bad = value
      .map((item, i) =>
        isPlainRecord(item) ? checkDict(param, item, [candidate[i]]) : fail("type_error:nested", ""),
      )
      .find((r) => !r.valid);
    if (bad === undefined) return OK;
    last = bad;
  }
  return last;
}

/** One argument value against its declared type and allowed values. */
function checkValue(
  param: string,
  rawValue: unknown,
  doc: ParamDoc | undefined,
  allowed: unknown[],
  language: BfclLanguage,
): CheckResult {
  const kind = expectedKind(doc);
  const value = language === "python" ? rawValue : coerceLiteral(rawValue, kind);
  const answerKind = possibleAnswerKind(allowed);
  // A variable name given where a value of another type is declared (Java's `ResultSet.TYPE_...`): BFCL takes
  // the allowed values' own type and compares exactly.
  const loose = (k: string | undefined): string | undefined => (k === "integer" ? "number" : k);
  const isVariable = answerKind !== undefined && loose(answerKind) !== loose(kind) && kind !== "";
  if (isVariable && kindOf(value) === answerKind) {
    return includesValue(allowed, value) ? OK : fail("value_error:variable", `invalid value for ${param}`);
  }
  if (!matchesKind(value, kind) && !(kind === "number" && typeof value === "number")) {
    return fail(
      "type_error:simple",
      `${param}: expected ${doc?.type ?? "any"}, got ${kindOf(value)} ${JSON.stringify(value)}`,
    );
  }
  // Of the declared type, but the answers are of another (`venue: ["", true]` for a string): BFCL still treats
  // the parameter as a variable and compares exactly, without normalising strings.
  if (isVariable) {
    return includesValue(allowed, value)
      ? OK
      : fail("value_error:others", `invalid value ${JSON.stringify(value)} for ${param}`);
  }
  const itemKind = kind === "array" ? expectedKind(doc?.items) : "";
  // Elements of the declared item type, or of the type the allowed lists themselves hold (BFCL's nested check
  // applies its variable rule too: `sort_list` declared over integers but answered with strings).
  const allowedElementKinds = new Set(allowed.flatMap((a) => (Array.isArray(a) ? a.map(kindOf) : [])));
  const elementOk = (v: unknown): boolean => matchesKind(v, itemKind) || allowedElementKinds.has(kindOf(v));
  if (kind === "array" && itemKind !== "" && !(value as unknown[]).every(elementOk)) {
    return fail("type_error:nested", `${param}: every element must be ${doc?.items?.type}`);
  }
  if (kind === "object") return checkDict(param, value as Record<string, unknown>, allowed);
  if (kind === "array" && itemKind === "object") return checkListOfDicts(param, value as unknown[], allowed);
  if (kind === "string" || (kind === "" && typeof value === "string")) {
    // The omission marker "" is normalised like any allowed string, as BFCL's string_checker does: where a
    // parameter may be omitted, "" (or text that normalises to nothing, like " - ") passes too.
    const ok = allowed.some(
      (a) => typeof a === "string" && standardizeString(a) === standardizeString(value as string),
    );
    return ok ? OK : fail("value_error:string", `invalid value ${JSON.stringify(value)} for ${param}`);
  }
  if (kind === "array") {
    const norm = (list: unknown): unknown => (Array.isArray(list) ? list.map(standardize) : list);
    return includesValue(allowedLists(allowed).map(norm), norm(value))
      ? OK
      : fail("value_error:list/tuple", `invalid list for ${param}`);
  }
  return includesValue(allowed, value)
    ? OK
    : fail("value_error:others", `invalid value ${JSON.stringify(value)} for ${param}`);
}

/** Names may come back with dots turned into underscores (APIs that forbid dots), as BFCL allows. */
function sameName(expected: string, given: string): boolean {
  return given === expected || given === expected.replace(/\./g, "_");
}

/** One call against one expected call and the function's doc (BFCL's simple_function_checker). */
export function checkCall(
  doc: BfclFunctionDoc,
  call: BfclCall,
  expected: BfclExpectedCall,
  language: BfclLanguage,
): CheckResult {
  const allowedByParam = Object.values(expected)[0] ?? {};
  if (!sameName(doc.name, call.name))
    return fail("simple_function_checker:wrong_func_name", `expected ${doc.name}, got ${call.name}`);
  const parameters = (doc.parameters ?? {}) as { properties?: Record<string, ParamDoc>; required?: string[] };
  const properties = parameters.properties ?? {};
  for (const name of parameters.required ?? []) {
    if (!(name in call.arguments))
      return fail("simple_function_checker:missing_required", `missing required parameter ${name}`);
  }
  for (const [name, value] of Object.entries(call.arguments)) {
    if (!Object.hasOwn(properties, name) || !Object.hasOwn(allowedByParam, name)) {
      return fail("simple_function_checker:unexpected_param", `unexpected parameter ${name}`);
    }
    const result = checkValue(name, value, properties[name], asList(allowedByParam[name]), language);
    if (!result.valid) return result;
  }
  for (const [name, allowed] of Object.entries(allowedByParam)) {
    if (!(name in call.arguments) && !asList(allowed).includes("")) {
      return fail("simple_function_checker:missing_optional", `parameter ${name} must be given`);
    }
  }
  return OK;
}

function findDoc(docs: readonly BfclFunctionDoc[], expected: BfclExpectedCall): BfclFunctionDoc | undefined {
  const name = Object.keys(expected)[0];
  return docs.find((d) => d.name === name);
}

/** The checker a category's count errors are named after (BFCL dispatches on "parallel", then "multiple"). */
function countErrorType(category: string): string {
  if (category.includes("parallel")) return "parallel_function_checker_no_order:wrong_count";
  if (category.includes("multiple")) return "multiple_function_checker:wrong_count";
  return "simple_function_checker:wrong_count";
}

/**
 * Checks one test item: irrelevance wants no call and relevance any call (bfcl-relevance.ts); `parallel*`
 * matches calls to expected calls in any order; `multiple` and `simple*` want exactly the expected number of calls.
 */
export function checkBfclItem(
  category: string,
  docs: readonly BfclFunctionDoc[],
  calls: readonly BfclCall[],
  expected: readonly BfclExpectedCall[],
): CheckResult {
  const scoring = scoringOf(category);
  if (scoring !== "ast") return checkRelevance(scoring, calls);
  const language = languageOf(category);
  if (calls.length !== expected.length) {
    return fail(countErrorType(category), `expected ${expected.length} call(s), got ${calls.length}`);
  }
  if (!category.includes("parallel")) {
    const doc = findDoc(docs, expected[0]);
    if (doc === undefined) return fail("data_error", `no function doc for ${Object.keys(expected[0])[0]}`);
    return checkCall(doc, calls[0], expected[0], language);
  }
  const used = new Set<number>();
  for (const want of expected) {
    const doc = findDoc(docs, want);
    if (doc === undefined) return fail("data_error", `no function doc for ${Object.keys(want)[0]}`);
    let last: CheckResult = fail("parallel_function_checker_no_order:cannot_find_match", "");
    const index = calls.findIndex(
      (call, i) => !used.has(i) && (last = checkCall(doc, call, want, language)).valid,
    );
    if (index < 0) {
      return fail(
        "parallel_function_checker_no_order:cannot_find_match",
        `no call matches ${doc.name}: ${last.error ?? ""}`,
      );
    }
    used.add(index);
  }
  return OK;
}

/** Exported for the oracle's mutations: whether a value is allowed for a parameter. */
export function isAllowedValue(value: unknown, allowed: readonly unknown[]): boolean {
  return allowed.some((a) => deepEqual(standardize(a), standardize(value)));
}
