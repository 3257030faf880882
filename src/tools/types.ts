/** Core tool contracts shared by every layer (docs/ARCHITECTURE.md, "Contracts between the layers"). */

/** A JSON Schema object as used for tool parameters (a pragmatic subset, open for extra keywords). */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  enum?: unknown[];
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
}

/** The parameters schema of a function tool: always an object schema. */
export interface ObjectSchema extends JsonSchema {
  type: "object";
  properties: Record<string, JsonSchema>;
  required?: string[];
}

/** Exactly HF/OpenAI's model-facing tool form. */
export interface ToolJson {
  type: "function";
  function: { name: string; description: string; parameters: ObjectSchema };
}

/** What the caller passes along to a tool: memory id (LangChain4j's @ToolMemoryId), abort signal, extras. */
export interface ToolContext {
  memoryId?: string;
  signal?: AbortSignal;
  [key: string]: unknown;
}

export type ToolExecute = (args: Record<string, unknown>, context: ToolContext) => unknown;

/** A tool: its model-facing description plus, optionally, the code that runs it. */
export interface Tool {
  name: string;
  description: string;
  parameters: ObjectSchema;
  execute?: ToolExecute;
}

/** A call the model asked for. Arguments are an object (HF convention), never a JSON string. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: Record<string, unknown> };
}

export type ToolErrorCode =
  | "unknown_tool"
  | "invalid_arguments"
  | "forbidden_key"
  | "arguments_too_large"
  | "timeout"
  | "aborted"
  | "tool_error"
  | "unserializable_result"
  | "no_executor";

export interface Coercion {
  pointer: string;
  from: unknown;
  to: unknown;
}

/** The outcome of executing a tool call; executeToolCall never throws, it returns one of these. */
export type ToolResult =
  | { ok: true; content: string; coercions?: Coercion[] }
  | { ok: false; error: { code: ToolErrorCode; message: string } };
