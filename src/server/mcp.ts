import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema } from "../tools/types.ts";
import { validateArguments } from "../tools/validate.ts";
import type { CallRelay } from "./relay.ts";
import { errorResult, RouterError, type ToolRouter } from "./router.ts";

export const ROUTER_INSTRUCTIONS =
  "This server fronts a large tool catalog. When its tool list holds search_tools, call search_tools with what " +
  "you need to do; it returns matching tool ids with their input schemas. Then call call_tool with an id and " +
  "arguments that follow that schema; get_tool returns an entry's full document. Otherwise call the listed " +
  "tools directly.";

const definitions = new Map<number, McpTool[]>();

/** The three tools a client sees, whatever the size of the catalog behind them (built once per maxK). */
export function routerToolDefinitions(maxK = 50): McpTool[] {
  let tools = definitions.get(maxK);
  if (!tools) definitions.set(maxK, (tools = buildDefinitions(maxK)));
  return tools;
}

function buildDefinitions(maxK: number): McpTool[] {
  return [
    {
      name: "search_tools",
      description:
        "Search the tool catalog. Returns the best matching tools, each with its id, description and input " +
        "JSON Schema; pass an id to call_tool.",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", minLength: 1, description: "What you want to do, in plain words" },
          k: {
            type: "integer",
            minimum: 1,
            maximum: maxK,
            default: 5,
            description: "How many tools to return",
          },
        },
        required: ["query"],
      },
      outputSchema: {
        type: "object",
        properties: {
          results: {
            type: "array",
            items: {
              type: "object",
              properties: {
                id: { type: "string" },
                description: { type: "string" },
                inputSchema: { type: "object" },
              },
              required: ["id", "description", "inputSchema"],
            },
          },
        },
        required: ["results"],
      },
      annotations: { readOnlyHint: true },
    },
    {
      name: "call_tool",
      description:
        "Call a catalog tool by id (from search_tools). The arguments are checked against its input schema first.",
      inputSchema: {
        type: "object",
        properties: {
          id: { type: "string", minLength: 1, description: "A tool id from search_tools" },
          arguments: { type: "object", description: "Arguments following the tool's input schema" },
        },
        required: ["id"],
      },
    },
    {
      name: "get_tool",
      description: "The full document of one catalog tool: schema, source record and how it is executed.",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string", minLength: 1, description: "A tool id from search_tools" } },
        required: ["id"],
      },
      annotations: { readOnlyHint: true },
    },
  ];
}

function json(value: unknown): CallToolResult {
  const structured = value as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: structured };
}

/** Answers one call to the router's own tools; errors become `isError` results, never protocol failures. */
export async function handleRouterCall(
  router: ToolRouter,
  name: string,
  args: Record<string, unknown> | undefined,
  signal?: AbortSignal,
  relay?: CallRelay,
): Promise<CallToolResult> {
  const definition = routerToolDefinitions(router.maxK).find((t) => t.name === name);
  if (!definition)
    return errorResult(`unknown tool "${name}" (this server has search_tools, call_tool, get_tool)`);
  const input = { ...(args ?? {}) };
  // Some clients send nested arguments as a JSON string; accept that when it holds an object.
  if (name === "call_tool" && typeof input.arguments === "string") {
    try {
      const parsed: unknown = JSON.parse(input.arguments);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) input.arguments = parsed;
    } catch {
      // left as a string: the schema check below names it
    }
  }
  const violations = validateArguments(input, definition.inputSchema as JsonSchema);
  if (violations.length > 0)
    return errorResult(`invalid arguments for ${name}:\n${violations.map((v) => `- ${v}`).join("\n")}`);
  try {
    switch (name) {
      case "search_tools":
        return json({
          results: await router.search(input.query as string, (input.k as number | undefined) ?? 5),
        });
      case "get_tool":
        return json(router.describe(input.id as string));
      default:
        return await router.call(input.id as string, input.arguments ?? {}, signal, relay);
    }
  } catch (error) {
    if (error instanceof RouterError) return errorResult(error.message);
    return errorResult(`${name} failed: ${(error as Error).message}`);
  }
}
