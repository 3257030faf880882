import type { Tool, ToolCall, ToolContext, ToolResult } from "../tools/types.ts";

/**
 * The one place agents run a tool. TEMPORARY minimal body until the tools room's executeToolCall lands;
 * then this delegates to it (validation, coercion, timeouts live there, not here).
 */
export async function invokeTool(call: ToolCall, tools: Tool[], context: ToolContext): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.function.name);
  if (!tool) {
    return { ok: false, error: { code: "unknown_tool", message: `unknown tool ${call.function.name}` } };
  }
  if (!tool.execute) {
    return { ok: false, error: { code: "no_executor", message: `tool ${tool.name} has no implementation` } };
  }
  try {
    const value = await tool.execute(call.function.arguments, context);
    const content =
      typeof value === "string" ? value : value === undefined ? "success" : JSON.stringify(value);
    return { ok: true, content };
  } catch (error) {
    return {
      ok: false,
      error: { code: "tool_error", message: error instanceof Error ? error.message : String(error) },
    };
  }
}
