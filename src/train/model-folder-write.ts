import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../io/atomic.ts";
import { CHATML_TEMPLATE, CHAT_FORMATS, type ChatFormat } from "../toolgen/chat-encoding.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import { INDEX_FILE, OFFSETS_FILE, TOKENIZER_CONFIG_FILE } from "../toolgen/model-folder.ts";

/**
 * Writing the extra files of a trained ToolGen folder (their names and reading: `src/toolgen/model-folder.ts`).
 * The Llama-3 chat template is the chat layer's file (`src/chat/templates/llama3.jinja`), so writing sits here,
 * above chat, and reading stays in the core below it.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + "\n");
}

function chatTemplate(format: ChatFormat): string {
  if (format === "chatml") return CHATML_TEMPLATE;
  return readFileSync(fileURLToPath(new URL("../chat/templates/llama3.jinja", import.meta.url)), "utf8");
}

export function writeToolGenExtras(dir: string, index: ToolIndex, format: ChatFormat): void {
  const spec = CHAT_FORMATS[format];
  writeJsonAtomic(join(dir, INDEX_FILE), index);
  writeJsonAtomic(join(dir, TOKENIZER_CONFIG_FILE), {
    chat_template: chatTemplate(format),
    ...(spec.bos ? { bos_token: spec.bos } : {}),
    eos_token: spec.end,
    pad_token: spec.pad,
  });
}

/** The folder's logit offsets by tool id (read by `readToolOffsets`); nothing is written for none. */
export function writeToolOffsets(dir: string, offsets: Readonly<Record<string, number>>): void {
  if (Object.keys(offsets).length === 0) return;
  writeJsonAtomic(join(dir, OFFSETS_FILE), { format: "toolgen-offsets/1", offsets });
}
