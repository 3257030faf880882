import type { CatalogEntry } from "../catalog/catalog.ts";
import { parameterList } from "../toolgen/tool-document.ts";

/**
 * Python's `json.dumps` layout (", " and ": " separators), which ToolGen's eval documents embed. Non-ASCII
 * characters are kept as they are rather than escaped, so that they stay searchable words.
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "NaN";
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const parts = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`,
    );
    return `{${parts.join(", ")}}`;
  }
  return JSON.stringify(String(value));
}

function rawField(entry: CatalogEntry, field: string): unknown {
  const doc = entry.doc;
  return typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)[field] : undefined;
}

/** Parameters in ToolBench's list form, from the raw record when it has one, else from the JSON Schema. */
function paramList(entry: CatalogEntry, required: boolean): unknown {
  const raw = rawField(entry, required ? "required_parameters" : "optional_parameters");
  return raw !== undefined ? raw : parameterList(entry, required ? "required" : "optional", "retrieval");
}

/**
 * ToolGen's BM25/eval document: `category, tool, api, api_description, required_params: <json>,
 * optional_params: <json>, return_schema: <json>`, the layout of the documents ToolGen's published evaluation
 * indexes (test/retrieval/bm25.test.ts shows one).
 */
export function toolgenDocument(entry: CatalogEntry): string {
  const returnSchema = rawField(entry, "template_response");
  return (
    `${entry.category ?? ""}, ${entry.tool}, ${entry.api}, ${entry.description}` +
    `, required_params: ${pythonJson(paramList(entry, true))}` +
    `, optional_params: ${pythonJson(paramList(entry, false))}` +
    `, return_schema: ${pythonJson(returnSchema ?? "")}`
  );
}

export type DocumentFormat =
  "toolgen" | "description" | "name-description" | ((entry: CatalogEntry) => string);
export const DOCUMENT_FORMATS = ["toolgen", "description", "name-description"] as const;

/** The text a retriever indexes for one entry. */
export function documentText(entry: CatalogEntry, format: DocumentFormat = "toolgen"): string {
  if (typeof format === "function") return format(entry);
  if (format === "description") return entry.description;
  if (format === "name-description") return `${entry.tool} ${entry.api} ${entry.description}`;
  return toolgenDocument(entry);
}
