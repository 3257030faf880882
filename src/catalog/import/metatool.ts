import { basename } from "node:path";
import { CatalogError, type CatalogEntry, type LabelledQuery } from "../catalog.ts";
import { csvRecords } from "./csv.ts";

/** MetaTool `tools.json`: a name → description map. Each tool is one entry with its name as id. */
export function importMetaToolTools(data: unknown, file: string): CatalogEntry[] {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new CatalogError({ file }, "MetaTool tools.json must be an object mapping tool name → description");
  }
  return Object.entries(data).map(([name, description]) => {
    if (typeof description !== "string") {
      throw new CatalogError({ file, record: name }, "the description must be a string");
    }
    return {
      id: name,
      tool: name,
      api: "",
      description,
      parameters: { type: "object", properties: {}, required: [] },
      doc: { name, description },
    };
  });
}

/** True when every value of the object is a string (MetaTool's tools.json shape). */
export function looksLikeMetaToolTools(data: unknown): boolean {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return false;
  const values = Object.values(data);
  return values.length > 0 && values.every((v) => typeof v === "string");
}

/** MetaTool `queries.csv` (`Query,Tool`): one relevant tool per query. */
export function importMetaToolQueries(text: string, file: string): LabelledQuery[] {
  const { header, records } = csvRecords(text);
  for (const column of ["Query", "Tool"]) {
    if (!header.includes(column)) {
      throw new CatalogError({ file, field: column }, `missing CSV column (header is ${header.join(",")})`);
    }
  }
  const source = basename(file);
  return records.map((r, i) => {
    if (r.Query.trim() === "") throw new CatalogError({ file, record: i + 1, field: "Query" }, "empty query");
    if (r.Tool.trim() === "") throw new CatalogError({ file, record: i + 1, field: "Tool" }, "empty tool");
    return { query: r.Query, relevant: [r.Tool.trim()], source, id: String(i + 1) };
  });
}

/** MetaTool `multi_tool_queries.json`: `[{query, tool: [names]}]`. */
export function importMetaToolMultiQueries(data: unknown, file: string): LabelledQuery[] {
  if (!Array.isArray(data)) throw new CatalogError({ file }, "expected a list of {query, tool}");
  const source = basename(file);
  return data.map((item: unknown, i) => {
    const { query, tool } = (item ?? {}) as Record<string, unknown>;
    if (typeof query !== "string")
      throw new CatalogError({ file, record: i, field: "query" }, "expected a string");
    const tools = Array.isArray(tool) ? tool : [tool];
    if (!tools.every((t) => typeof t === "string")) {
      throw new CatalogError({ file, record: i, field: "tool" }, "expected a tool name or a list of names");
    }
    return { query, relevant: tools as string[], source, id: String(i) };
  });
}
