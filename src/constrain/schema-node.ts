/**
 * JSON Schema -> a small normalised tree of what a constrained decoder can enforce. One walk of the schema,
 * shared by the two constrained paths: the llama.cpp grammar (`models/llamacpp/grammar.ts` renders it as
 * GBNF) and the built-in engine's token constraint (`json-automaton.ts` runs it byte by byte), so both read
 * the same keywords the same way. Keywords a path cannot express (pattern, format, multipleOf, uniqueItems;
 * for the grammar also number bounds beyond the sign) are left to validation after generation.
 */
import type { JsonSchema } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";

/** Digits an integer part or a fraction may have (both paths; a small model cannot pad a number forever). */
export const MAX_INTEGER_DIGITS = 16;
export const MAX_FRACTION_DIGITS = 16;
/** An integer range at most this wide (minimum and maximum given) becomes an enum of its values. */
export const MAX_ENUMERATED_RANGE = 256;

/** A number schema's bounds, as given (enforced by number-range.ts in the token constraint). */
export interface NumberBounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

export type SchemaNode =
  /** Exactly one of these JSON values (enum, const, an integer range). */
  /** `range`: a small integer range written out (not an enum or const), so a copy constraint may narrow it. */
  | { kind: "literal"; values: unknown[]; range?: true }
  | { kind: "string"; minLength: number; maxLength?: number }
  /** `nonNegative`: the schema's minimum (or exclusiveMinimum) is ≥ 0, so no minus sign. */
  | { kind: "number"; integer: boolean; nonNegative: boolean; bounds: NumberBounds }
  | { kind: "boolean" }
  | { kind: "null" }
  | { kind: "array"; items: SchemaNode; minItems: number; maxItems?: number }
  /** Required properties, then optional ones (each in schema order); no other keys. */
  | { kind: "object"; properties: PropertyNode[] }
  /** An object with no listed properties: any keys, values of `values`. */
  | { kind: "map"; values: SchemaNode }
  | { kind: "union"; options: SchemaNode[] }
  /** Any JSON value. */
  | { kind: "any" }
  /** A local $ref; `target()` resolves it lazily, so recursive schemas are finite trees of refs. */
  | { kind: "ref"; name: string; target: () => SchemaNode };

export interface PropertyNode {
  key: string;
  required: boolean;
  value: SchemaNode;
}

const TYPES = new Set(["string", "number", "integer", "boolean", "null", "array", "object"]);

function typeOfValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function admits(type: string, v: unknown): boolean {
  const t = typeOfValue(v);
  return t === type || (type === "number" && t === "integer");
}

function bound(schema: JsonSchema, key: string): number | undefined {
  const v = schema[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function count(schema: JsonSchema, key: string, where: string): number | undefined {
  const v = schema[key];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    throw new ToolgenError(
      "invalid_input",
      `schema ${where}: ${key} must be a non-negative integer, got ${JSON.stringify(v)}`,
    );
  return v;
}

/**
 * Normalises `schema`; local $refs point into `root` (default: the schema itself). Throws on a schema that
 * accepts nothing.
 */
export function normaliseSchema(schema: JsonSchema | boolean | undefined, root?: JsonSchema): SchemaNode {
  const base: JsonSchema = root ?? (typeof schema === "object" && schema !== null ? schema : {});
  const refs = new Map<string, SchemaNode>();

  function ref(name: string): SchemaNode {
    const known = refs.get(name);
    if (known) return known;
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(name);
    const target = m ? (base[m[1]!] as Record<string, JsonSchema> | undefined)?.[m[2]!] : undefined;
    if (!target)
      throw new ToolgenError(
        "invalid_input",
        `schema $ref "${name}" is not a local #/$defs/… or #/definitions/… entry`,
      );
    let resolved: SchemaNode | undefined;
    const node: SchemaNode = {
      kind: "ref",
      name,
      target: () => (resolved ??= walk(target, name)),
    };
    refs.set(name, node);
    return node;
  }

  function walk(s: JsonSchema | boolean | undefined, where: string): SchemaNode {
    if (s === false) throw new ToolgenError("invalid_input", `schema ${where}: false accepts nothing`);
    if (s === undefined || s === true || typeof s !== "object" || s === null) return { kind: "any" };
    if (typeof s.$ref === "string") return ref(s.$ref);
    if ("const" in s) return { kind: "literal", values: [s.const] };
    if (Array.isArray(s.enum)) {
      // An enum under a type keeps the values of that type (a validator checks both keywords).
      const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
      const values = types ? s.enum.filter((v) => types.some((t) => admits(t, v))) : s.enum;
      if (values.length === 0)
        throw new ToolgenError(
          "invalid_input",
          `schema ${where}: the enum has no value of the schema's type`,
        );
      return { kind: "literal", values };
    }
    const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives) && alternatives.length > 0) {
      return { kind: "union", options: alternatives.map((a, i) => walk(a, `${where}/${i}`)) };
    }
    if (Array.isArray(s.type)) {
      if (s.type.length === 0)
        throw new ToolgenError("invalid_input", `schema ${where}: an empty type list accepts nothing`);
      return { kind: "union", options: s.type.map((t) => walk({ ...s, type: t }, where)) };
    }
    if (s.nullable === true && typeof s.type === "string" && s.type !== "null") {
      // OpenAPI 3.0's nullable
      return { kind: "union", options: [walk({ ...s, nullable: false }, where), { kind: "null" }] };
    }
    if (typeof s.type === "string" && !TYPES.has(s.type))
      throw new ToolgenError("invalid_input", `schema ${where}: unknown type ${JSON.stringify(s.type)}`);
    switch (s.type) {
      case "string": {
        const minLength = count(s, "minLength", where) ?? 0;
        const maxLength = count(s, "maxLength", where);
        if (maxLength !== undefined && maxLength < minLength)
          throw new ToolgenError(
            "invalid_input",
            `schema ${where}: maxLength ${maxLength} < minLength ${minLength}`,
          );
        return { kind: "string", minLength, ...(maxLength !== undefined ? { maxLength } : {}) };
      }
      case "integer":
      case "number":
        return number(s, s.type === "integer", where);
      case "boolean":
        return { kind: "boolean" };
      case "null":
        return { kind: "null" };
      case "array":
        return array(s, where);
      case "object":
        return object(s, where);
      default:
        return s.properties ? object(s, where) : { kind: "any" };
    }
  }

  function number(s: JsonSchema, integer: boolean, where: string): SchemaNode {
    const min = bound(s, "minimum");
    const exMin = bound(s, "exclusiveMinimum");
    const max = bound(s, "maximum");
    const exMax = bound(s, "exclusiveMaximum");
    if (integer) {
      const lo = Math.max(
        min !== undefined ? Math.ceil(min) : -Infinity,
        exMin !== undefined ? Math.floor(exMin) + 1 : -Infinity,
      );
      const hi = Math.min(
        max !== undefined ? Math.floor(max) : Infinity,
        exMax !== undefined ? Math.ceil(exMax) - 1 : Infinity,
      );
      if (lo > hi)
        throw new ToolgenError("invalid_input", `schema ${where}: no integer lies between the bounds`);
      if (hi - lo < MAX_ENUMERATED_RANGE) {
        return {
          kind: "literal",
          values: Array.from({ length: hi - lo + 1 }, (_, i) => lo + i),
          range: true,
        };
      }
    }
    const nonNegative = (min !== undefined && min >= 0) || (exMin !== undefined && exMin >= 0);
    const bounds: NumberBounds = {
      ...(min !== undefined ? { minimum: min } : {}),
      ...(max !== undefined ? { maximum: max } : {}),
      ...(exMin !== undefined ? { exclusiveMinimum: exMin } : {}),
      ...(exMax !== undefined ? { exclusiveMaximum: exMax } : {}),
    };
    return { kind: "number", integer, nonNegative, bounds };
  }

  function array(s: JsonSchema, where: string): SchemaNode {
    const items = Array.isArray(s.items) ? undefined : s.items;
    const minItems = count(s, "minItems", where) ?? 0;
    const maxItems = count(s, "maxItems", where);
    if (maxItems !== undefined && maxItems < minItems)
      throw new ToolgenError("invalid_input", `schema ${where}: maxItems ${maxItems} < minItems ${minItems}`);
    return {
      kind: "array",
      items: walk(items as JsonSchema | undefined, `${where}/items`),
      minItems,
      ...(maxItems !== undefined ? { maxItems } : {}),
    };
  }

  function object(s: JsonSchema, where: string): SchemaNode {
    const props = Object.entries(s.properties ?? {});
    const required = new Set(s.required ?? []);
    if (props.length === 0 && required.size === 0) {
      const extra = s.additionalProperties;
      // No listed keys and no others allowed: the only value is `{}` (a free map would invent keys).
      if (extra === false) return { kind: "object", properties: [] };
      return { kind: "map", values: typeof extra === "object" ? walk(extra, `${where}/*`) : { kind: "any" } };
    }
    const properties: PropertyNode[] = props.map(([key, sub]) => ({
      key,
      required: required.has(key),
      value: walk(sub, `${where}/${key}`),
    }));
    // A required key the schema does not describe still has to be written: any value will do.
    for (const key of required) {
      if (!(s.properties && key in s.properties))
        properties.push({ key, required: true, value: { kind: "any" } });
    }
    // Required first, then optional, each in schema order: the order ToolGen's documentation lists them in
    // (toolgen/agent-format.ts) and llama.cpp's own schema converter writes them in.
    return {
      kind: "object",
      properties: [...properties.filter((p) => p.required), ...properties.filter((p) => !p.required)],
    };
  }

  return walk(schema, "#");
}
