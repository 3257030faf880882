import { executeToolCall, type ExecuteOptions } from "../tools/execute.ts";
import type { Tool, ToolCall, ToolContext, ToolResult } from "../tools/types.ts";

/**
 * The one place agents run a tool: the executor of src/tools/execute.ts (validation, coercion, timeouts, never throws).
 * Kept as a seam so every agent calls tools the same way.
 */
export function invokeTool(
  call: ToolCall,
  tools: readonly Tool[],
  context: ToolContext,
  options?: ExecuteOptions,
): Promise<ToolResult> {
  return executeToolCall(call, tools, context, options);
}
