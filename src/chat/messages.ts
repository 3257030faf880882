import type { ToolCall } from "../tools/types.ts";

/** The message contract (docs/ARCHITECTURE.md): tool_calls carry object arguments; the wire form lives in the HTTP adapter. */
export type Role = "system" | "user" | "assistant" | "tool";

export interface Message {
  role: Role;
  content: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
}
