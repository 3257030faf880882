/**
 * Renders chat messages into a prompt with the model's own Jinja chat template (tokenizer.chat_template of the
 * GGUF file; toolgen's ChatML when the file has none). Templates that know nothing of tools get the tool list
 * as a Hermes-style system block, and earlier tool calls written back as `<tool_call>` blocks, which is the
 * format this adapter makes the model write.
 */
import { Template } from "@huggingface/jinja";
import type { Message } from "../../chat/messages.ts";
import type { ToolJson } from "../../tools/types.ts";
import { CHATML_TEMPLATE } from "../../toolgen/chat-encoding.ts";
import { ToolgenError } from "../../errors.ts";

export const TOOL_CALL_OPEN = "<tool_call>";
export const TOOL_CALL_CLOSE = "</tool_call>";

export interface PromptTemplate {
  source: string;
  bosToken?: string;
  eosToken?: string;
}

function toolsSystemBlock(tools: ToolJson[]): string {
  return (
    "You may call one or more functions to assist with the user query.\n\n" +
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
    tools.map((t) => JSON.stringify(t)).join("\n") +
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments within " +
    '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
  );
}

export function toolCallText(name: string, args: unknown): string {
  return `${TOOL_CALL_OPEN}\n${JSON.stringify({ name, arguments: args })}\n${TOOL_CALL_CLOSE}`;
}

/** Messages rewritten for a template that only reads role and content. */
function plainMessages(
  messages: Message[],
  tools: ToolJson[] | undefined,
): { role: string; content: string }[] {
  const out = messages.map((m) => {
    if (m.role === "assistant" && m.tool_calls?.length) {
      const calls = m.tool_calls.map((c) => toolCallText(c.function.name, c.function.arguments)).join("\n");
      return { role: m.role, content: m.content ? `${m.content}\n${calls}` : calls };
    }
    return { role: m.role, content: m.content };
  });
  if (tools && tools.length > 0) {
    const block = toolsSystemBlock(tools);
    if (out[0]?.role === "system") out[0] = { role: "system", content: `${out[0].content}\n\n${block}` };
    else out.unshift({ role: "system", content: block });
  }
  return out;
}

export function renderPrompt(
  template: PromptTemplate | undefined,
  messages: Message[],
  tools: ToolJson[] | undefined,
): string {
  const source = template?.source ?? CHATML_TEMPLATE;
  const knowsTools = /\btools\b/.test(source) && /tool_calls/.test(source);
  let compiled: Template;
  try {
    compiled = new Template(source);
  } catch (e) {
    throw new ToolgenError("parse", `the model's chat template does not parse: ${(e as Error).message}`, { cause: e });
  }
  return compiled.render({
    messages: knowsTools ? messages : plainMessages(messages, tools),
    tools: knowsTools && tools?.length ? tools : undefined,
    add_generation_prompt: true,
    bos_token: template?.bosToken ?? "",
    eos_token: template?.eosToken ?? "",
  });
}
