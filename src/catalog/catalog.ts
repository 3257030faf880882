import type { ObjectSchema } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";

/**
 * One API of a catalog. ToolBench-style ids are `tool&&api`; a tool with no separate API name has
 * its name as id. The ToolGen token is `<<id>>` (`toolToken`, src/toolgen/tokens.ts).
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

/** Where bad catalog or query input was found: the file, the record (index or name) and the field. */
export interface CatalogErrorLocation {
  file: string;
  record?: string | number;
  field?: string;
}

/** Unreadable or inconsistent catalog/query input; the message names the file, the record and the field. */
export class CatalogError extends ToolgenError {
  readonly file: string;
  readonly record?: string | number;
  readonly field?: string;
  constructor(location: CatalogErrorLocation, problem: string) {
    const where = [
      location.file,
      location.record === undefined ? undefined : `record ${JSON.stringify(location.record)}`,
      location.field === undefined ? undefined : `field "${location.field}"`,
    ]
      .filter((part) => part !== undefined)
      .join(", ");
    super("invalid_catalog", `${where}: ${problem}`);
    this.name = "CatalogError";
    this.file = location.file;
    this.record = location.record;
    this.field = location.field;
  }
}

/** Entries by id; a repeated id is an error (ids are what retrieval and ToolGen tokens refer to). */
export function indexCatalog(
  entries: readonly CatalogEntry[],
  file = "<catalog>",
): Map<string, CatalogEntry> {
  const byId = new Map<string, CatalogEntry>();
  entries.forEach((entry, i) => {
    if (byId.has(entry.id))
      throw new CatalogError({ file, record: i, field: "id" }, `duplicate id ${entry.id}`);
    byId.set(entry.id, entry);
  });
  return byId;
}
