// An MCP server's tools as agent tools, straight from a running server (stdio command or Streamable HTTP URL),
// without importing a catalog first. Built on the router's UpstreamServer: started on demand, restarted after
// a crash, calls time-limited.
import type { CallToolResult, Implementation } from "@modelcontextprotocol/sdk/types.js";
import { checkToolName } from "../tools/define.ts";
import { toObjectSchema } from "../tools/schema.ts";
import type { JsonSchema, Tool } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";

/** Where the server is: a command run over stdio, or a Streamable HTTP URL. */
export type McpServerAddress =
  { command: string; args?: string[]; env?: Record<string, string>; cwd?: string } | { url: string };

export interface McpToolsOptions {
  /** Name of the server in error messages (default: the command or the URL's host). */
  name?: string;
  /** Prepended to every tool name (e.g. "github_"), to keep several servers' tools apart. */
  prefix?: string;
  /** Milliseconds for starting the server and the `initialize` handshake (default 20 000). */
  startTimeoutMs?: number;
  /** Milliseconds one call may take (default 30 000; 0 = no limit). */
  timeoutMs?: number;
  /** Where the child's stderr lines go (default: this process's stderr, prefixed with the server name). */
  onStderr?: (line: string) => void;
}

/** The server's tools, ready for an agent, and how to stop the server when done. */
export interface McpToolSet {
  tools: Tool[];
  /** What the server said it is in `initialize`. */
  serverInfo?: Implementation;
  /** Stops the server process (or ends the HTTP session). */
  close(): Promise<void>;
}

/**
 * Connects to an MCP server, lists its tools and returns them as toolgen tools. A call's result is the
 * server's `structuredContent` when it sends one, else its text content; a result marked `isError` becomes
 * a thrown error, so the agent shows the model the server's message as a tool error.
 */
export async function mcpTools(
  address: McpServerAddress,
  options: McpToolsOptions = {},
): Promise<McpToolSet> {
  const name = options.name ?? ("url" in address ? new URL(address.url).host : address.command);
  // The MCP client SDK loads with the first server, not with the toolgen entry point.
  const { UpstreamServer } = await import("../server/upstream.ts");
  const server = new UpstreamServer(
    { name, ...address },
    {
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
      ...(options.onStderr ? { onStderr: options.onStderr } : {}),
    },
  );
  try {
    const { tools, serverInfo } = await server.listTools();
    const prefix = options.prefix ?? "";
    const timeoutMs = options.timeoutMs ?? 30_000;
    const converted = tools.map((listing): Tool => {
      const toolName = checkToolName(`${prefix}${listing.name}`, `MCP tool on ${server.label}`);
      return {
        name: toolName,
        description: listing.description ?? listing.title ?? "",
        parameters: toObjectSchema(listing.inputSchema as JsonSchema, `${toolName} on ${server.label}`),
        execute: async (args, context) =>
          resultValue(await server.callTool(listing.name, args, { signal: context.signal, timeoutMs })),
      };
    });
    return { tools: converted, ...(serverInfo ? { serverInfo } : {}), close: () => server.close() };
  } catch (err) {
    await server.close();
    throw err;
  }
}

function resultValue(result: CallToolResult): unknown {
  const text = result.content
    .map((part) => (part.type === "text" ? part.text : JSON.stringify(part)))
    .join("\n");
  if (result.isError) throw new ToolgenError("upstream_failure", text || "the MCP tool reported an error");
  return result.structuredContent ?? text;
}
