import type { CatalogEntry } from "../catalog/catalog.ts";
import type { JsonSchema } from "../tools/types.ts";

/**
 * The fields a tool's document is cut into for field-aware matching (BM25F, the ranker's features). Every field
 * comes from the schema alone, so a tool that no query ever named has the same fields as one that many did.
 */
export const TOOL_FIELDS = ["name", "tool", "description", "params", "paramText", "response"] as const;
export type ToolField = (typeof TOOL_FIELDS)[number];
export type ToolFieldTexts = Record<ToolField, string>;

function raw(entry: CatalogEntry, key: string): unknown {
  const doc = entry.doc;
  return typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)[key] : undefined;
}

/** Keys of a nested response template (ToolBench's `template_response`), depth-limited: the words it returns. */
function responseKeys(value: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 3 || typeof value !== "object" || value === null) return out;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 3)) responseKeys(item, depth + 1, out);
    return out;
  }
  for (const [key, inner] of Object.entries(value)) {
    out.push(key);
    responseKeys(inner, depth + 1, out);
  }
  return out;
}

/** Parameter descriptions, enum values and string defaults (schema words a user may say: "in celsius"). */
function parameterText(schema: JsonSchema | undefined, depth = 0, out: string[] = []): string[] {
  if (schema === undefined || depth > 3) return out;
  for (const [, prop] of Object.entries(schema.properties ?? {})) {
    if (prop.description) out.push(prop.description);
    for (const value of prop.enum ?? []) if (typeof value === "string") out.push(value);
    const fallback = (prop as { default?: unknown }).default;
    if (typeof fallback === "string" && fallback.length <= 40) out.push(fallback);
    parameterText(prop, depth + 1, out);
    const items = Array.isArray(prop.items) ? prop.items[0] : prop.items;
    parameterText(items, depth + 1, out);
  }
  return out;
}

/**
 * The fields of one entry. `name` is the API's own name (the tool's name when it has none, as in MetaTool);
 * `tool` the tool and category names; `params` the parameter names; `paramText` their descriptions, enums and
 * short defaults; `response` the keys of the response template. The tokenizer splits camelCase, snake_case and
 * separators, so `getWeatherByCity` is matched as "get weather by city" (the schema's own expansion).
 */
export function toolFields(entry: CatalogEntry): ToolFieldTexts {
  const name = entry.api !== "" ? entry.api : entry.tool;
  const tool = [entry.api !== "" ? entry.tool : "", entry.category ?? ""].join(" ");
  const properties = entry.parameters?.properties ?? {};
  return {
    name,
    tool,
    description: entry.description,
    params: Object.keys(properties).join(" "),
    paramText: parameterText(entry.parameters).join(" "),
    response: responseKeys(raw(entry, "template_response")).join(" "),
  };
}
