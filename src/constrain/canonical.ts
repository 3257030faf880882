import type { JsonSchema } from "../tools/types.ts";
import { normaliseSchema, type SchemaNode } from "./schema-node.ts";
import { isPlainObject } from "../plain-object.ts";

/**
 * `value` with its object keys in the order the schema constraint writes them (required properties, then
 * optional ones, each in schema order; keys the schema does not list last), nested objects and arrays too.
 * `JSON.stringify` of the result is then a text the constraint can produce, which is what training targets
 * for a constrained model should look like.
 */
export function orderLikeSchema(value: unknown, schema: JsonSchema): unknown {
  return order(value, normaliseSchema(schema));
}

function order(value: unknown, node: SchemaNode): unknown {
  if (node.kind === "ref") return order(value, node.target());
  if (node.kind === "union") {
    // the first alternative whose listed keys the value has (objects), else the value unchanged
    for (const o of node.options) {
      const target = o.kind === "ref" ? o.target() : o;
      if (
        target.kind === "object" &&
        isPlainObject(value) &&
        target.properties.every((p) => !p.required || p.key in value)
      )
        return order(value, target);
    }
    return value;
  }
  if (Array.isArray(value)) return node.kind === "array" ? value.map((v) => order(v, node.items)) : value;
  if (!isPlainObject(value)) return value;
  if (node.kind === "map")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, order(v, node.values)]));
  if (node.kind !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const p of node.properties) if (p.key in value) out[p.key] = order(value[p.key], p.value);
  for (const [k, v] of Object.entries(value)) if (!(k in out)) out[k] = v;
  return out;
}
