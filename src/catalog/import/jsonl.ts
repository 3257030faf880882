import { basename } from "node:path";
import type { ToolJson } from "../../tools/types.ts";
import { CatalogError, type CatalogEntry, type LabelledQuery } from "../catalog.ts";

/** Our own query format, one JSON object a line: `{"query": "...", "relevant": ["id", ...], "id"?}`. */
export function importJsonlQueries(text: string, file: string): LabelledQuery[] {
  const source = basename(file);
  const out: LabelledQuery[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new CatalogError(
        { file, record: `line ${i + 1}` },
        `not valid JSON (${(error as Error).message})`,
      );
    }
    const where = { file, record: `line ${i + 1}` };
    if (typeof record.query !== "string")
      throw new CatalogError({ ...where, field: "query" }, "expected a string");
    if (!Array.isArray(record.relevant) || !record.relevant.every((r) => typeof r === "string")) {
      throw new CatalogError({ ...where, field: "relevant" }, "expected a list of catalog ids");
    }
    out.push({
      query: record.query,
      relevant: record.relevant as string[],
      source,
      id: typeof record.id === "string" ? record.id : String(i + 1),
    });
  });
  return out;
}

/** Writes labelled queries in our JSONL form. */
export function formatJsonlQueries(queries: readonly LabelledQuery[]): string {
  return (
    queries.map((q) => JSON.stringify({ query: q.query, relevant: q.relevant, id: q.id })).join("\n") + "\n"
  );
}

/**
 * The tool list of `data`: the list itself, or the `tools` list of an object holding one (what
 * `toolgen tools inspect --json` prints: `{file, tools: [...]}`).
 */
function toolListOf(data: unknown): unknown {
  if (Array.isArray(data) || typeof data !== "object" || data === null) return data;
  const tools = (data as Record<string, unknown>).tools;
  return Array.isArray(tools) ? tools : data;
}

/** True for a list of model-facing tools (`{type:"function", function:{...}}` or bare `{name, parameters}`). */
export function looksLikeToolList(data: unknown): boolean {
  const list = toolListOf(data);
  if (!Array.isArray(list) || list.length === 0) return false;
  const first = list[0] as Record<string, unknown>;
  return typeof first === "object" && first !== null && (first.type === "function" || "parameters" in first);
}

/** A list of HF/OpenAI tools → entries with the function name as id. */
export function importToolList(data: unknown, file: string): CatalogEntry[] {
  const list = toolListOf(data);
  if (!Array.isArray(list))
    throw new CatalogError({ file }, 'expected a list of tools (or {"tools": [...]})');
  return list.map((raw: unknown, i) => {
    const record = (raw ?? {}) as Record<string, unknown>;
    const fn = (record.type === "function" ? record.function : record) as
      Partial<ToolJson["function"]> | undefined;
    if (typeof fn?.name !== "string")
      throw new CatalogError({ file, record: i, field: "name" }, "tool without a name");
    const parameters = fn.parameters ?? { type: "object", properties: {}, required: [] };
    if (parameters.type !== "object") {
      throw new CatalogError({ file, record: fn.name, field: "parameters.type" }, 'must be "object"');
    }
    return {
      id: fn.name,
      tool: fn.name,
      api: "",
      description: fn.description ?? "",
      parameters: { ...parameters, properties: parameters.properties ?? {} },
      doc: raw,
    };
  });
}
