import type { JsonSchema, ToolJson } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The schema of one tool call written as a JSON object, `{"name": <a tool's name>, <argumentsKey>: <its
 * arguments>}`: one alternative per tool, so the arguments follow the schema of the tool named. Llama 3.1's
 * JSON tool calls use "parameters" (the default); other formats say "arguments".
 */
export function toolCallSchema(tools: readonly ToolJson[], argumentsKey = "parameters"): JsonSchema {
  if (tools.length === 0)
    throw new ToolgenError("invalid_option", "a tool-call schema needs at least one tool");
  return {
    anyOf: tools.map((t) => ({
      type: "object",
      properties: { name: { const: t.function.name }, [argumentsKey]: t.function.parameters },
      required: ["name", argumentsKey],
    })),
  };
}
