import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { isPlainObject } from "../plain-object.ts";
import type { JsonSchema } from "./types.ts";

// ajv-formats is CommonJS; under NodeNext its default import is the module object in some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => unknown;

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

/** HF's `nullable: true` (OpenAPI style) is not JSON Schema; spell it as a type union for ajv. */
function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    out[k] = k === "enum" || k === "default" || k === "const" ? v : forAjv(v);
  if (out.nullable === true && out.type !== undefined) {
    const t = Array.isArray(out.type) ? out.type : [out.type];
    out.type = t.includes("null") ? t : [...t, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

function validatorFor(schema: JsonSchema): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(forAjv(schema) as object);
    compiled.set(schema, fn);
  }
  return fn;
}

/** Every violation, one line each, located by JSON pointer ("" is the argument object itself). */
export function validateArguments(args: unknown, schema: JsonSchema): string[] {
  let fn: ValidateFunction;
  try {
    fn = validatorFor(schema);
  } catch (err) {
    return [`the tool's own schema is invalid: ${(err as Error).message}`];
  }
  if (fn(args)) return [];
  return (fn.errors ?? []).map(describe);
}

function describe(e: ErrorObject): string {
  const where = e.instancePath || "/";
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return `${where}: missing required property "${String(p.missingProperty)}"`;
    case "additionalProperties":
      return `${where}: unexpected property "${String(p.additionalProperty)}"`;
    case "enum":
      return `${where}: must be one of ${JSON.stringify(p.allowedValues)}`;
    case "type":
      return `${where}: must be ${String(p.type)}`;
    default:
      return `${where}: ${e.message ?? e.keyword}`;
  }
}
