import type { Message } from "../chat/messages.ts";
import type { DecodedAs, Usage } from "../models/model.ts";
import type { ToolCall, ToolResult } from "../tools/types.ts";

/** Why a run ended. Every agent ends each run with exactly one of these, never with an escaping exception. */
export type StopReason =
  /** The model gave its final answer. */
  | "answer"
  /** A direct-return tool's result became the answer without a second model pass. */
  | "direct_return"
  /** The model-call budget (maxSteps / maxIterations / 16 rounds) ran out. */
  | "max_steps"
  /** Too many tool-calling rounds in a row (LangChain4j's maxSequentialToolInvocations). */
  | "max_tool_invocations"
  /** The same action with the same input was asked for too often: a dead loop. */
  | "repeated_action"
  /** Too many consecutive corrective observations (unparsable steps, unknown tools, bad input). */
  | "too_many_errors"
  /** The ToolGen agent finished with give_up_and_restart and had no restarts left. */
  | "gave_up"
  /** The caller's AbortSignal fired. */
  | "aborted"
  /** The model itself failed (network, server error); the message is in `error`. */
  | "model_error";

/** The guard that produced a corrective message instead of a tool result. */
export type GuardKind =
  "unknown_tool" | "unparsable_step" | "invalid_input" | "tool_error" | "repeated_action" | "unknown_action";

/**
 * How one model turn was asked to be decoded, recorded on the turn's "model" step by agents that ask for
 * constraints (the ToolGen agent), so a UI can say what the model decided and what constrained it.
 */
export interface TurnDecoding {
  /** The ToolGen turn: a free thought, the action token, a tool's arguments, or <<Finish>>'s arguments. */
  turn: "thought" | "action" | "arguments" | "finish";
  /**
   * The constraint the agent asked for: none; a choice among `options` written forms; a JSON Schema; or a
   * JSON Schema whose free string and number leaves may only copy from `copyFrom` (src/constrain/copy.ts).
   */
  constraint: "none" | "choice" | "json-schema" | "json-schema+copy";
  /** choice: how many written forms it chose among. */
  options?: number;
  /** json-schema+copy: what the values may be copied from ("question", "observation"). */
  copyFrom?: string[];
  /** finish under json-schema+copy with no tool result to report: only declining was allowed. */
  declineOnly?: boolean;
  /** What the backend reported doing beyond what was asked (GenerateResult.decodedAs). */
  backend?: DecodedAs;
}

/** One recorded step of a run. `index` counts model calls (0-based) so steps group by the model turn that caused them. */
export type AgentStep =
  | { type: "model"; index: number; message: Message; usage: Usage; ms: number; decoding?: TurnDecoding }
  | { type: "thought"; index: number; text: string }
  | { type: "tool_call"; index: number; call: ToolCall }
  | { type: "tool_result"; index: number; call: ToolCall; result: ToolResult; ms: number }
  | { type: "guard"; index: number; guard: GuardKind; message: string }
  | { type: "retry"; index: number; reason: string; temperature: number }
  | { type: "trim"; index: number; dropped: number; reason: string }
  | { type: "final"; index: number; answer: string; stoppedBecause: StopReason };

/** What a UI sees while a run is going: every step, plus text as the model streams it (not kept in `steps`). */
export type AgentEvent = AgentStep | { type: "text_delta"; index: number; delta: string };

export interface ToolCallRecord {
  index: number;
  call: ToolCall;
  result: ToolResult;
  ms: number;
}

/** The result of one `chat` call, the same shape for every agent. */
export interface AgentRun {
  memoryId: string;
  answer: string;
  steps: AgentStep[];
  toolCalls: ToolCallRecord[];
  usage: Usage;
  stoppedBecause: StopReason;
  /** Set when stoppedBecause is "model_error" (or another stop carries an explanation). */
  error?: string;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** Called synchronously for every event, in order (steps and streamed text). */
  onEvent?: (event: AgentEvent) => void;
  /** Stream model output (text_delta events) where the model supports it. */
  stream?: boolean;
}

/** A running chat: iterate it for events, await `result` for the run. Both can be used together. */
export interface AgentRunHandle extends AsyncIterable<AgentEvent> {
  readonly result: Promise<AgentRun>;
}

/** What every agent (functions, ReAct, ToolGen) offers. */
export interface Agent {
  readonly kind: string;
  chat(memoryId: string, text: string, options?: ChatOptions): Promise<AgentRun>;
  run(memoryId: string, text: string, options?: ChatOptions): AgentRunHandle;
  /** The stored conversation of a memory id (to read or clear it). */
  memory(memoryId: string): { messages(): Promise<Message[]>; clear(): Promise<void> };
}
