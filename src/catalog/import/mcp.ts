import type { JsonSchema, ObjectSchema } from "../../tools/types.ts";
import { CatalogError, catalogId, type CatalogEntry } from "../catalog.ts";

/** The `format` marker of a catalog written by `toolgen catalog import mcp`. */
export const MCP_CATALOG_FORMAT = "toolgen-mcp-catalog/1";

/** How to reach an upstream MCP server: a command over stdio, or a Streamable HTTP URL. */
export interface McpServerSpec {
  /** Namespace of the server's tools: ids are `name&&tool`. */
  name: string;
  command?: string;
  args?: string[];
  /** Extra environment for the child (on top of the SDK's safe default environment). */
  env?: Record<string, string>;
  /** Working folder of the child (absolute; recorded at import so relative paths keep working). */
  cwd?: string;
  url?: string;
}

/** One tool as an MCP server lists it (`tools/list`). */
export interface McpToolListing {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: Record<string, unknown>;
}

/** The file `catalog import mcp` writes: the server to reach and the tools it listed. */
export interface McpCatalogDocument {
  format: typeof MCP_CATALOG_FORMAT;
  server: McpServerSpec;
  serverInfo?: Record<string, unknown>;
  importedAt?: string;
  tools: McpToolListing[];
}

/** What a catalog entry imported from an MCP server keeps in `doc`: the server and the original listing. */
export interface McpEntryDoc {
  mcp: McpServerSpec;
  tool: McpToolListing;
}

export function looksLikeMcpCatalog(data: unknown): boolean {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as Record<string, unknown>).format === MCP_CATALOG_FORMAT
  );
}

/** True when an entry's `doc` says which upstream MCP server runs it. */
export function isMcpEntryDoc(doc: unknown): doc is McpEntryDoc {
  if (typeof doc !== "object" || doc === null) return false;
  const spec = (doc as Record<string, unknown>).mcp as Record<string, unknown> | undefined;
  const tool = (doc as Record<string, unknown>).tool as Record<string, unknown> | undefined;
  return (
    typeof spec?.name === "string" &&
    (typeof spec.command === "string" || typeof spec.url === "string") &&
    typeof tool?.name === "string"
  );
}

function checkServer(server: unknown, file: string): McpServerSpec {
  const s = server as Record<string, unknown> | undefined;
  if (typeof s !== "object" || s === null)
    throw new CatalogError({ file, field: "server" }, "expected an object");
  if (typeof s.name !== "string" || s.name === "" || s.name.includes("&&"))
    throw new CatalogError({ file, field: "server.name" }, 'expected a non-empty name without "&&"');
  if (typeof s.command !== "string" && typeof s.url !== "string")
    throw new CatalogError({ file, field: "server" }, "needs a command (stdio) or a url (Streamable HTTP)");
  if (s.args !== undefined && (!Array.isArray(s.args) || !s.args.every((a) => typeof a === "string")))
    throw new CatalogError({ file, field: "server.args" }, "expected a list of strings");
  return s as unknown as McpServerSpec;
}

/** An MCP catalog document → entries `server&&tool`, each remembering its server for the router's proxy. */
export function importMcpCatalog(data: unknown, file: string): CatalogEntry[] {
  if (!looksLikeMcpCatalog(data))
    throw new CatalogError({ file, field: "format" }, `expected "${MCP_CATALOG_FORMAT}"`);
  const document = data as Record<string, unknown>;
  const server = checkServer(document.server, file);
  if (!Array.isArray(document.tools)) throw new CatalogError({ file, field: "tools" }, "expected a list");
  return document.tools.map((raw: unknown, i) => {
    const tool = raw as Record<string, unknown> | null;
    if (typeof tool?.name !== "string" || tool.name === "")
      throw new CatalogError({ file, record: i, field: "name" }, "tool without a name");
    const input = (tool.inputSchema ?? { type: "object" }) as JsonSchema;
    if (input.type !== "object")
      throw new CatalogError({ file, record: tool.name, field: "inputSchema.type" }, 'must be "object"');
    const parameters: ObjectSchema = { ...input, type: "object", properties: input.properties ?? {} };
    const description = [tool.title, tool.description].filter((s) => typeof s === "string" && s !== "");
    return {
      id: catalogId(server.name, tool.name),
      tool: server.name,
      api: tool.name,
      description: description.join(": "),
      parameters,
      doc: { mcp: server, tool: tool as unknown as McpToolListing } satisfies McpEntryDoc,
    };
  });
}
