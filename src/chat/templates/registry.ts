import type { ToolCallFormat } from "../parse/types.ts";

/**
 * The chat templates shipped as `.jinja` files next to this module (where each came from: SOURCES.md), with
 * what a caller needs around them: special tokens, the tool-call format the model answers in (which parser
 * reads its output) and the strings that end its turn.
 */
export const TEMPLATE_NAMES = ["hermes", "qwen2.5", "llama3.1", "mistral", "llama3"] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export interface TemplateInfo {
  name: TemplateName;
  /** File name in src/chat/templates/. */
  file: string;
  /** The model family, for humans. */
  family: string;
  bosToken: string;
  eosToken: string;
  /** How the model writes tool calls, i.e. which parser reads its replies. */
  toolCallFormat: ToolCallFormat;
  /** Strings that end an assistant turn (stop sequences for generation). */
  stop: string[];
  /** Mistral's template accepts only 9-character alphanumeric call ids; others are mapped to such ids. */
  callIds: "any" | "alnum9";
}

export const TEMPLATE_INFO: Record<TemplateName, TemplateInfo> = {
  hermes: {
    name: "hermes",
    file: "hermes.jinja",
    family: "NousResearch Hermes-2-Pro / Hermes-3 (tool_use template)",
    bosToken: "<|begin_of_text|>",
    eosToken: "<|im_end|>",
    toolCallFormat: "hermes",
    stop: ["<|im_end|>"],
    callIds: "any",
  },
  "qwen2.5": {
    name: "qwen2.5",
    file: "qwen2.5.jinja",
    family: "Qwen2.5 Instruct",
    bosToken: "",
    eosToken: "<|im_end|>",
    toolCallFormat: "hermes",
    stop: ["<|im_end|>", "<|endoftext|>"],
    callIds: "any",
  },
  "llama3.1": {
    name: "llama3.1",
    file: "llama3.1.jinja",
    family: "Llama 3.1 / 3.2 Instruct (JSON tool calls)",
    bosToken: "<|begin_of_text|>",
    eosToken: "<|eot_id|>",
    toolCallFormat: "llama3-json",
    stop: ["<|eot_id|>", "<|eom_id|>"],
    callIds: "any",
  },
  mistral: {
    name: "mistral",
    file: "mistral.jinja",
    family: "Mistral-7B-Instruct-v0.3 ([TOOL_CALLS])",
    bosToken: "<s>",
    eosToken: "</s>",
    toolCallFormat: "mistral",
    stop: ["</s>"],
    callIds: "alnum9",
  },
  llama3: {
    name: "llama3",
    file: "llama3.jinja",
    family: "Meta-Llama-3 Instruct, plain chat (the format ToolGen trains on)",
    bosToken: "<|begin_of_text|>",
    eosToken: "<|eot_id|>",
    toolCallFormat: "toolgen",
    stop: ["<|eot_id|>"],
    callIds: "any",
  },
};

export function isTemplateName(value: string): value is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(value);
}
