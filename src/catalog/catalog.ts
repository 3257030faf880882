import type { ObjectSchema } from "../tools/types.ts";

/**
 * One API of a catalog (DESIGN.md). ToolBench-style ids are `tool&&api`; a tool with no separate API name has
 * its name as id. The ToolGen token is `<<id>>`.
 */
export interface CatalogEntry {
  id: string;
  tool: string;
  api: string;
  category?: string;
  description: string;
  parameters: ObjectSchema;
  /** The raw source record, kept for documents and exports. */
  doc: unknown;
}

/** A labelled query: the ids of the relevant catalog entries, and where it came from (for per-file breakdowns). */
export interface LabelledQuery {
  query: string;
  relevant: string[];
  source?: string;
  id?: string;
}

export function catalogId(tool: string, api?: string): string {
  return api === undefined || api === "" ? tool : `${tool}&&${api}`;
}

export function toolToken(id: string): string {
  return `<<${id}>>`;
}

export const FINISH_TOKEN = "<<Finish>>";
