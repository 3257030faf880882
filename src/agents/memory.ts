import type { Message } from "../chat/messages.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Where conversations live, keyed by memory id (LangChain4j's ChatMemoryStore). Implementations replace the
 * whole list on update so a store never holds half a window.
 */
export interface ChatMemoryStore {
  getMessages(memoryId: string): Message[] | Promise<Message[]>;
  updateMessages(memoryId: string, messages: Message[]): void | Promise<void>;
  deleteMessages(memoryId: string): void | Promise<void>;
}

/** The default store: a Map, with copies in and out so callers cannot alias stored messages. */
export class InMemoryChatMemoryStore implements ChatMemoryStore {
  private readonly conversations = new Map<string, Message[]>();

  getMessages(memoryId: string): Message[] {
    return structuredClone(this.conversations.get(memoryId) ?? []);
  }

  updateMessages(memoryId: string, messages: Message[]): void {
    this.conversations.set(memoryId, structuredClone(messages));
  }

  deleteMessages(memoryId: string): void {
    this.conversations.delete(memoryId);
  }

  /** The ids with a stored conversation. */
  ids(): string[] {
    return [...this.conversations.keys()];
  }
}

/** Which window to keep: the last N messages, or as many recent messages as fit in a token budget. */
export interface MemoryOptions {
  store?: ChatMemoryStore;
  /** Message window (LangChain4j's MessageWindowChatMemory). Default 100 when maxTokens is not set. */
  maxMessages?: number;
  /** Token window (TokenWindowChatMemory), counted with `countTokens`. */
  maxTokens?: number;
  /** Token estimate of one message; default: about 4 characters a token plus a small per-message overhead. */
  countTokens?: (message: Message) => number;
}

export function estimateTokens(message: Message): number {
  const calls = message.tool_calls ? JSON.stringify(message.tool_calls).length : 0;
  return Math.ceil((message.content.length + calls) / 4) + 4;
}

/**
 * One conversation's window over a store. Every `add` writes through, so a process that stops mid-run keeps
 * everything said so far. Evicting an assistant tool-call message evicts its tool results too (a window
 * must never start with orphaned tool messages, which OpenAI-style servers reject).
 */
export class ChatMemory {
  private readonly store: ChatMemoryStore;
  private readonly maxMessages: number | undefined;
  private readonly maxTokens: number | undefined;
  private readonly countTokens: (message: Message) => number;

  constructor(
    readonly id: string,
    options: MemoryOptions = {},
  ) {
    this.store = options.store ?? new InMemoryChatMemoryStore();
    if (
      options.maxMessages !== undefined &&
      !(Number.isInteger(options.maxMessages) && options.maxMessages > 0)
    ) {
      throw new ToolgenError(
        "invalid_option",
        `maxMessages must be a positive integer, got ${options.maxMessages}`,
      );
    }
    if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens > 0)) {
      throw new ToolgenError(
        "invalid_option",
        `maxTokens must be a positive integer, got ${options.maxTokens}`,
      );
    }
    this.maxTokens = options.maxTokens;
    this.maxMessages = options.maxMessages ?? (options.maxTokens === undefined ? 100 : undefined);
    this.countTokens = options.countTokens ?? estimateTokens;
  }

  /** The stored window, repaired: tool calls left without results (a crash mid-call) get an error result. */
  async messages(): Promise<Message[]> {
    return repairDanglingCalls(await this.store.getMessages(this.id));
  }

  async add(...added: Message[]): Promise<void> {
    // The raw list: repairs are applied on read only, so a call whose results are about to be added is not
    // mistaken for an interrupted one.
    const all = [...(await this.store.getMessages(this.id)), ...added];
    await this.store.updateMessages(this.id, this.evict(all));
  }

  async clear(): Promise<void> {
    await this.store.deleteMessages(this.id);
  }

  private evict(messages: Message[]): Message[] {
    const kept = [...messages];
    const tooMany = (): boolean =>
      (this.maxMessages !== undefined && kept.length > this.maxMessages) ||
      (this.maxTokens !== undefined && kept.reduce((n, m) => n + this.countTokens(m), 0) > this.maxTokens);
    // Keep at least the newest message even if it alone is over the token budget.
    while (kept.length > 1 && tooMany()) {
      kept.shift();
      while (kept.length > 1 && kept[0]!.role === "tool") kept.shift();
    }
    return kept;
  }
}

export const INTERRUPTED_TOOL_RESULT = "Error: this tool call was interrupted before it returned a result.";

function repairDanglingCalls(messages: Message[]): Message[] {
  const answered = new Set(messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id));
  const repaired: Message[] = [];
  for (const message of messages) {
    repaired.push(message);
    if (message.role !== "assistant" || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      if (answered.has(call.id)) continue;
      repaired.push({
        role: "tool",
        tool_call_id: call.id,
        name: call.function.name,
        content: INTERRUPTED_TOOL_RESULT,
      });
    }
  }
  return repaired;
}
