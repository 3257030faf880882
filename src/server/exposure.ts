import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { isMcpEntryDoc } from "../catalog/import/mcp.ts";
import { isOpenApiOperationDoc } from "./openapi-executor.ts";
import { exposedNames, type NameRequest, type NamingOptions } from "./naming.ts";
import { ToolgenError } from "../errors.ts";

/**
 * What `tools/list` shows: `search` (the router's search_tools / call_tool / get_tool, for catalogs of any size),
 * `all` (every callable tool under its exposed name, as other gateways do) or `auto` (all while their
 * definitions fit the token budget, search above it).
 */
export type ExposeMode = "search" | "all" | "auto";
export const EXPOSE_MODES: readonly ExposeMode[] = ["search", "all", "auto"];
/** Default token budget of `auto`: what listing every tool may cost a client's context. */
export const DEFAULT_TOOL_TOKEN_BUDGET = 10_000;

/** One callable entry under the name a client sees. */
export interface ExposedTool {
  /** The exposed name (unique, within the spec's rules). */
  name: string;
  entryId: string;
  /** The definition as listed: an upstream's own listing (schemas, annotations, icons, _meta) renamed. */
  definition: McpTool;
  /** For an upstream tool: its server's name and the tool's own name there. */
  upstream?: { server: string; tool: string };
}

/** The namespace and own name of an entry: its upstream server, its OpenAPI document, or none (a local tool). */
function nameRequest(entry: CatalogEntry): NameRequest {
  if (isMcpEntryDoc(entry.doc)) return { namespace: entry.doc.mcp.name, name: entry.doc.tool.name };
  if (isOpenApiOperationDoc(entry.doc)) return { namespace: entry.tool, name: entry.api || entry.id };
  return { name: entry.id };
}

/** Every entry that can be called (`callable`), under a unique exposed name, in catalog order. */
export function exposeTools(
  entries: readonly CatalogEntry[],
  callable: (id: string) => boolean,
  naming: NamingOptions,
): ExposedTool[] {
  const served = entries.filter((e) => callable(e.id));
  const names = exposedNames(served.map(nameRequest), naming);
  return served.map((entry, i) => {
    const name = names[i]!;
    if (isMcpEntryDoc(entry.doc)) {
      return {
        name,
        entryId: entry.id,
        definition: { ...(entry.doc.tool as unknown as McpTool), name },
        upstream: { server: entry.doc.mcp.name, tool: entry.doc.tool.name },
      };
    }
    return {
      name,
      entryId: entry.id,
      definition: {
        name,
        description: entry.description,
        inputSchema: entry.parameters as McpTool["inputSchema"],
      },
    };
  });
}

/** A rough count of the tokens a list of definitions costs a client (4 characters a token, as JSON). */
export function estimateTokens(definitions: readonly McpTool[]): number {
  return Math.ceil(JSON.stringify(definitions).length / 4);
}

/** `search` or `all`, as `auto` resolves for this many definitions and this budget. */
export function resolveExposure(
  mode: ExposeMode,
  definitions: readonly McpTool[],
  budget = DEFAULT_TOOL_TOKEN_BUDGET,
): "search" | "all" {
  if (!EXPOSE_MODES.includes(mode))
    throw new ToolgenError(
      "invalid_option",
      `expose mode must be one of ${EXPOSE_MODES.join(", ")}, got "${mode}"`,
    );
  if (mode !== "auto") return mode;
  return definitions.length > 0 && estimateTokens(definitions) <= budget ? "all" : "search";
}
