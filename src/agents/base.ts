import type { RunOutcome, RunRecorder } from "./loop.ts";
import { startRun } from "./loop.ts";
import { ChatMemory, InMemoryChatMemoryStore, type MemoryOptions } from "./memory.ts";
import type { Agent, AgentRun, AgentRunHandle, ChatOptions } from "./types.ts";

/**
 * What every agent shares: one memory store for all memory ids (in memory unless given), and the run handle
 * with its events. Each agent writes only its own loop.
 */
export abstract class MemoryAgent implements Agent {
  abstract readonly kind: Agent["kind"];
  protected readonly memoryOptions: MemoryOptions;

  constructor(memory: MemoryOptions | undefined) {
    this.memoryOptions = { ...memory, store: memory?.store ?? new InMemoryChatMemoryStore() };
  }

  /** The conversation stored under a memory id (to read or clear it). */
  memory(memoryId: string): ChatMemory {
    return new ChatMemory(memoryId, this.memoryOptions);
  }

  chat(memoryId: string, text: string, options: ChatOptions = {}): Promise<AgentRun> {
    return this.run(memoryId, text, options).result;
  }

  run(memoryId: string, text: string, options: ChatOptions = {}): AgentRunHandle {
    return startRun(memoryId, options, (recorder) => this.loop(memoryId, text, options, recorder));
  }

  protected abstract loop(
    memoryId: string,
    text: string,
    chat: ChatOptions,
    recorder: RunRecorder,
  ): Promise<RunOutcome>;
}
