import type { BfclExpectedCall, BfclFunctionDoc } from "../catalog/import/bfcl.ts";
import type { BfclCall } from "./bfcl-checker.ts";
import { isAllowedValue } from "./bfcl-checker.ts";
import type { BfclScoring } from "./bfcl-relevance.ts";
import { isPlainRecord } from "./bfcl-values.ts";

/** The first allowed value that is not "" (the omission marker); undefined when the parameter may only be omitted. */
function firstValue(allowed: unknown): unknown {
  const list = Array.isArray(allowed) ? allowed : [allowed];
  return list.find((v) => v !== "");
}

/** A dict answer `{key: [allowed values]}` → one concrete dict (keys that may only be omitted are left out). */
function materializeDict(form: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, allowed] of Object.entries(form)) {
    const value = firstValue(allowed);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

interface ParamDoc {
  type?: string;
  items?: { type?: string };
}

/** One possible answer → the concrete call a correct model would make (first allowed value of each parameter). */
export function answerToCall(expected: BfclExpectedCall, doc: BfclFunctionDoc | undefined): BfclCall {
  const [name, params] = Object.entries(expected)[0] ?? ["", {}];
  const properties = ((doc?.parameters ?? {}) as { properties?: Record<string, ParamDoc> }).properties ?? {};
  const args: Record<string, unknown> = {};
  for (const [param, allowed] of Object.entries(params)) {
    const list = Array.isArray(allowed) ? allowed : [allowed];
    // An optional answer for a parameter the function does not declare (a slip in the published answers):
    // a correct model leaves it out.
    if (!Object.hasOwn(properties, param) && list.includes("")) continue;
    let value = firstValue(list);
    if (value === undefined) continue;
    const type = properties[param]?.type;
    const isDictType = type === "dict" || type === "HashMap" || type === "Hashtable";
    if (isDictType && isPlainRecord(value)) value = materializeDict(value);
    else if (properties[param]?.items?.type === "dict" && Array.isArray(value)) {
      value = value.map((v) => (isPlainRecord(v) ? materializeDict(v) : v));
    }
    args[param] = value;
  }
  return { name, arguments: args };
}

/**
 * The calls a correct model makes for an item: its possible answers; for irrelevance none; for relevance the
 * possible answers when the data has them, else a call to the first offered function (any call is correct).
 */
export function oracleCalls(
  scoring: BfclScoring,
  expected: readonly BfclExpectedCall[],
  docs: readonly BfclFunctionDoc[],
): BfclCall[] {
  if (scoring === "irrelevance") return [];
  if (scoring === "relevance" && expected.length === 0) return docs.slice(0, 1).map(anyCall);
  return expected.map((e) =>
    answerToCall(
      e,
      docs.find((d) => d.name === Object.keys(e)[0]),
    ),
  );
}

const anyCall = (doc: BfclFunctionDoc): BfclCall => ({ name: doc.name, arguments: {} });

export const MUTATIONS = [
  "wrong_value",
  "missing_required",
  "extra_parameter",
  "wrong_function",
  "relevance_flip",
] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** A value that is certainly not allowed for the parameter, or undefined when none is obvious. */
function wrongValue(value: unknown, allowed: readonly unknown[]): unknown {
  const candidates: unknown[] =
    typeof value === "string"
      ? [`${value} zzq mutated`]
      : typeof value === "number"
        ? [value + 1000003, -value - 7777]
        : typeof value === "boolean"
          ? [!value]
          : Array.isArray(value)
            ? [[...value, value[0] ?? "zzq"], []]
            : isPlainRecord(value)
              ? [{ ...value, zzq_mutated_key: 1 }]
              : [];
  return candidates.find(
    (c) =>
      !isAllowedValue(c, allowed) &&
      !(Array.isArray(c) && allowed.some((a) => Array.isArray(a) && a.length === c.length)),
  );
}

/**
 * Applies one mutation to the correct calls; undefined when it does not apply to this item (no parameter with a
 * value to change, no required parameter to drop). Mutations touch the first call that can take them. Relevance
 * and irrelevance items take only `relevance_flip` (a call where none is wanted, no call where one is): their
 * verdict does not depend on the call's content; AST items never take it.
 */
export function mutateCalls(
  mutation: Mutation,
  scoring: BfclScoring,
  calls: readonly BfclCall[],
  expected: readonly BfclExpectedCall[],
  docs: readonly BfclFunctionDoc[],
): BfclCall[] | undefined {
  if ((mutation === "relevance_flip") !== (scoring !== "ast")) return undefined;
  if (mutation === "relevance_flip") {
    if (scoring === "relevance") return [];
    return docs.length === 0 ? undefined : [anyCall(docs[0])];
  }
  const copy = calls.map((c) => ({ name: c.name, arguments: { ...c.arguments } }));
  for (const [i, call] of copy.entries()) {
    const allowedByParam = Object.values(expected[i] ?? {})[0] ?? {};
    const doc = docs.find((d) => d.name === call.name);
    if (mutation === "wrong_function") {
      call.name = `${call.name}_zzq_wrong`;
      return copy;
    }
    if (mutation === "extra_parameter") {
      call.arguments.zzq_unknown_parameter = 1;
      return copy;
    }
    if (mutation === "missing_required") {
      const required = ((doc?.parameters ?? {}) as { required?: string[] }).required ?? [];
      const drop = required.find((name) => name in call.arguments);
      if (drop === undefined) continue;
      delete call.arguments[drop];
      return copy;
    }
    for (const [param, value] of Object.entries(call.arguments)) {
      const allowed = allowedByParam[param];
      const wrong = wrongValue(value, Array.isArray(allowed) ? allowed : [allowed]);
      if (wrong === undefined) continue;
      call.arguments[param] = wrong;
      return copy;
    }
  }
  return undefined;
}
