import type { Message } from "../chat/messages.ts";
import type { ChatModel, ToolChoice } from "../models/model.ts";
import { toToolJson } from "../tools/define.ts";
import type { Tool, ToolCall, ToolContext, ToolResult } from "../tools/types.ts";
import { invokeTool } from "./invoke.ts";
import { callModel, ErrorStreak, positiveInteger, RepeatGuard } from "./loop.ts";
import type { RunOutcome, RunRecorder } from "./loop.ts";
import type { MemoryOptions } from "./memory.ts";
import { MemoryAgent } from "./base.ts";
import { Toolbox, type ToolboxOptions } from "./toolbox.ts";
import type { ChatOptions } from "./types.ts";

/** Builds the corrective tool message for a call to a tool that does not exist (LangChain4j's strategy hook). */
export type HallucinatedToolStrategy = (call: ToolCall, validNames: string[]) => string;

export const defaultHallucinatedToolStrategy: HallucinatedToolStrategy = (call, names) =>
  `Error: there is no tool named ${JSON.stringify(call.function.name)}. ` +
  `Call one of these tools instead: ${names.join(", ")}.`;

export interface FunctionAgentOptions extends ToolboxOptions {
  model: ChatModel;
  memory?: MemoryOptions;
  systemPrompt?: string | ((memoryId: string) => string);
  /** Model calls per `chat` (AI SDK's maxSteps); default 10. */
  maxSteps?: number;
  /** Tool-calling rounds in a row before the run stops (LangChain4j); default 10. */
  maxSequentialToolInvocations?: number;
  /** The same call (name and arguments) this many times in one run is a dead loop; default 3. */
  maxRepeats?: number;
  /** Rounds in a row in which every call failed before the run stops; default 3. */
  maxConsecutiveErrors?: number;
  hallucinatedToolName?: HallucinatedToolStrategy;
  /** Tools whose result is the answer: when a round calls only these, no second model pass is made. */
  directReturn?: string[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxTokens?: number;
  /** Extra fields every tool receives in its context (next to memoryId and signal). */
  context?: Record<string, unknown>;
}

/** The tool-loop service: model → tool calls → executor → tool messages → model, until a final answer. */
export class FunctionAgent extends MemoryAgent {
  readonly kind = "functions";
  private readonly toolbox: Toolbox;
  private readonly maxSteps: number;
  private readonly maxRounds: number;
  private readonly maxRepeats: number;
  private readonly maxErrors: number;
  private readonly onHallucination: HallucinatedToolStrategy;

  constructor(private readonly options: FunctionAgentOptions) {
    super(options.memory);
    this.toolbox = new Toolbox(options);
    this.maxSteps = positiveInteger("maxSteps", options.maxSteps, 10);
    this.maxRounds = positiveInteger(
      "maxSequentialToolInvocations",
      options.maxSequentialToolInvocations,
      10,
    );
    this.maxRepeats = positiveInteger("maxRepeats", options.maxRepeats, 3);
    this.maxErrors = positiveInteger("maxConsecutiveErrors", options.maxConsecutiveErrors, 3);
    this.onHallucination = options.hallucinatedToolName ?? defaultHallucinatedToolStrategy;
  }

  protected async loop(
    memoryId: string,
    text: string,
    chat: ChatOptions,
    rec: RunRecorder,
  ): Promise<RunOutcome> {
    const { model, systemPrompt } = this.options;
    const memory = this.memory(memoryId);
    await memory.add({ role: "user", content: text });
    const retrieved = await this.toolbox.retrieve(text);
    const repeats = new RepeatGuard(this.maxRepeats);
    const errors = new ErrorStreak(this.maxErrors);
    let rounds = 0;
    let lastText = "";
    for (;;) {
      if (rec.modelCalls >= this.maxSteps) return { answer: lastText, stoppedBecause: "max_steps" };
      const history = await memory.messages();
      const offered = await this.toolbox.offer({
        memoryId,
        query: text,
        step: rec.modelCalls,
        messages: history,
        retrieved,
      });
      const system = typeof systemPrompt === "function" ? systemPrompt(memoryId) : systemPrompt;
      const messages: Message[] = system ? [{ role: "system", content: system }, ...history] : history;
      const { message } = await callModel(
        model,
        messages,
        {
          ...(offered.length > 0 ? { tools: offered.map(toToolJson) } : {}),
          ...(this.options.toolChoice ? { toolChoice: this.options.toolChoice } : {}),
          ...(this.options.temperature !== undefined ? { temperature: this.options.temperature } : {}),
          ...(this.options.maxTokens !== undefined ? { maxTokens: this.options.maxTokens } : {}),
          ...(chat.signal ? { signal: chat.signal } : {}),
        },
        rec,
        chat.stream === true,
      );
      const index = rec.modelCalls - 1;
      const calls = withUniqueIds(message.tool_calls ?? [], index);
      const reply: Message = { role: "assistant", content: message.content };
      if (calls.length > 0) reply.tool_calls = calls;
      await memory.add(reply);
      if (message.content.trim() !== "") lastText = message.content;
      if (calls.length === 0) return { answer: message.content, stoppedBecause: "answer" };
      if (message.content.trim() !== "") rec.record({ type: "thought", index, text: message.content });

      rounds += 1;
      const stop = this.roundGuard(rounds, calls, repeats);
      if (stop) {
        await memory.add(...calls.map((c) => toolMessage(c, `Not executed: the agent stopped (${stop}).`)));
        return { answer: lastText, stoppedBecause: stop };
      }
      const results = await Promise.all(
        calls.map((call) => this.execute(call, index, offered, memoryId, chat, rec)),
      );
      rec.orderToolCalls(
        index,
        calls.map((c) => c.id),
      );
      await memory.add(...calls.map((call, i) => toolMessage(call, results[i]!.content)));

      const direct = this.options.directReturn;
      if (direct && calls.every((c, i) => direct.includes(c.function.name) && results[i]!.ok)) {
        return { answer: results.map((r) => r.content).join("\n"), stoppedBecause: "direct_return" };
      }
      if (results.every((r) => !r.ok)) {
        if (errors.fail()) return { answer: lastText, stoppedBecause: "too_many_errors" };
      } else {
        errors.reset();
      }
    }
  }

  private roundGuard(
    rounds: number,
    calls: ToolCall[],
    repeats: RepeatGuard,
  ): RunOutcome["stoppedBecause"] | undefined {
    if (rounds > this.maxRounds) return "max_tool_invocations";
    let dead = false;
    for (const call of calls) dead = repeats.isDeadLoop(call.function.name, call.function.arguments) || dead;
    return dead ? "repeated_action" : undefined;
  }

  /** Runs one call; unknown tools get the corrective message, failures become "Error: …" tool messages. */
  private async execute(
    call: ToolCall,
    index: number,
    offered: Tool[],
    memoryId: string,
    chat: ChatOptions,
    rec: RunRecorder,
  ): Promise<{ ok: boolean; content: string }> {
    rec.record({ type: "tool_call", index, call });
    const tool = this.toolbox.get(call.function.name);
    if (!tool) {
      const names = (offered.length > 0 ? offered : this.toolbox.all).map((t) => t.name);
      const content = this.onHallucination(call, names);
      rec.record({ type: "guard", index, guard: "unknown_tool", message: content });
      return { ok: false, content };
    }
    const context: ToolContext = { ...this.options.context, memoryId };
    if (chat.signal) context.signal = chat.signal;
    const started = performance.now();
    const result: ToolResult = await invokeTool(call, [tool], context);
    rec.record({ type: "tool_result", index, call, result, ms: Math.round(performance.now() - started) });
    return result.ok
      ? { ok: true, content: result.content }
      : { ok: false, content: `Error: ${result.error.message}` };
  }
}

export function createAgent(options: FunctionAgentOptions): FunctionAgent {
  return new FunctionAgent(options);
}

function toolMessage(call: ToolCall, content: string): Message {
  return { role: "tool", tool_call_id: call.id, name: call.function.name, content };
}

/** Models may omit or repeat call ids; tool results must point at exactly one call. */
function withUniqueIds(calls: ToolCall[], index: number): ToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, i) => {
    let id = call.id;
    if (!id || seen.has(id)) id = `call_${index}_${i}`;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
