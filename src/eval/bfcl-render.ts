import type { ToolCallFormat } from "../chat/parse/index.ts";
import type { BfclCall } from "./bfcl-checker.ts";

/**
 * Writes calls as a model would reply in each tool-call format, so that the oracle can run them back through the
 * chat layer's parsers: Hermes/Qwen `<tool_call>` JSON, Llama 3.1 JSON, Mistral `[TOOL_CALLS]`, ReAct text and
 * ToolGen's `<<name>>{arguments}`. No calls → a plain-text answer.
 */
export function renderReply(format: ToolCallFormat, calls: readonly BfclCall[]): string {
  if (calls.length === 0) return "None of the available functions can answer this request.";
  const args = (c: BfclCall): string => JSON.stringify(c.arguments);
  switch (format) {
    case "hermes":
      return calls
        .map((c) => `<tool_call>\n{"name": ${JSON.stringify(c.name)}, "arguments": ${args(c)}}\n</tool_call>`)
        .join("\n");
    case "llama3-json":
      return calls.map((c) => `{"name": ${JSON.stringify(c.name)}, "parameters": ${args(c)}}`).join("; ");
    case "mistral":
      return `[TOOL_CALLS] ${JSON.stringify(
        calls.map((c, i) => ({
          name: c.name,
          arguments: c.arguments,
          id: `call${String(i).padStart(5, "0")}`,
        })),
      )}`;
    case "react":
      return calls
        .map((c, i) => `Thought: step ${i + 1} needs ${c.name}.\nAction: ${c.name}\nAction Input: ${args(c)}`)
        .join("\n");
    case "toolgen":
      return calls.map((c) => `<<${c.name}>>${args(c)}`).join("\n");
  }
}
