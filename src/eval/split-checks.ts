import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";

/**
 * Checks that keep an evaluation honest: a query scored on test that was also trained on (or selected on), a
 * label that names no catalog tool, a query with no relevant tool at all. Each is counted, so a command can
 * refuse with the numbers or report them beside the figures — never score them silently.
 */

/** The text two queries are compared by: case, spacing and surrounding punctuation do not make a new query. */
export function queryKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/^[\s"'.,!?]+|[\s"'.,!?]+$/g, "");
}

/** How many of `queries` have a text (by `queryKey`) that is also in `seen`. */
export function overlapCount(queries: readonly { query: string }[], seen: Iterable<string>): number {
  const keys = new Set([...seen].map(queryKey));
  return queries.filter((q) => keys.has(queryKey(q.query))).length;
}

export interface LabelProblems {
  /** Queries whose relevant list is empty (every metric would score them 0). */
  noRelevant: number;
  /** Queries naming at least one id that is not in the catalog, and the distinct ids. */
  unknownTool: number;
  unknownIds: string[];
}

export function labelProblems(
  queries: readonly LabelledQuery[],
  catalog: readonly Pick<CatalogEntry, "id">[],
): LabelProblems {
  const ids = new Set(catalog.map((e) => e.id));
  const unknown = new Set<string>();
  let unknownTool = 0;
  let noRelevant = 0;
  for (const q of queries) {
    if (q.relevant.length === 0) noRelevant++;
    const missing = q.relevant.filter((id) => !ids.has(id));
    if (missing.length > 0) unknownTool++;
    for (const id of missing) unknown.add(id);
  }
  return { noRelevant, unknownTool, unknownIds: [...unknown].sort() };
}

/** One line for an error message, or undefined when there is nothing to say. */
export function describeLabelProblems(p: LabelProblems, catalogSize: number): string | undefined {
  const parts: string[] = [];
  if (p.unknownTool > 0) {
    const shown = p.unknownIds.slice(0, 3).map((id) => `"${id}"`);
    parts.push(
      `${p.unknownTool} queries name ${p.unknownIds.length} tools not in the catalog of ${catalogSize} ` +
        `(${shown.join(", ")}${p.unknownIds.length > 3 ? ", …" : ""})`,
    );
  }
  if (p.noRelevant > 0) parts.push(`${p.noRelevant} queries have no relevant tool`);
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/**
 * The queries a trained ToolGen folder learned in its retrieval stage (`DIR/data/retrieval.jsonl`, written by
 * the training pipeline), or undefined when the folder does not keep them (a committed model, a served model).
 */
export function modelTrainingQueries(model: string | undefined): string[] | undefined {
  if (model === undefined) return undefined;
  const file = join(model.replace(/^builtin:/, ""), "data", "retrieval.jsonl");
  if (!existsSync(file)) return undefined;
  const out: string[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const sample = JSON.parse(line) as { messages?: Array<{ role: string; content: string }> };
    const user = sample.messages?.find((m) => m.role === "user");
    if (user) out.push(user.content);
  }
  return out;
}
