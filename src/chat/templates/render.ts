import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Template } from "@huggingface/jinja";
import type { Message } from "../messages.ts";
import { isTool, isToolJson, toToolJson } from "../../tools/define.ts";
import type { Tool, ToolJson } from "../../tools/types.ts";
import {
  TEMPLATE_INFO,
  TEMPLATE_NAMES,
  isTemplateName,
  type TemplateInfo,
  type TemplateName,
} from "./registry.ts";
import { ToolgenError } from "../../errors.ts";

/** A template that could not be parsed or that refused the conversation (its `raise_exception`). */
export class ChatTemplateError extends ToolgenError {
  override name = "ChatTemplateError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("chat_template", message, options);
  }
}

export interface RenderOptions {
  /** HF/OpenAI tool JSON, or `tool()` objects (turned into that JSON: their functions cannot be cloned). */
  tools?: Array<ToolJson | Tool>;
  /** End with the header of an assistant turn, ready for the model to continue (HF's add_generation_prompt). */
  addGenerationPrompt?: boolean;
  /** Extra template variables (date_string, tools_in_user_message, builtin_tools, …). */
  context?: Record<string, unknown>;
}

export interface ChatTemplateOptions {
  bosToken?: string;
  eosToken?: string;
  /** Map call ids to 9 alphanumerics (Mistral). */
  callIds?: TemplateInfo["callIds"];
  /** Named in error messages. */
  name?: string;
}

/**
 * A compiled HF chat template. Build one from any `chat_template` string (a tokenizer_config.json's, say) or
 * load a shipped one with `loadChatTemplate`.
 */
export class ChatTemplate {
  readonly name: string;
  private readonly template: Template;
  private readonly options: ChatTemplateOptions;

  constructor(source: string, options: ChatTemplateOptions = {}) {
    this.name = options.name ?? "custom";
    this.options = options;
    try {
      this.template = new Template(source);
    } catch (error) {
      throw new ChatTemplateError(`chat template ${this.name} does not parse: ${(error as Error).message}`);
    }
  }

  render(messages: Message[], options: RenderOptions = {}): string {
    const ids = this.options.callIds === "alnum9" ? mistralIds(messages) : undefined;
    const variables: Record<string, unknown> = {
      bos_token: this.options.bosToken ?? "",
      eos_token: this.options.eosToken ?? "",
      ...options.context,
      messages: messages.map((message) => toTemplateMessage(message, ids)),
      add_generation_prompt: options.addGenerationPrompt ?? false,
    };
    // Leave `tools` undefined when there are none: templates test `tools is defined` / `tools is not none`.
    if (options.tools && options.tools.length > 0) variables.tools = options.tools.map(templateTool);
    try {
      return this.template.render(variables);
    } catch (error) {
      throw new ChatTemplateError(
        `chat template ${this.name} refused the conversation: ${(error as Error).message}`,
      );
    }
  }
}

/** A plain copy of one tool as the template sees it; a `tool()` object becomes its JSON form. */
function templateTool(tool: ToolJson | Tool, i: number): ToolJson {
  if (isToolJson(tool)) return structuredClone(tool);
  if (isTool(tool)) return structuredClone(toToolJson(tool));
  throw new ChatTemplateError(
    `tools[${i}] is neither a tool() object nor HF/OpenAI tool JSON ({type: "function", function: {name, …}})`,
  );
}

const cache = new Map<TemplateName, ChatTemplate>();

/** Loads one of the shipped templates (see TEMPLATE_NAMES and SOURCES.md). */
export function loadChatTemplate(name: TemplateName): ChatTemplate {
  if (!isTemplateName(name)) {
    throw new ChatTemplateError(
      `unknown chat template ${JSON.stringify(name)}; shipped: ${TEMPLATE_NAMES.join(", ")}`,
    );
  }
  let template = cache.get(name);
  if (!template) {
    const info = TEMPLATE_INFO[name];
    const source = readFileSync(fileURLToPath(new URL(info.file, import.meta.url)), "utf8");
    template = new ChatTemplate(source, {
      bosToken: info.bosToken,
      eosToken: info.eosToken,
      callIds: info.callIds,
      name,
    });
    cache.set(name, template);
  }
  return template;
}

/** Renders messages (and tools) with a shipped template or a compiled one. */
export function renderChat(
  template: TemplateName | ChatTemplate,
  messages: Message[],
  options: RenderOptions = {},
): string {
  const compiled = typeof template === "string" ? loadChatTemplate(template) : template;
  return compiled.render(messages, options);
}

/** The plain-object message a template sees: only the keys that are set (templates test `is defined`). */
function toTemplateMessage(message: Message, ids: Map<string, string> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.tool_calls && message.tool_calls.length > 0) {
    out.tool_calls = message.tool_calls.map((call) => ({
      id: ids?.get(call.id) ?? call.id,
      type: call.type,
      function: { name: call.function.name, arguments: structuredClone(call.function.arguments) },
    }));
  }
  if (message.tool_call_id !== undefined)
    out.tool_call_id = ids?.get(message.tool_call_id) ?? message.tool_call_id;
  if (message.name !== undefined) out.name = message.name;
  return out;
}

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Mistral wants `[a-zA-Z0-9]{9}` ids; others are mapped to a stable hash so calls and results still pair up. */
function mistralIds(messages: Message[]): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  const all = messages.flatMap((m) => [
    ...(m.tool_calls ?? []).map((c) => c.id),
    ...(m.tool_call_id ? [m.tool_call_id] : []),
  ]);
  for (const id of all) {
    if (ids.has(id)) continue;
    let mapped = /^[a-zA-Z0-9]{9}$/.test(id) ? id : alnum9(id);
    for (let salt = 1; used.has(mapped) && mapped !== id; salt++) mapped = alnum9(`${id}#${salt}`);
    ids.set(id, mapped);
    used.add(mapped);
  }
  return ids;
}

function alnum9(text: string): string {
  // FNV-1a, twice with different seeds, for 9 base-62 digits.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193) >>> 0;
    b = Math.imul(b ^ text.charCodeAt(i), 0x5bd1e995) >>> 0;
  }
  let out = "";
  for (let i = 0; i < 9; i++) {
    const source = i % 2 === 0 ? a : b;
    out += ALNUM[(source >>> (i * 3)) % 62];
  }
  return out;
}
