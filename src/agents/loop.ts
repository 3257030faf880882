import type { Message } from "../chat/messages.ts";
import type { ChatModel, GenerateOptions, GenerateResult, Usage } from "../models/model.ts";
import { EventChannel, KeyedLock } from "./events.ts";
import type {
  AgentEvent,
  AgentRun,
  AgentRunHandle,
  AgentStep,
  ChatOptions,
  StopReason,
  ToolCallRecord,
  TurnDecoding,
} from "./types.ts";
import { ToolgenError } from "../errors.ts";

/** What an agent body returns; the recorder turns it into an AgentRun. */
export interface RunOutcome {
  answer: string;
  stoppedBecause: StopReason;
  error?: string;
}

/** Collects the steps, tool calls and usage of one run and forwards every event to the listeners. */
export class RunRecorder {
  readonly steps: AgentStep[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  readonly usage: Usage = { promptTokens: 0, completionTokens: 0 };

  constructor(
    readonly memoryId: string,
    private readonly emit: (event: AgentEvent) => void,
  ) {}

  record(step: AgentStep): void {
    if (step.type === "tool_result") {
      this.toolCalls.push({ index: step.index, call: step.call, result: step.result, ms: step.ms });
    }
    this.steps.push(step);
    this.emit(step);
  }

  /**
   * Puts the tool calls of model call `index` back in the order the model made them: calls run in parallel and are
   * recorded (and streamed) as they finish, but `toolCalls` pairs with the assistant message's `tool_calls`.
   */
  orderToolCalls(index: number, ids: readonly string[]): void {
    const start = this.toolCalls.findIndex((c) => c.index === index);
    if (start < 0) return;
    const round = this.toolCalls.slice(start).filter((c) => c.index === index);
    round.sort((a, b) => ids.indexOf(a.call.id) - ids.indexOf(b.call.id));
    let k = 0;
    for (let i = start; i < this.toolCalls.length; i++) {
      if (this.toolCalls[i]!.index === index) this.toolCalls[i] = round[k++]!;
    }
  }

  delta(index: number, delta: string): void {
    if (delta !== "") this.emit({ type: "text_delta", index, delta });
  }

  /** Number of model calls made so far. */
  get modelCalls(): number {
    return this.steps.filter((s) => s.type === "model").length;
  }

  finish(outcome: RunOutcome): AgentRun {
    this.record({
      type: "final",
      index: Math.max(0, this.modelCalls - 1),
      answer: outcome.answer,
      stoppedBecause: outcome.stoppedBecause,
    });
    const run: AgentRun = {
      memoryId: this.memoryId,
      answer: outcome.answer,
      steps: this.steps,
      toolCalls: this.toolCalls,
      usage: { ...this.usage },
      stoppedBecause: outcome.stoppedBecause,
    };
    if (outcome.error !== undefined) run.error = outcome.error;
    return run;
  }
}

const memoryLocks = new KeyedLock();

/**
 * Starts a run: one at a time per memory id (so a conversation's messages never interleave), different ids in
 * parallel. The body may throw; an abort becomes "aborted" and anything else "model_error", never an exception.
 */
export function startRun(
  memoryId: string,
  options: ChatOptions,
  body: (recorder: RunRecorder) => Promise<RunOutcome>,
): AgentRunHandle {
  const channel = new EventChannel<AgentEvent>();
  const emit = (event: AgentEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A listener's bug must not break the run.
    }
    channel.push(event);
  };
  const recorder = new RunRecorder(memoryId, emit);
  const result = memoryLocks
    .run(memoryId, async () => {
      try {
        options.signal?.throwIfAborted();
        return recorder.finish(await body(recorder));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const stoppedBecause: StopReason = options.signal?.aborted ? "aborted" : "model_error";
        return recorder.finish({ answer: "", stoppedBecause, error: message });
      }
    })
    .finally(() => channel.close());
  return { result, [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
}

/**
 * One model call, recorded: generate, or stream with text deltas forwarded as events. Usage is added to the
 * run's total. The abort signal is passed down so an HTTP request stops with the run.
 */
export async function callModel(
  model: ChatModel,
  messages: Message[],
  options: GenerateOptions,
  recorder: RunRecorder,
  stream: boolean,
  /** How the caller asked for this turn to be decoded; recorded on the model step with what the backend reports. */
  decoding?: TurnDecoding,
): Promise<GenerateResult> {
  const index = recorder.modelCalls;
  const started = performance.now();
  let result: GenerateResult | undefined;
  if (stream) {
    for await (const event of model.stream(messages, options)) {
      if (event.type === "text") recorder.delta(index, event.delta);
      else if (event.type === "done") result = event.result;
    }
    if (!result)
      throw new ToolgenError("model_failure", `model ${model.id} ended its stream without a result`);
  } else {
    result = await model.generate(messages, options);
  }
  recorder.usage.promptTokens += result.usage.promptTokens;
  recorder.usage.completionTokens += result.usage.completionTokens;
  recorder.record({
    type: "model",
    index,
    message: result.message,
    usage: result.usage,
    ms: Math.round(performance.now() - started),
    ...(decoding
      ? { decoding: { ...decoding, ...(result.decodedAs ? { backend: result.decodedAs } : {}) } }
      : {}),
  });
  return result;
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` count as the same input. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableStringify((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The dead-loop guard: counts identical (action, input) pairs within one run. */
export class RepeatGuard {
  private readonly seen = new Map<string, number>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ToolgenError("invalid_option", `repeat limit must be a positive integer, got ${limit}`);
    }
  }

  /** Counts this action; true when it has now been asked for `limit` times (the run should stop). */
  isDeadLoop(action: string, input: unknown): boolean {
    const key = `${action}\u0000${stableStringify(input)}`;
    const count = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, count);
    return count >= this.limit;
  }
}

/** Counts corrective messages in a row; a successful step resets it. */
export class ErrorStreak {
  private count = 0;

  constructor(readonly limit: number) {}

  /** Records one more error; true when the streak reached the limit. */
  fail(): boolean {
    this.count += 1;
    return this.count >= this.limit;
  }

  reset(): void {
    this.count = 0;
  }
}

export function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) {
    throw new ToolgenError("invalid_option", `${name} must be a positive integer, got ${String(value)}`);
  }
  return resolved;
}
