import { readFileSync, statSync } from "node:fs";
import { CatalogError, indexCatalog, type CatalogEntry, type LabelledQuery } from "./catalog.ts";
import { importBfcl, looksLikeBfcl } from "./import/bfcl.ts";
import { importJsonlQueries, importToolList, looksLikeToolList } from "./import/jsonl.ts";
import { importMcpCatalog, looksLikeMcpCatalog } from "./import/mcp.ts";
import {
  importMetaToolMultiQueries,
  importMetaToolQueries,
  importMetaToolTools,
  looksLikeMetaToolTools,
} from "./import/metatool.ts";
import { importOpenApi, looksLikeOpenApi } from "./import/openapi.ts";
import {
  importStableToolBenchApis,
  importStableToolBenchQueries,
  importStableToolBenchQueryCatalog,
  looksLikeStableToolBenchApis,
  looksLikeStableToolBenchQueries,
} from "./import/stabletoolbench.ts";
import { importToolbenchFolder, importToolbenchTool, looksLikeToolbenchTool } from "./import/toolbench.ts";

export const CATALOG_FORMATS = [
  "stabletoolbench",
  "stabletoolbench-queries",
  "toolbench",
  "metatool",
  "bfcl",
  "openapi",
  "tools",
  "mcp",
] as const;
export type CatalogFormat = (typeof CATALOG_FORMATS)[number];

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new CatalogError(
      { file },
      `cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

function parseJson(file: string, text = readText(file)): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CatalogError({ file }, `not valid JSON (${(error as Error).message})`);
  }
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    throw new CatalogError({ file }, "no such file or folder");
  }
}

/** Recognises a catalog's format from the file itself (content first, name only for BFCL's JSON-lines files). */
export function detectCatalogFormat(file: string): CatalogFormat {
  if (isDirectory(file)) return looksLikeBfcl(file) ? "bfcl" : "toolbench";
  if (looksLikeBfcl(file)) return "bfcl";
  if (file.endsWith(".csv")) {
    throw new CatalogError(
      { file },
      "a CSV file is a MetaTool query file; the MetaTool catalog is tools.json",
    );
  }
  const text = readText(file);
  // an empty list has no format to recognise: say what is wrong with it, not that its format is unknown
  if (text.trim() === "") throw new CatalogError({ file }, "the catalog is empty (the file has no content)");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const first = text.split("\n").find((l) => l.trim() !== "");
    if (first !== undefined && /"function"\s*:/.test(first)) return "bfcl";
    throw new CatalogError({ file }, "not valid JSON and not a BFCL JSON-lines file");
  }
  if (Array.isArray(data) && data.length === 0)
    throw new CatalogError({ file }, "the catalog is empty ([]): it lists no tools");
  if (looksLikeStableToolBenchQueries(data)) return "stabletoolbench-queries";
  if (looksLikeStableToolBenchApis(data)) return "stabletoolbench";
  if (looksLikeToolbenchTool(data)) return "toolbench";
  if (looksLikeOpenApi(data)) return "openapi";
  if (looksLikeMcpCatalog(data)) return "mcp";
  if (looksLikeToolList(data)) return "tools";
  if (looksLikeMetaToolTools(data)) return "metatool";
  throw new CatalogError(
    { file },
    `unrecognised catalog format (accepted: ${CATALOG_FORMATS.join(", ")}; use --format to force one)`,
  );
}

export interface LoadCatalogOptions {
  /** Force a format instead of recognising it from the file. */
  format?: CatalogFormat;
}

/** Loads a catalog in any supported format; ids are unique (a repeated id is an error naming the record). */
export function loadCatalog(file: string, options: LoadCatalogOptions = {}): CatalogEntry[] {
  if (options.format !== undefined && !CATALOG_FORMATS.includes(options.format)) {
    throw new CatalogError(
      { file },
      `unknown format "${options.format}" (accepted: ${CATALOG_FORMATS.join(", ")})`,
    );
  }
  const format = options.format ?? detectCatalogFormat(file);
  let entries: CatalogEntry[];
  switch (format) {
    case "bfcl":
      entries = importBfcl(file);
      break;
    case "toolbench":
      entries = isDirectory(file) ? importToolbenchFolder(file) : importToolbenchTool(parseJson(file), file);
      break;
    case "stabletoolbench":
      entries = importStableToolBenchApis(parseJson(file), file);
      break;
    case "stabletoolbench-queries":
      entries = importStableToolBenchQueryCatalog(parseJson(file), file);
      break;
    case "metatool":
      entries = importMetaToolTools(parseJson(file), file);
      break;
    case "openapi":
      entries = importOpenApi(parseJson(file), file);
      break;
    case "tools":
      entries = importToolList(parseJson(file), file);
      break;
    case "mcp":
      entries = importMcpCatalog(parseJson(file), file);
      break;
  }
  indexCatalog(entries, file);
  return entries;
}

/** Recognised query file kinds. */
export type QueryFormat = "stabletoolbench" | "metatool-csv" | "metatool-multi" | "jsonl";

export function detectQueryFormat(file: string): QueryFormat {
  if (isDirectory(file)) throw new CatalogError({ file }, "expected a query file, got a folder");
  if (file.endsWith(".csv")) return "metatool-csv";
  const text = readText(file);
  // an empty list has no format to recognise: say what is wrong with it, not that its format is unknown
  if (text.trim() === "") throw new CatalogError({ file }, "the catalog is empty (the file has no content)");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return "jsonl";
  }
  if (looksLikeStableToolBenchQueries(data)) return "stabletoolbench";
  if (Array.isArray(data) && typeof data[0] === "object" && data[0] !== null && "tool" in data[0]) {
    return "metatool-multi";
  }
  if (typeof data === "object" && data !== null && !Array.isArray(data) && "query" in data) return "jsonl";
  throw new CatalogError(
    { file },
    "unrecognised query file (accepted: StableToolBench G*_*.json, MetaTool queries.csv or multi_tool_queries.json, " +
      'JSONL {"query","relevant":[ids]})',
  );
}

/**
 * Loads labelled queries (StableToolBench query files, MetaTool `queries.csv` / `multi_tool_queries.json`, our JSONL)
 * with `source` set to the file name. With a catalog, every relevant id must exist in it.
 */
export function loadQueries(file: string, catalog?: readonly CatalogEntry[]): LabelledQuery[] {
  const format = detectQueryFormat(file);
  let queries: LabelledQuery[];
  if (format === "metatool-csv") queries = importMetaToolQueries(readText(file), file);
  else if (format === "jsonl") queries = importJsonlQueries(readText(file), file);
  else if (format === "metatool-multi") queries = importMetaToolMultiQueries(parseJson(file), file);
  else queries = importStableToolBenchQueries(parseJson(file), file);
  if (catalog !== undefined) {
    const ids = new Set(catalog.map((e) => e.id));
    for (const q of queries) {
      const missing = q.relevant.find((id) => !ids.has(id));
      if (missing !== undefined) {
        throw new CatalogError(
          { file, record: q.id ?? q.query, field: "relevant" },
          `relevant id "${missing}" is not in the catalog (${ids.size} entries)`,
        );
      }
    }
  }
  return queries;
}
