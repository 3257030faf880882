import type { CatalogEntry } from "../catalog/catalog.ts";
import type { JsonSchema } from "../tools/types.ts";

/** The tool-level description when the raw record carries one (ToolBench tool JSON does; apis.json does not). */
function toolDescription(entry: CatalogEntry): string | undefined {
  const doc = entry.doc;
  if (typeof doc !== "object" || doc === null) return undefined;
  const record = doc as Record<string, unknown>;
  for (const key of ["tool_description", "toolDescription"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

/** Which of a tool's parameters: those in `required`, or the others. */
export type ParameterGroup = "required" | "optional";

/**
 * A tool's parameters as ToolBench lists them (`[{"name", "type", "description", …}]`): the one rendering the
 * memorisation document (`toolDocument`) and ToolGen's retrieval document (`retrieval/documents.ts`) share. The
 * two layouts differ in details that trained models and published eval documents depend on, so both are here:
 * - "memorization": required parameters in the order of `required` (a name without a schema is a string),
 *   optional ones in property order; `description` and `default` only when set;
 * - "retrieval": both groups in property order; every item is `{name, type, description}`, a missing type is
 *   "any" and a missing description "".
 */
export function parameterList(
  entry: CatalogEntry,
  group: ParameterGroup,
  layout: "memorization" | "retrieval",
): Array<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = entry.parameters.properties ?? {};
  const required = entry.parameters.required ?? [];
  const names =
    group === "required" && layout === "memorization"
      ? required
      : Object.keys(properties).filter((name) => required.includes(name) === (group === "required"));
  return names.map((name) => {
    const schema = properties[name] ?? {};
    if (layout === "retrieval")
      return { name, type: schema.type ?? "any", description: schema.description ?? "" };
    const item: Record<string, unknown> = { name, type: schema.type ?? "string" };
    if (schema.description) item.description = schema.description;
    if (schema.default !== undefined) item.default = schema.default;
    return item;
  });
}

/**
 * The document a tool is memorised from (ToolGen Fig. 7): "Tool Name: … Tool Description: … API Name: … API
 * Description: …" plus the required and optional parameters. A tool without a separate API name (MetaTool,
 * plain functions) has only the tool lines.
 */
export function toolDocument(entry: CatalogEntry): string {
  const lines: string[] = [`Tool Name: ${entry.tool}`];
  const hasApi = entry.api !== "" && entry.api !== entry.tool;
  const toolDesc = toolDescription(entry) ?? (hasApi ? undefined : entry.description);
  if (entry.category) lines.unshift(`Category: ${entry.category}`);
  if (toolDesc) lines.push(`Tool Description: ${toolDesc}`);
  if (hasApi) {
    lines.push(`API Name: ${entry.api}`);
    if (entry.description) lines.push(`API Description: ${entry.description}`);
  }
  const required = parameterList(entry, "required", "memorization");
  const optional = parameterList(entry, "optional", "memorization");
  if (required.length > 0) lines.push(`Required Parameters: ${JSON.stringify(required)}`);
  if (optional.length > 0) lines.push(`Optional Parameters: ${JSON.stringify(optional)}`);
  return lines.join("\n");
}
