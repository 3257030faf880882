import type { BfclExpectedCall, BfclFunctionDoc } from "../../src/catalog/import/bfcl.ts";
import type { BfclCall } from "../../src/eval/bfcl-checker.ts";
import { answerToCall } from "../../src/eval/bfcl-oracle.ts";

/**
 * Variants of a BFCL item's correct answer, each of a class whose verdict under the leaderboard's rules is known
 * without running a checker: the differential test feeds every variant of every item to toolgen's checker and
 * compares. The verdicts come from the rules as BFCL publishes them, restated here independently of
 * src/eval: strings compare after dropping ` ,./-_*^` and lowercasing; an allowed `""` marks an optional
 * parameter and is itself an allowed (normalised) string, and reads as `[]` for list parameters; `null` is
 * never of the declared type; call counts must match; parallel calls match in any order; irrelevance wants
 * no call. Two classes follow toolgen's documented deviations (docs/retrieval-and-evaluation.md): dotted
 * names written with underscores pass; `1` for `true` inside a dict fails.
 */

export interface Variant {
  kind: string;
  calls: BfclCall[];
  valid: boolean;
}

interface ParamDoc {
  type?: string;
  items?: { type?: string };
}

interface Item {
  category: string;
  docs: readonly BfclFunctionDoc[];
  expected: readonly BfclExpectedCall[];
}

/** The leaderboard's string normalisation, restated. */
const normalise = (text: string): string => text.replace(/[ ,./\-_*^]/g, "").toLowerCase();

const isPython = (category: string): boolean => !/java/.test(category);

const clone = (calls: readonly BfclCall[]): BfclCall[] =>
  calls.map((c) => ({ name: c.name, arguments: structuredClone(c.arguments) }));

function docOf(docs: readonly BfclFunctionDoc[], name: string): BfclFunctionDoc | undefined {
  return docs.find((d) => d.name === name);
}

function properties(doc: BfclFunctionDoc | undefined): Record<string, ParamDoc> {
  return ((doc?.parameters ?? {}) as { properties?: Record<string, ParamDoc> }).properties ?? {};
}

function required(doc: BfclFunctionDoc | undefined): string[] {
  return ((doc?.parameters ?? {}) as { required?: string[] }).required ?? [];
}

/** Each expected call's allowed values by parameter, aligned with the oracle calls. */
function allowedOf(expected: BfclExpectedCall): Record<string, unknown[]> {
  return Object.values(expected)[0] ?? {};
}

interface ParamSite {
  call: number;
  param: string;
  type: string;
  allowed: unknown[];
  declared: boolean;
  isRequired: boolean;
}

function sites(item: Item): ParamSite[] {
  return item.expected.flatMap((e, call) => {
    const name = Object.keys(e)[0];
    const doc = docOf(item.docs, name);
    const props = properties(doc);
    return Object.entries(allowedOf(e)).map(([param, allowed]) => ({
      call,
      param,
      type: props[param]?.type ?? "",
      allowed: Array.isArray(allowed) ? allowed : [allowed],
      declared: Object.hasOwn(props, param),
      isRequired: required(doc).includes(param),
    }));
  });
}

/** One variant per site kind: the first site that takes it. */
function setParam(base: BfclCall[], site: ParamSite, value: unknown): BfclCall[] {
  const calls = clone(base);
  calls[site.call].arguments[site.param] = value;
  return calls;
}

/** Optional: the answer allows omission and the function does not require it (required wins, as in BFCL). */
const optional = (s: ParamSite): boolean => s.allowed.includes("") && s.declared && !s.isRequired;
const isString = (s: ParamSite): boolean => s.type === "string";
const isList = (s: ParamSite): boolean => s.type === "array" || s.type === "tuple";
const isNumber = (s: ParamSite): boolean => s.type === "integer" || s.type === "float";
/** A string parameter whose answers are strings (not one the data answers with another type: a variable). */
const isPlainString = (s: ParamSite): boolean => isString(s) && s.allowed.every((a) => typeof a === "string");
const stringsOf = (s: ParamSite): string[] => s.allowed.filter((a): a is string => typeof a === "string");
/** A string parameter the data gives as a variable name (a declared type other than string, a string answer). */
const plainValues = (s: ParamSite): boolean => s.allowed.every((a) => a === "" || typeof a !== "string");

const normaliseValue = (v: unknown): string =>
  JSON.stringify(typeof v === "string" ? normalise(v) : Array.isArray(v) ? v.map(normaliseValue) : v);

/**
 * Whether some correct call could also be taken for another expected call. BFCL matches parallel calls greedily
 * (each expected call takes the first unused call it accepts), so reordering such answers can fail there; the
 * reordering class leaves these items out.
 */
function ambiguous(item: Item, base: BfclCall[]): boolean {
  return base.some((call, i) =>
    item.expected.some((want, j) => {
      if (i === j || Object.keys(want)[0] !== call.name) return false;
      const allowed = allowedOf(want);
      return Object.entries(call.arguments).every(([param, value]) =>
        (allowed[param] ?? []).map(normaliseValue).includes(normaliseValue(value)),
      );
    }),
  );
}

function astVariants(item: Item, base: BfclCall[]): Variant[] {
  const out: Variant[] = [{ kind: "answer", calls: base, valid: true }];
  const all = sites(item);
  const python = isPython(item.category);
  const first = (pick: (s: ParamSite) => boolean): ParamSite | undefined => all.find(pick);

  // Optional parameters left out.
  const omitted = clone(base);
  let omittedAny = false;
  for (const s of all.filter(optional)) {
    if (s.param in omitted[s.call].arguments) {
      delete omitted[s.call].arguments[s.param];
      omittedAny = true;
    }
  }
  if (omittedAny) out.push({ kind: "omit_optional", calls: omitted, valid: true });

  // Another allowed scalar value for each parameter (the last one listed).
  const alternative = clone(base);
  let changed = false;
  for (const s of all) {
    const scalars = s.allowed.filter((a) => a !== "" && a !== null && typeof a !== "object");
    const last = scalars.at(-1);
    if (s.declared && scalars.length > 1 && last !== alternative[s.call].arguments[s.param]) {
      alternative[s.call].arguments[s.param] = last;
      changed = true;
    }
  }
  if (changed) out.push({ kind: "other_allowed_value", calls: alternative, valid: true });

  const dropped = first((s) => s.isRequired && s.param in base[s.call].arguments);
  if (dropped !== undefined) {
    const calls = clone(base);
    delete calls[dropped.call].arguments[dropped.param];
    out.push({ kind: "dropped_required", calls, valid: false });
  }
  const extra = clone(base);
  extra[0].arguments.zzq_extra_parameter = 1;
  out.push({ kind: "extra_parameter", calls: extra, valid: false });
  out.push({
    kind: "wrong_name",
    calls: base.map((c, i) => (i === 0 ? { ...c, name: `${c.name}_zzq` } : c)),
    valid: false,
  });
  out.push({ kind: "extra_call", calls: [...clone(base), ...clone(base.slice(0, 1))], valid: false });
  out.push({ kind: "no_call", calls: [], valid: false });
  if (base.length > 1) {
    out.push({ kind: "dropped_call", calls: clone(base.slice(0, -1)), valid: false });
    if (item.category.includes("parallel") && !ambiguous(item, base))
      out.push({ kind: "reordered_calls", calls: clone(base).reverse(), valid: true });
  }
  if (base.some((c) => c.name.includes(".")))
    out.push({
      kind: "underscored_name",
      calls: base.map((c) => ({ ...c, name: c.name.replace(/\./g, "_") })),
      valid: true,
    });

  const nullable = first((s) => optional(s) && !s.allowed.includes(null));
  if (nullable !== undefined)
    out.push({ kind: "null_optional", calls: setParam(base, nullable, null), valid: false });

  const nested = first((s) =>
    s.allowed.some(
      (a) =>
        typeof a === "object" &&
        a !== null &&
        !Array.isArray(a) &&
        Object.values(a).some((v) => Array.isArray(v) && v.includes(true)),
    ),
  );
  if (nested !== undefined) {
    const calls = clone(base);
    const dict = calls[nested.call].arguments[nested.param] as Record<string, unknown>;
    const key = Object.keys(dict).find((k) => dict[k] === true);
    if (key !== undefined) {
      dict[key] = 1;
      out.push({ kind: "deviation_nested_true_as_1", calls, valid: false });
    }
  }
  if (!python) return out;

  // The two rules of issue 20: "" (or text that normalises to nothing) and [] for optional parameters.
  const optString = first((s) => optional(s) && isPlainString(s));
  if (optString !== undefined) {
    out.push({ kind: "empty_optional_string", calls: setParam(base, optString, ""), valid: true });
    out.push({ kind: "blank_optional_string", calls: setParam(base, optString, " - "), valid: true });
  }
  const optList = first((s) => optional(s) && isList(s));
  if (optList !== undefined)
    out.push({ kind: "empty_optional_list", calls: setParam(base, optList, []), valid: true });
  const reqString = first(
    (s) =>
      s.declared &&
      isString(s) &&
      !stringsOf(s).some((a) => normalise(a) === "") &&
      s.param in base[s.call].arguments,
  );
  if (reqString !== undefined)
    out.push({ kind: "empty_required_string", calls: setParam(base, reqString, ""), valid: false });
  const reqList = first(
    (s) =>
      s.declared && isList(s) && !s.allowed.some((a) => a === "" || (Array.isArray(a) && a.length === 0)),
  );
  if (reqList !== undefined)
    out.push({ kind: "empty_required_list", calls: setParam(base, reqList, []), valid: false });

  // Values: restyled strings pass, changed strings and numbers fail, a number given as text fails.
  const str = first((s) => isPlainString(s) && typeof base[s.call].arguments[s.param] === "string");
  if (str !== undefined) {
    const value = base[str.call].arguments[str.param] as string;
    if (value.toUpperCase().toLowerCase() === value.toLowerCase())
      out.push({
        kind: "restyled_string",
        calls: setParam(base, str, ` ${value.toUpperCase()}.`),
        valid: true,
      });
    const wrong = `${value} zzq`;
    if (!stringsOf(str).some((a) => normalise(a) === normalise(wrong)))
      out.push({ kind: "wrong_string", calls: setParam(base, str, wrong), valid: false });
  }
  const num = first(
    (s) => isNumber(s) && plainValues(s) && typeof base[s.call].arguments[s.param] === "number",
  );
  if (num !== undefined) {
    const value = base[num.call].arguments[num.param] as number;
    out.push({ kind: "wrong_number", calls: setParam(base, num, value + 1000003), valid: false });
    out.push({ kind: "number_as_text", calls: setParam(base, num, String(value)), valid: false });
  }
  return out;
}

/** Every variant of one item, with its expected verdict. */
export function variantsOf(item: Item): Variant[] {
  if (item.category.includes("irrelevance")) {
    const doc = item.docs[0];
    const out: Variant[] = [
      { kind: "irrelevance_no_call", calls: [], valid: true },
      { kind: "irrelevance_unnamed_call", calls: [{ name: "", arguments: {} }], valid: true },
    ];
    if (doc !== undefined)
      out.push({ kind: "irrelevance_call", calls: [{ name: doc.name, arguments: {} }], valid: false });
    return out;
  }
  const base = item.expected.map((e) => answerToCall(e, docOf(item.docs, Object.keys(e)[0])));
  return astVariants(item, base);
}
