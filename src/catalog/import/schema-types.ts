import type { JsonSchema, ObjectSchema } from "../../tools/types.ts";
import { CatalogError, type CatalogErrorLocation } from "../catalog.ts";

/** BFCL's type names (Python, Java and JavaScript flavours) → JSON Schema type ("" = any value). */
const BFCL_TYPES: Record<string, string> = {
  dict: "object",
  HashMap: "object",
  Hashtable: "object",
  Map: "object",
  object: "object",
  float: "number",
  double: "number",
  number: "number",
  integer: "integer",
  int: "integer",
  long: "integer",
  short: "integer",
  byte: "integer",
  Bigint: "integer",
  string: "string",
  String: "string",
  char: "string",
  boolean: "boolean",
  Boolean: "boolean",
  array: "array",
  tuple: "array",
  list: "array",
  Array: "array",
  ArrayList: "array",
  Set: "array",
  Queue: "array",
  Stack: "array",
  any: "",
  "": "",
};

/** The JSON Schema type a BFCL type name stands for ("" = any), or undefined when the name is unknown. */
export function bfclJsonType(bfclType: string): string | undefined {
  return Object.hasOwn(BFCL_TYPES, bfclType) ? BFCL_TYPES[bfclType] : undefined;
}

const KEPT_KEYWORDS = [
  "description",
  "enum",
  "default",
  "format",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
];

/**
 * Converts one BFCL parameter description to JSON Schema: dict → object, float → number, tuple → array,
 * any → {}, Java/JavaScript names likewise; `optional: true` is dropped (absence from `required` says it).
 */
export function bfclToJsonSchema(node: unknown, where: CatalogErrorLocation): JsonSchema {
  if (typeof node !== "object" || node === null || Array.isArray(node)) {
    throw new CatalogError(where, `expected a parameter description object, got ${JSON.stringify(node)}`);
  }
  const source = node as Record<string, unknown>;
  const typeName = source.type ?? "any";
  if (typeof typeName !== "string") {
    throw new CatalogError(
      { ...where, field: `${where.field ?? "parameters"}.type` },
      "type must be a string",
    );
  }
  const jsonType = bfclJsonType(typeName);
  if (jsonType === undefined) {
    throw new CatalogError(
      { ...where, field: `${where.field ?? "parameters"}.type` },
      `unknown BFCL type "${typeName}" (accepted: ${Object.keys(BFCL_TYPES).filter(Boolean).join(", ")})`,
    );
  }
  const out: JsonSchema = jsonType === "" ? {} : { type: jsonType };
  if (typeName === "Set") out.uniqueItems = true;
  for (const key of KEPT_KEYWORDS) if (source[key] !== undefined) out[key] = source[key];
  const field = where.field ?? "parameters";
  if (jsonType === "object" && source.properties !== undefined) {
    if (typeof source.properties !== "object" || source.properties === null) {
      throw new CatalogError({ ...where, field: `${field}.properties` }, "properties must be an object");
    }
    const properties: Record<string, JsonSchema> = {};
    for (const [name, child] of Object.entries(source.properties)) {
      properties[name] = bfclToJsonSchema(child, { ...where, field: `${field}.properties.${name}` });
    }
    out.properties = properties;
    if (Array.isArray(source.required)) out.required = source.required.map(String);
  }
  if (jsonType === "array" && source.items !== undefined) {
    out.items = bfclToJsonSchema(source.items, { ...where, field: `${field}.items` });
  }
  return out;
}

/** The top-level `parameters` of a BFCL function doc as the object schema of a tool. */
export function bfclParametersToSchema(node: unknown, where: CatalogErrorLocation): ObjectSchema {
  const schema = bfclToJsonSchema(node ?? { type: "dict", properties: {} }, {
    ...where,
    field: "parameters",
  });
  if (schema.type !== "object") {
    throw new CatalogError({ ...where, field: "parameters.type" }, "top-level parameters must be a dict");
  }
  return { ...schema, type: "object", properties: schema.properties ?? {}, required: schema.required ?? [] };
}

/** ToolBench/RapidAPI parameter type names → JSON Schema. */
function toolbenchType(typeName: string): JsonSchema {
  const upper = typeName.toUpperCase();
  if (upper === "NUMBER" || upper === "INTEGER" || upper === "FLOAT") return { type: "number" };
  if (upper === "BOOLEAN") return { type: "boolean" };
  if (upper === "ARRAY") return { type: "array" };
  if (upper === "OBJECT") return { type: "object" };
  if (upper.startsWith("DATE")) return { type: "string", format: "date" };
  if (upper.startsWith("TIME")) return { type: "string", format: "time" };
  // STRING, ENUM (values are not listed by RapidAPI), BINARY, GEOPOINT and anything new: text.
  return { type: "string" };
}

/** ToolBench `required_parameters` + `optional_parameters` lists → the tool's object schema. */
export function toolbenchParametersToSchema(
  required: unknown,
  optional: unknown,
  where: CatalogErrorLocation,
): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  const requiredNames: string[] = [];
  const add = (list: unknown, field: string, isRequired: boolean): void => {
    if (list === undefined || list === null) return;
    if (!Array.isArray(list)) throw new CatalogError({ ...where, field }, "expected a list of parameters");
    list.forEach((param: unknown, i) => {
      const at = { ...where, field: `${field}[${i}]` };
      if (typeof param !== "object" || param === null)
        throw new CatalogError(at, "expected a parameter object");
      const { name, type, description, default: def } = param as Record<string, unknown>;
      if (typeof name !== "string" || name === "") {
        throw new CatalogError({ ...at, field: `${at.field}.name` }, "missing parameter name");
      }
      const schema = toolbenchType(typeof type === "string" ? type : "STRING");
      if (typeof description === "string" && description !== "") schema.description = description;
      if (def !== undefined && def !== null && def !== "") schema.default = def;
      properties[name] = schema;
      if (isRequired) requiredNames.push(name);
    });
  };
  add(required, "required_parameters", true);
  add(optional, "optional_parameters", false);
  return { type: "object", properties, required: requiredNames };
}
