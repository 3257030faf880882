import { z } from "zod";
import type { JsonSchema, ObjectSchema } from "./types.ts";
import { isPlainObject } from "../plain-object.ts";
import { ToolgenError } from "../errors.ts";

/** Key order of HF's get_json_schema output (type first, description after the structural keys). */
const KEY_ORDER = ["type", "enum", "items", "properties", "required", "additionalProperties", "nullable"];
const TAIL_ORDER = ["description", "default"];
const NESTED_MAPS = ["properties", "$defs", "definitions", "patternProperties"];
const NESTED_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];

/** True for a zod 4 schema (duck-typed so schemas from another copy of zod also count). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/**
 * Rewrites a schema into the canonical HF/OpenAI form: HF's key order at every level, no `$schema`,
 * no empty `required`. The result is a fresh object; the input is not changed.
 */
export function normalizeSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  const keys = Object.keys(schema).filter((k) => k !== "$schema");
  const ordered = [
    ...KEY_ORDER.filter((k) => keys.includes(k)),
    ...keys.filter((k) => !KEY_ORDER.includes(k) && !TAIL_ORDER.includes(k)),
    ...TAIL_ORDER.filter((k) => keys.includes(k)),
  ];
  for (const key of ordered) {
    const value = schema[key];
    if (key === "required" && Array.isArray(value) && value.length === 0) continue;
    if (NESTED_MAPS.includes(key) && isPlainObject(value)) {
      const map: Record<string, JsonSchema> = {};
      for (const [name, sub] of Object.entries(value)) map[name] = normalizeIfSchema(sub) as JsonSchema;
      out[key] = map;
    } else if (key === "items" || key === "additionalProperties" || key === "not") {
      (out as Record<string, unknown>)[key] = Array.isArray(value)
        ? value.map(normalizeIfSchema)
        : normalizeIfSchema(value);
    } else if (NESTED_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map(normalizeIfSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function normalizeIfSchema(value: unknown): unknown {
  return isPlainObject(value) ? normalizeSchema(value as JsonSchema) : value;
}

/** A tool's parameters must be an object schema; anything else is a clear error. */
export function toObjectSchema(schema: JsonSchema, where: string): ObjectSchema {
  if (!isPlainObject(schema))
    throw new ToolgenError("invalid_tool", `${where}: parameters must be a JSON Schema object`);
  const type = schema.type ?? "object";
  if (type !== "object") {
    throw new ToolgenError(
      "invalid_tool",
      `${where}: parameters must have type "object" (got ${JSON.stringify(type)})`,
    );
  }
  const props = schema.properties ?? {};
  if (!isPlainObject(props))
    throw new ToolgenError("invalid_tool", `${where}: "properties" must be an object`);
  const required = schema.required;
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((r) => typeof r !== "string")) {
      throw new ToolgenError("invalid_tool", `${where}: "required" must be an array of property names`);
    }
    const missing = required.filter((r) => !(r in props));
    if (missing.length > 0)
      throw new ToolgenError(
        "invalid_tool",
        `${where}: required names not in properties: ${missing.join(", ")}`,
      );
  }
  return normalizeSchema({ ...schema, type: "object", properties: props }) as ObjectSchema;
}

/** zod 4 → HF parameters, through zod's own JSON Schema output (input side: defaults make a key optional). */
export function zodToParameters(schema: z.ZodType, where: string): ObjectSchema {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  } catch (err) {
    throw new ToolgenError(
      "invalid_tool",
      `${where}: zod schema cannot be written as JSON Schema: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  return toObjectSchema(json, where);
}
