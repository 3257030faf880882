/** Value helpers of the BFCL AST checker: kinds, deep equality and BFCL's string normalisation. */

export type ValueKind = "string" | "number" | "boolean" | "array" | "object" | "null";

export function kindOf(value: unknown): ValueKind {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  const t = typeof value;
  if (t === "string" || t === "number" || t === "boolean") return t;
  return "object";
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return kindOf(value) === "object";
}

/** Structural equality (numbers by value, so 7 equals 7.0 as in Python's ==); key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ka = kindOf(a);
  if (ka !== kindOf(b)) return false;
  if (ka === "array") {
    const x = a as unknown[];
    const y = b as unknown[];
    return x.length === y.length && x.every((v, i) => deepEqual(v, y[i]));
  }
  if (ka === "object") {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = Object.keys(x);
    return (
      keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && deepEqual(x[k], y[k]))
    );
  }
  return false;
}

/** BFCL's `standardize_string`: drop spaces and `,./-_*^`, lowercase, single quotes → double quotes. */
export function standardizeString(text: string): string {
  return text
    .replace(/[ ,./\-_*^]/g, "")
    .toLowerCase()
    .replace(/'/g, '"');
}

/** Strings normalised, anything else unchanged. */
export function standardize(value: unknown): unknown {
  return typeof value === "string" ? standardizeString(value) : value;
}

export function includesValue(list: readonly unknown[], value: unknown): boolean {
  return list.some((candidate) => deepEqual(candidate, value));
}

/**
 * Java / JavaScript answers are sometimes written as source literals ("true", "42L", "[1, 2]"). When the declared
 * type is not a string, such a literal is read as the value it spells (BFCL's type converters do the same).
 */
export function coerceLiteral(value: unknown, expectedKind: string): unknown {
  if (typeof value !== "string" || expectedKind === "string" || expectedKind === "") return value;
  const text = value.trim();
  if (expectedKind === "boolean" && (text === "true" || text === "false")) return text === "true";
  if (expectedKind === "integer" || expectedKind === "number") {
    const m = /^(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)[lLfFdDn]?$/.exec(text);
    if (m) return Number(m[1]);
  }
  if (
    (expectedKind === "array" && text.startsWith("[")) ||
    (expectedKind === "object" && text.startsWith("{"))
  ) {
    try {
      return JSON.parse(text);
    } catch {
      return value;
    }
  }
  return value;
}
