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

function parameterList(names: string[], properties: Record<string, JsonSchema>): unknown[] {
  return names.map((name) => {
    const schema = properties[name] ?? {};
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
  const properties = entry.parameters.properties ?? {};
  const required = entry.parameters.required ?? [];
  const optional = Object.keys(properties).filter((name) => !required.includes(name));
  if (required.length > 0)
    lines.push(`Required Parameters: ${JSON.stringify(parameterList(required, properties))}`);
  if (optional.length > 0)
    lines.push(`Optional Parameters: ${JSON.stringify(parameterList(optional, properties))}`);
  return lines.join("\n");
}
