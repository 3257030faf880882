import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { CatalogError, catalogId, type CatalogEntry } from "../catalog.ts";
import { toolbenchParametersToSchema } from "./schema-types.ts";

function text(record: Record<string, unknown>, field: string, file: string, index: number | string): string {
  const value = record[field];
  if (typeof value !== "string") {
    throw new CatalogError({ file, record: index, field }, `expected a string, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * One API in StableToolBench's flat form (`category_name, tool_name, api_name, api_description,
 * required_parameters, optional_parameters, method, template_response`) → a catalog entry `tool&&api`.
 */
export function toolbenchApiEntry(raw: unknown, file: string, index: number | string): CatalogEntry {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new CatalogError({ file, record: index }, "expected an API object");
  }
  const record = raw as Record<string, unknown>;
  const tool = text(record, "tool_name", file, index);
  const api = text(record, "api_name", file, index);
  const description = typeof record.api_description === "string" ? record.api_description : "";
  const category = typeof record.category_name === "string" ? record.category_name : undefined;
  const where = { file, record: `${index} (${catalogId(tool, api)})` };
  return {
    id: catalogId(tool, api),
    tool,
    api,
    ...(category === undefined ? {} : { category }),
    description,
    parameters: toolbenchParametersToSchema(record.required_parameters, record.optional_parameters, where),
    doc: record,
  };
}

/** True for a ToolBench tool file: `{tool_name, api_list: [{name, ...}]}`. */
export function looksLikeToolbenchTool(data: unknown): boolean {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return false;
  const record = data as Record<string, unknown>;
  return typeof record.tool_name === "string" && Array.isArray(record.api_list);
}

/**
 * A ToolBench tool JSON (`tool_name`, `tool_description`, `api_list: [{name, description, method,
 * required_parameters, optional_parameters, ...}]`) → its APIs, flattened to StableToolBench's form.
 */
export function importToolbenchTool(data: unknown, file: string, category?: string): CatalogEntry[] {
  if (!looksLikeToolbenchTool(data)) {
    throw new CatalogError({ file, field: "api_list" }, "not a ToolBench tool file ({tool_name, api_list})");
  }
  const tool = data as Record<string, unknown>;
  return (tool.api_list as unknown[]).map((api, i) => {
    if (typeof api !== "object" || api === null)
      throw new CatalogError({ file, record: i }, "expected an API");
    const a = api as Record<string, unknown>;
    const flat = {
      category_name: category ?? (typeof tool.category === "string" ? tool.category : undefined),
      tool_name: tool.tool_name,
      api_name: a.name,
      api_description: a.description ?? "",
      required_parameters: a.required_parameters ?? [],
      optional_parameters: a.optional_parameters ?? [],
      method: a.method,
      ...(a.schema === undefined ? {} : { template_response: a.schema }),
      tool_description: tool.tool_description,
    };
    return toolbenchApiEntry(flat, file, `api_list[${i}]`);
  });
}

/** A folder of ToolBench tools: `category/tool.json` (or tool files directly in the folder). */
export function importToolbenchFolder(dir: string): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  const readTool = (path: string, category?: string): void => {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new CatalogError({ file: path }, `not valid JSON (${(error as Error).message})`);
    }
    if (looksLikeToolbenchTool(data)) entries.push(...importToolbenchTool(data, path, category));
  };
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      for (const file of readdirSync(path).sort()) {
        if (file.endsWith(".json")) readTool(join(path, file), basename(path));
      }
    } else if (name.endsWith(".json")) readTool(path);
  }
  if (entries.length === 0) {
    throw new CatalogError({ file: dir }, "no ToolBench tool files (category/tool.json with api_list) found");
  }
  return entries;
}
