import type { Message } from "../chat/messages.ts";
import type { Stage, StageSample } from "./datasets.ts";
import { ToolgenError } from "../errors.ts";

/**
 * ToolGen's stage samples in each training engine's data format. The loss must fall on assistant turns only:
 * - LLaMA-Factory, `sharegpt`: `{"conversations": [{"from": "human"|"gpt"|"observation", "value"}], "system"}`;
 *   humans and observations at odd positions, gpt at even ones; every gpt turn is trained, prompts are not
 *   (its defaults `train_on_prompt: false`, `mask_history: false`).
 * - axolotl, `type: chat_template`: OpenAI-style `{"messages": [{"role", "content"}]}` with
 *   `roles_to_train: ["assistant"]`.
 * - TRL `SFTTrainer`: conversational prompt-completion `{"prompt": [messages], "completion": [assistant]}`,
 *   whose loss is on the completion only; a multi-turn sample becomes one record per assistant turn (each turn
 *   is predicted from its full history, the same terms as the multi-turn loss).
 */
export const EXPORT_FORMATS = ["llamafactory", "axolotl", "trl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

export interface ShareGptTurn {
  from: "human" | "gpt" | "observation";
  value: string;
}

export interface ShareGptRecord {
  conversations: ShareGptTurn[];
  system?: string;
}

const SHAREGPT_ROLE = { user: "human", assistant: "gpt", tool: "observation" } as const;

/** A stage sample as a LLaMA-Factory sharegpt record; rejects a conversation that breaks the alternation. */
export function toShareGpt(sample: StageSample, where: string): ShareGptRecord {
  const [first, ...rest] = sample.messages;
  const system = first?.role === "system" ? first.content : undefined;
  const turns = (system === undefined ? sample.messages : rest).map((m: Message, i): ShareGptTurn => {
    if (m.role === "system")
      throw new ToolgenError("invalid_input", `${where}: a system message may only come first`);
    const from = SHAREGPT_ROLE[m.role];
    const promptSide = from !== "gpt";
    if (promptSide !== (i % 2 === 0)) {
      throw new ToolgenError(
        "invalid_input",
        `${where}: turn ${i + 1} is "${m.role}", but sharegpt needs user/tool turns at odd positions and assistant turns at even ones`,
      );
    }
    return { from, value: m.content };
  });
  if (turns.length === 0 || turns.at(-1)!.from !== "gpt")
    throw new ToolgenError(
      "invalid_input",
      `${where}: a training conversation must end with an assistant turn`,
    );
  return system === undefined ? { conversations: turns } : { conversations: turns, system };
}

/** The dataset_info.json entry LLaMA-Factory needs to read a sharegpt file with our tag names. */
export function llamaFactoryDatasetInfo(file: string): Record<string, unknown> {
  return {
    file_name: file,
    formatting: "sharegpt",
    columns: { messages: "conversations", system: "system" },
    tags: {
      role_tag: "from",
      content_tag: "value",
      user_tag: "human",
      assistant_tag: "gpt",
      observation_tag: "observation",
      system_tag: "system",
    },
  };
}

export interface ChatMessagesRecord {
  messages: { role: Message["role"]; content: string }[];
}

export function toChatMessages(sample: StageSample): ChatMessagesRecord {
  return { messages: sample.messages.map((m) => ({ role: m.role, content: m.content })) };
}

export interface PromptCompletionRecord {
  prompt: { role: Message["role"]; content: string }[];
  completion: { role: "assistant"; content: string }[];
}

/** One prompt-completion record per assistant turn of the sample. */
export function toPromptCompletion(sample: StageSample): PromptCompletionRecord[] {
  const plain = toChatMessages(sample).messages;
  const out: PromptCompletionRecord[] = [];
  plain.forEach((m, i) => {
    if (m.role === "assistant" && i > 0)
      out.push({ prompt: plain.slice(0, i), completion: [{ role: "assistant", content: m.content }] });
  });
  return out;
}

/** The file a stage's data goes to, per format. */
export function stageFile(format: ExportFormat, stage: Stage): string {
  return format === "llamafactory" ? `${stage}.json` : `${stage}.jsonl`;
}
