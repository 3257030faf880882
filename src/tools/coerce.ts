import type { Coercion, JsonSchema } from "./types.ts";

const NUMERIC = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function types(schema: JsonSchema): string[] {
  return typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
}

/**
 * The safe scalar coercions, and only these: a numeric string → number (integer only when whole),
 * "true"/"false" → boolean, a finite number or boolean → string. Applied where the schema wants the
 * target type and the value is not already valid; each change is reported with its JSON pointer.
 */
export function coerceScalar(
  value: unknown,
  schema: JsonSchema,
): { ok: true; value: unknown } | { ok: false } {
  const want = types(schema);
  if (want.length === 0 || want.includes(jsonType(value))) return { ok: false };
  if (value === null && schema.nullable === true) return { ok: false };
  if (typeof value === "string") {
    if ((want.includes("number") || want.includes("integer")) && NUMERIC.test(value)) {
      const n = Number(value);
      if (Number.isFinite(n) && (want.includes("number") || Number.isInteger(n)))
        return { ok: true, value: n };
    }
    if (want.includes("boolean") && (value === "true" || value === "false"))
      return { ok: true, value: value === "true" };
  }
  if (
    want.includes("string") &&
    ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean")
  ) {
    return { ok: true, value: String(value) };
  }
  return { ok: false };
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** Walks value and schema together (properties, items), coercing in place; returns what changed. */
export function coerceArguments(value: unknown, schema: JsonSchema, pointer = ""): Coercion[] {
  const changes: Coercion[] = [];
  const visit = (
    container: Record<string, unknown> | unknown[],
    key: string | number,
    sub: JsonSchema,
    at: string,
  ) => {
    const current = (container as Record<string, unknown>)[key];
    const res = coerceScalar(current, sub);
    if (res.ok) {
      (container as Record<string, unknown>)[key] = res.value;
      changes.push({ pointer: at, from: current, to: res.value });
    } else changes.push(...coerceArguments(current, sub, at));
  };
  if (typeof value === "object" && value !== null && !Array.isArray(value) && schema.properties) {
    const obj = value as Record<string, unknown>;
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (Object.hasOwn(obj, key)) visit(obj, key, sub, `${pointer}/${escape(key)}`);
    }
  } else if (Array.isArray(value) && schema.items && !Array.isArray(schema.items)) {
    for (let i = 0; i < value.length; i++) visit(value, i, schema.items, `${pointer}/${i}`);
  }
  return changes;
}
