import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../chat/messages.ts";
import {
  CopySource,
  decodeConstrained,
  jsonSchemaConstraint,
  neutralPolicy,
  type LanguagePolicy,
} from "../constrain/index.ts";
import { pickToken } from "../nn/infer/decode.ts";
import { InferenceSession } from "../nn/infer/session.ts";
import { Rng } from "../nn/rng.ts";
import type { ToolCall, ToolJson } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";
import { BuiltinTokenModel } from "./builtin.ts";
import { withContinueBias } from "./caller-count-bias.ts";
import {
  CALLER_END,
  callerPrompt,
  callerSchema,
  DEFAULT_PROMPT_LIMITS,
  offeredDistinctCalls,
  parseCallerReply,
  type CallerCall,
  type CallerPromptLimits,
} from "./caller-prompt.ts";
import type { ChatModel, GenerateOptions, GenerateResult, StreamEvent } from "./model.ts";

/** The file that marks a `builtin:DIR` folder as a function caller (and what it was trained on). */
export const CALLER_MANIFEST = "caller.json";

export interface CallerManifest {
  kind: "caller";
  version: 1;
  limits: CallerPromptLimits;
  /** How it was trained (catalogs, items, steps, seconds): for the record, not read at load. */
  training?: Record<string, unknown>;
  /** Decoding settings chosen after training (caller-count-bias.ts), with what they were chosen on. */
  decoding?: { continueBias?: number; chosenOn?: string };
}

/**
 * What constrains the reply: `copy` (default) the reply schema with the copy constraint on the question (free
 * strings and numbers are spans of it); `schema` the reply schema alone; `none` free decoding, parsed after
 * (the ablation's "model alone").
 */
export type CallerConstraint = "none" | "schema" | "copy";

export interface CallerOptions {
  constraint?: CallerConstraint;
  /**
   * What the copy constraint knows beyond the schema and the question's characters (src/constrain/policy.ts):
   * default `neutralPolicy` (no English word lists, no rules keyed to property names); `englishPolicy` adds them.
   */
  policy?: LanguagePolicy;
  /**
   * Added to the logits of the tokens that start another call once a call is complete (caller-count-bias.ts);
   * default the folder's `decoding.continueBias`, else 0.
   */
  continueBias?: number;
}

export function isCallerFolder(dir: string): boolean {
  return existsSync(join(dir, CALLER_MANIFEST));
}

export function readCallerManifest(dir: string): CallerManifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(dir, CALLER_MANIFEST), "utf8"));
  } catch (error) {
    throw new ToolgenError("invalid_input", `${join(dir, CALLER_MANIFEST)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const m = value as Partial<CallerManifest>;
  if (m?.kind !== "caller" || m.version !== 1)
    throw new ToolgenError("invalid_input", `${join(dir, CALLER_MANIFEST)}: not a version 1 function caller`);
  return { ...m, limits: { ...DEFAULT_PROMPT_LIMITS, ...m.limits } } as CallerManifest;
}

/** The question a reply answers: the last message a person wrote. */
function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") return typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
  }
  return "";
}

/**
 * A general function caller on the built-in engine (`builtin:DIR` where DIR holds caller.json): it reads the
 * offered functions' documentation in its prompt (no tool tokens) and writes a list of calls, none, one or
 * several, decoded under the reply schema (offered names only, each call's arguments under its function's
 * schema) and the copy constraint (free strings and numbers are spans of the question). It writes no prose:
 * without tools its reply is empty, and after a tool's result it answers with that result.
 */
export class CallerChatModel implements ChatModel {
  readonly id: string;
  readonly constraint: CallerConstraint;
  readonly policy: LanguagePolicy;
  readonly continueBias: number;
  private tokenTexts: string[] | undefined;

  constructor(
    readonly tokens: BuiltinTokenModel,
    readonly manifest: CallerManifest,
    options: CallerOptions = {},
  ) {
    this.id = tokens.id;
    this.constraint = options.constraint ?? "copy";
    this.policy = options.policy ?? neutralPolicy;
    this.continueBias = options.continueBias ?? manifest.decoding?.continueBias ?? 0;
    if (tokens.tokenizer.tokenToId(CALLER_END) === undefined)
      throw new ToolgenError("invalid_input", `${tokens.id}: the tokenizer has no ${CALLER_END} token`);
  }

  static load(dir: string, options: CallerOptions = {}): CallerChatModel {
    const manifest = readCallerManifest(dir);
    return new CallerChatModel(BuiltinTokenModel.load(dir), manifest, options);
  }

  /** The calls for `question` with `tools` offered (the decision, without the chat wrapping). */
  calls(tools: readonly ToolJson[], question: string, o: GenerateOptions = {}): { calls: CallerCall[]; text: string; promptTokens: number; ids: number[] } {
    const tok = this.tokens.tokenizer;
    const model = this.tokens.model;
    const endId = tok.tokenToId(CALLER_END)!;
    const promptIds = tok.encode(callerPrompt(tools, question, this.manifest.limits));
    const room = model.config.maxPositions - promptIds.length;
    if (room < 8) {
      throw new ToolgenError(
        "invalid_option",
        `the prompt is ${promptIds.length} tokens; the function caller's context is ${model.config.maxPositions}`,
      );
    }
    const maxTokens = Math.min(o.maxTokens ?? 384, room);
    const session = new InferenceSession(model);
    let ids: number[];
    try {
      if (this.constraint === "none") ids = this.free(session, promptIds, endId, maxTokens, o);
      else {
        const copy = this.constraint === "copy" ? { copy: new CopySource([question], { policy: this.policy }) } : {};
        const constraint = jsonSchemaConstraint(callerSchema(tools), tok, [endId], {
          vocabSize: this.tokens.vocabSize,
          ...copy,
        });
        const source = this.continueBias === 0 ? session : withContinueBias(session, this.texts(), this.continueBias);
        ids = decodeConstrained(source, promptIds, constraint, {
          maxTokens,
          temperature: o.temperature ?? 0,
          topP: o.topP,
          seed: o.seed,
          signal: o.signal,
        }).ids;
      }
    } finally {
      session.dispose();
    }
    const text = tok.decode(ids);
    const calls = offeredDistinctCalls(parseCallerReply(text) ?? [], tools);
    return { calls, text, promptTokens: promptIds.length, ids };
  }

  /** Each token's text (the continue bias reads them). */
  private texts(): string[] {
    const tok = this.tokens.tokenizer;
    return (this.tokenTexts ??= Array.from({ length: this.tokens.vocabSize }, (_, id) => tok.decode([id])));
  }

  private free(session: InferenceSession, prompt: number[], endId: number, maxTokens: number, o: GenerateOptions): number[] {
    const rng = new Rng(o.seed ?? 0);
    const ids: number[] = [];
    let logits = session.append(prompt);
    while (ids.length < maxTokens) {
      const id = pickToken(logits, { temperature: o.temperature ?? 0, topP: o.topP }, rng);
      if (id === endId) break;
      ids.push(id);
      logits = session.append([id]);
    }
    return ids;
  }

  async generate(messages: Message[], options: GenerateOptions = {}): Promise<GenerateResult> {
    const tools = options.toolChoice === "none" ? [] : (options.tools ?? []);
    const last = messages[messages.length - 1];
    if (tools.length === 0 || last?.role === "tool") {
      const content = last?.role === "tool" && typeof last.content === "string" ? last.content : "";
      return {
        message: { role: "assistant", content },
        usage: { promptTokens: 0, completionTokens: 0 },
        finishReason: "stop",
      };
    }
    const named = typeof options.toolChoice === "object" ? options.toolChoice.name : undefined;
    const offered = named ? tools.filter((t) => t.function.name === named) : tools;
    if (offered.length === 0)
      throw new ToolgenError("invalid_option", `toolChoice names ${JSON.stringify(named)}, which is not a given tool`);
    const r = this.calls(offered, lastUserText(messages), options);
    const toolCalls: ToolCall[] = r.calls.map((c, i) => ({
      id: `call_${i}`,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
    return {
      message: toolCalls.length > 0 ? { role: "assistant", content: "", tool_calls: toolCalls } : { role: "assistant", content: "" },
      usage: { promptTokens: r.promptTokens, completionTokens: r.ids.length },
      finishReason: toolCalls.length > 0 ? "tool_calls" : "stop",
      raw: { text: r.text, ids: r.ids },
    };
  }

  async *stream(messages: Message[], options: GenerateOptions = {}): AsyncIterable<StreamEvent> {
    const result = await this.generate(messages, options);
    for (const [index, c] of (result.message.tool_calls ?? []).entries())
      yield { type: "tool_call_delta", index, id: c.id, name: c.function.name, argumentsDelta: JSON.stringify(c.function.arguments) };
    yield { type: "done", result };
  }
}
