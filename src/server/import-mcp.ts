import {
  MCP_CATALOG_FORMAT,
  type McpCatalogDocument,
  type McpServerSpec,
  type McpToolListing,
} from "../catalog/import/mcp.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { UpstreamServer, type UpstreamOptions } from "./upstream.ts";
import { ToolgenError } from "../errors.ts";

/** Connects to an MCP server, lists all its tools (every page) and returns the catalog document to save. */
export async function importMcpServer(
  spec: McpServerSpec,
  options: UpstreamOptions = {},
): Promise<McpCatalogDocument> {
  const upstream = new UpstreamServer(spec, options);
  try {
    const { tools, serverInfo } = await upstream.listTools();
    if (tools.length === 0) throw new ToolgenError("upstream_failure", `${upstream.label} lists no tools`);
    return {
      format: MCP_CATALOG_FORMAT,
      server: spec,
      ...(serverInfo === undefined ? {} : { serverInfo: { ...serverInfo } }),
      importedAt: new Date().toISOString(),
      tools: tools as unknown as McpToolListing[],
    };
  } finally {
    await upstream.close();
  }
}

/** Writes the document atomically (temp file + rename), so a failed import never leaves half a catalog. */
export function writeMcpCatalog(file: string, document: McpCatalogDocument): void {
  writeFileAtomic(file, JSON.stringify(document, null, 2) + "\n");
}
