import { basename } from "node:path";
import { CatalogError, catalogId, type CatalogEntry, type LabelledQuery } from "../catalog.ts";
import { toolbenchApiEntry } from "./toolbench.ts";

/** True for StableToolBench's `apis.json`: a list of flat API records. */
export function looksLikeStableToolBenchApis(data: unknown): boolean {
  if (!Array.isArray(data) || data.length === 0) return false;
  const first = data[0] as Record<string, unknown>;
  return typeof first === "object" && first !== null && "tool_name" in first && "api_name" in first;
}

/** True for a StableToolBench query file (`G1_instruction.json`, …): `[{query, api_list, relevant APIs}]`. */
export function looksLikeStableToolBenchQueries(data: unknown): boolean {
  if (!Array.isArray(data) || data.length === 0) return false;
  const first = data[0] as Record<string, unknown>;
  return typeof first === "object" && first !== null && "query" in first && "api_list" in first;
}

/** `apis.json` → catalog entries (ids `tool&&api`). */
export function importStableToolBenchApis(data: unknown, file: string): CatalogEntry[] {
  if (!Array.isArray(data)) throw new CatalogError({ file }, "expected a list of API records");
  return data.map((record, i) => toolbenchApiEntry(record, file, i));
}

function queryRecords(data: unknown, file: string): Record<string, unknown>[] {
  if (!Array.isArray(data)) throw new CatalogError({ file }, "expected a list of queries");
  return data.map((item, i) => {
    if (typeof item !== "object" || item === null)
      throw new CatalogError({ file, record: i }, "expected an object");
    return item as Record<string, unknown>;
  });
}

/** The catalog a query file implies: the union of its `api_list`s (first occurrence wins). */
export function importStableToolBenchQueryCatalog(data: unknown, file: string): CatalogEntry[] {
  const byId = new Map<string, CatalogEntry>();
  queryRecords(data, file).forEach((q, i) => {
    if (!Array.isArray(q.api_list))
      throw new CatalogError({ file, record: i, field: "api_list" }, "expected a list");
    q.api_list.forEach((api: unknown, j) => {
      const entry = toolbenchApiEntry(api, file, `${i}.api_list[${j}]`);
      if (!byId.has(entry.id)) byId.set(entry.id, entry);
    });
  });
  return [...byId.values()];
}

/** Query file → labelled queries; `relevant APIs` pairs `[tool, api]` become ids `tool&&api`. */
export function importStableToolBenchQueries(data: unknown, file: string): LabelledQuery[] {
  const source = basename(file);
  return queryRecords(data, file).map((q, i) => {
    const record = q.query_id ?? i;
    if (typeof q.query !== "string")
      throw new CatalogError({ file, record: String(record), field: "query" }, "expected a string");
    const pairs = q["relevant APIs"];
    if (!Array.isArray(pairs)) {
      throw new CatalogError(
        { file, record: String(record), field: "relevant APIs" },
        "expected a list of [tool, api]",
      );
    }
    const relevant = pairs.map((pair: unknown, j) => {
      if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((p) => typeof p === "string")) {
        throw new CatalogError(
          { file, record: String(record), field: `relevant APIs[${j}]` },
          `expected [tool_name, api_name], got ${JSON.stringify(pair)}`,
        );
      }
      return catalogId(pair[0] as string, pair[1] as string);
    });
    return { query: q.query, relevant, source, id: String(record) };
  });
}
