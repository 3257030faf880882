import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../chat/messages.ts";
import type { ToolCall, ToolJson } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";
import { decide, type DecideOptions, type FactoredWeights } from "./factored/decide.ts";
import type { ChatModel, GenerateOptions, GenerateResult, StreamEvent } from "./model.ts";

/** The weights file of a factored caller folder (caller.json says `"kind": "factored"`). */
export const FACTORED_WEIGHTS = "factored.json";

export interface FactoredModelFile {
  kind: "factored";
  version: 1;
  weights: FactoredWeights;
  /** How common each word stem is in training questions (0..1), the rarity the features weigh words by. */
  words: Record<string, number>;
  /** Words learnt to join list items in training questions. */
  joiners: string[];
  training?: Record<string, unknown>;
}

/** The kind a caller folder's caller.json names ("caller": the LM caller; "factored": this one). */
export function callerKind(dir: string): string | undefined {
  try {
    const m = JSON.parse(readFileSync(join(dir, "caller.json"), "utf8")) as { kind?: unknown };
    return typeof m.kind === "string" ? m.kind : undefined;
  } catch {
    return undefined;
  }
}

function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") return typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
  }
  return "";
}

/**
 * The factored function caller (`builtin:DIR` whose caller.json says `"kind": "factored"`): small learnt parts
 * over tool-agnostic features instead of a language model — which functions to call and whether to decline
 * (a logistic per offered function), each parameter's value among the question's candidates (a softmax per
 * parameter), a joint assignment that spends no span twice, and several calls when parameters hold several
 * strong values (src/models/factored/). Trained on `toolgen synth` questions (src/train/factored-train.ts).
 */
export class FactoredCallerModel implements ChatModel {
  readonly id: string;
  private readonly stats: Map<string, number>;
  private readonly joiners: Set<string>;

  constructor(
    readonly file: FactoredModelFile,
    id = "factored",
    readonly options: DecideOptions = {},
  ) {
    this.id = id;
    this.stats = new Map(Object.entries(file.words));
    this.joiners = new Set(file.joiners);
  }

  static load(dir: string, options: DecideOptions = {}): FactoredCallerModel {
    let file: FactoredModelFile;
    try {
      file = JSON.parse(readFileSync(join(dir, FACTORED_WEIGHTS), "utf8")) as FactoredModelFile;
    } catch (error) {
      throw new ToolgenError("invalid_input", `${join(dir, FACTORED_WEIGHTS)}: ${(error as Error).message}`, { cause: error });
    }
    if (file?.kind !== "factored" || file.version !== 1 || !file.weights)
      throw new ToolgenError("invalid_input", `${join(dir, FACTORED_WEIGHTS)}: not a version 1 factored caller`);
    return new FactoredCallerModel(file, `builtin:${dir}`, options);
  }

  /** The calls for `question` with `tools` offered. */
  calls(tools: readonly ToolJson[], question: string): { name: string; arguments: Record<string, unknown> }[] {
    return decide(tools, question, this.file.weights, this.stats, this.joiners, this.options);
  }

  async generate(messages: Message[], options: GenerateOptions = {}): Promise<GenerateResult> {
    const tools = options.toolChoice === "none" ? [] : (options.tools ?? []);
    const last = messages[messages.length - 1];
    if (tools.length === 0 || last?.role === "tool") {
      const content = last?.role === "tool" && typeof last.content === "string" ? last.content : "";
      return { message: { role: "assistant", content }, usage: { promptTokens: 0, completionTokens: 0 }, finishReason: "stop" };
    }
    const named = typeof options.toolChoice === "object" ? options.toolChoice.name : undefined;
    const offered = named ? tools.filter((t) => t.function.name === named) : tools;
    if (offered.length === 0)
      throw new ToolgenError("invalid_option", `toolChoice names ${JSON.stringify(named)}, which is not a given tool`);
    const calls = this.calls(offered, lastUserText(messages));
    const toolCalls: ToolCall[] = calls.map((c, i) => ({
      id: `call_${i}`,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
    return {
      message: toolCalls.length > 0 ? { role: "assistant", content: "", tool_calls: toolCalls } : { role: "assistant", content: "" },
      usage: { promptTokens: 0, completionTokens: 0 },
      finishReason: toolCalls.length > 0 ? "tool_calls" : "stop",
    };
  }

  async *stream(messages: Message[], options: GenerateOptions = {}): AsyncIterable<StreamEvent> {
    const result = await this.generate(messages, options);
    for (const [index, c] of (result.message.tool_calls ?? []).entries())
      yield { type: "tool_call_delta", index, id: c.id, name: c.function.name, argumentsDelta: JSON.stringify(c.function.arguments) };
    yield { type: "done", result };
  }
}
