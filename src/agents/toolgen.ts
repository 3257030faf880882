import type { CatalogEntry } from "../catalog/catalog.ts";
import { FINISH_TOKEN, toolToken } from "../toolgen/tokens.ts";
import type { Message } from "../chat/messages.ts";
import { ToolgenError } from "../errors.ts";
import { parseToolGenAction, parseToolGenArguments } from "../chat/parse/toolgen.ts";
import type { ChatModel } from "../models/model.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import {
  actionDocumentation,
  agentTask,
  FINISH_ARGUMENTS_SCHEMA,
  FINISH_DECLINE_SCHEMA,
  GENERATE_ACTION,
  inputRequest,
  TOOLGEN_AGENT_SYSTEM,
} from "../toolgen/agent-format.ts";
import type { Tool, ToolContext } from "../tools/types.ts";
import { invokeTool } from "./invoke.ts";
import { catalogEntryFromTool } from "./toolbox.ts";
import { callModel, ErrorStreak, positiveInteger, RepeatGuard } from "./loop.ts";
import type { RunOutcome, RunRecorder } from "./loop.ts";
import type { MemoryOptions } from "./memory.ts";
import { MemoryAgent } from "./base.ts";
import type { ChatOptions, TurnDecoding } from "./types.ts";
import { englishPolicy, type LanguagePolicy } from "../constrain/policy.ts";

/** What an action decoder gets: the conversation so far and the written forms it may choose from. */

export interface ActionRequest {
  messages: Message[];
  options: string[];
  temperature: number;
  signal?: AbortSignal;
}

/**
 * Chooses the action turn. The default asks the ChatModel with a `choice` constraint (HTTP backends map it to
 * guided decoding or a grammar); a TokenModel-based constrained beam search plugs in here.
 */
export type ActionDecoder = (request: ActionRequest) => Promise<string>;

/** Runs a catalog entry that has no Tool implementation (e.g. a StableToolBench server, a mock). */
export type CatalogExecutor = (
  entry: CatalogEntry,
  args: Record<string, unknown>,
  context: ToolContext,
) => unknown;

export interface ToolGenAgentOptions {
  model: ChatModel;
  /** The documents of the actions; default: one entry per tool (id = tool name). */
  catalog?: CatalogEntry[];
  /** Implementations, matched to catalog entries by id (= tool name). */
  tools?: Tool[];
  /** Runs entries without a matching tool. */
  execute?: CatalogExecutor;
  /** How actions are written (atomic `<<id>>` tokens by default; semantic, numeric, hierarchical ids too). */
  index?: ToolIndex;
  decodeAction?: ActionDecoder;
  /** Assistant turns per run (paper: 16 = 5 actions of 3 turns + the final answer). */
  maxRounds?: number;
  /** Restarts after give_up_and_restart before the run stops with "gave_up"; default 1. */
  maxRestarts?: number;
  maxRepeats?: number;
  maxConsecutiveErrors?: number;
  temperature?: number;
  /** Temperatures for re-asking when a reply says "give up" or "sorry"; default [0.7, 1.0]. */
  retryTemperatures?: number[];
  maxTokens?: number;
  memory?: MemoryOptions;
  context?: Record<string, unknown>;
  /**
   * How the arguments turn is decoded. "json-schema": under a json-schema constraint, the chosen tool's
   * parameters or, after <<Finish>>, FINISH_ARGUMENTS_SCHEMA (the built-in engine compiles it to a token mask,
   * llama.cpp to a grammar, vLLM-style servers to guided JSON; a backend that cannot enforce it is asked freely
   * from then on). "none" (default): free text, checked after generation. OpenAI proper's strict JSON mode
   * rejects schemas with optional properties, so the default stays free. "json-schema+copy": the same, plus
   * the copy constraint (src/constrain/copy.ts): free string and number leaves may only copy from the user's
   * question (a tool's arguments, never the tool's own name) or, for <<Finish>>'s final answer, be the last tool
   * result whole (nothing from the question);
   * a backend that cannot enforce copying is asked with the plain schema from then on.
   */
  argumentsConstraint?: "json-schema" | "json-schema+copy" | "none";
  /**
   * What the copy constraint knows of the language and of property names beyond the schema (default
   * englishPolicy: number words, dates, pointing and courtesy words, rules keyed to property names;
   * neutralPolicy: none; src/constrain/policy.ts). Only under "json-schema+copy".
   */
  policy?: LanguagePolicy;
  /**
   * Tokens of a constrained arguments turn (default: maxTokens). The built-in constraint refuses a budget
   * below the schema's shortest value, and finishes the value within the budget otherwise. Under
   * "json-schema+copy" the final answer reports the tool's result whole, so a result longer than the budget
   * cannot be reported (the demo gives 256).
   */
  argumentsMaxTokens?: number;
  /**
   * The role of the function-result turn: "tool" (default, as in the paper's trajectories) or "user" for
   * servers that reject a tool message with no preceding tool_calls (OpenAI proper does).
   */
  functionRole?: "tool" | "user";
}

const GIVE_UP = /give up|sorry/i;

interface Episode {
  messages: Message[];
  temperature: number;
}

/** The ToolGen agent (paper Fig. 8): thought → "Generate the action." → action token → documentation → JSON input. */
export class ToolGenAgent extends MemoryAgent {
  readonly kind = "toolgen";
  private readonly entries = new Map<string, CatalogEntry>();
  private readonly tools = new Map<string, Tool>();
  private readonly written = new Map<string, string>();
  private readonly idOfText = new Map<string, string>();
  private readonly maxRounds: number;
  private readonly maxRestarts: number;
  private readonly maxRepeats: number;
  private readonly maxErrors: number;
  private readonly retryTemperatures: number[];
  private choiceUnsupported = false;
  private schemaUnsupported = false;
  private copyUnsupported = false;
  private readonly policy: LanguagePolicy;
  /**
   * The written forms the action turn may produce: every tool plus <<Finish>>. One array for the agent's life,
   * so a decoder can cache what it builds from it (a trie over 47k tools) by identity.
   */
  readonly actionOptions: string[];

  constructor(private readonly options: ToolGenAgentOptions) {
    super(options.memory);
    this.policy = options.policy ?? englishPolicy;
    const catalog = options.catalog ?? (options.tools ?? []).map(catalogEntryFromTool);
    if (catalog.length === 0) throw new Error("the ToolGen agent needs a `catalog` or `tools`");
    for (const entry of catalog) this.entries.set(entry.id, entry);
    for (const tool of options.tools ?? []) this.tools.set(tool.name, tool);
    for (const entry of catalog) {
      const text = options.index ? options.index.texts[entry.id] : toolToken(entry.id);
      if (text === undefined)
        throw new Error(`the tool index has no written form for catalog id ${entry.id}`);
      this.written.set(entry.id, text);
      this.idOfText.set(text, entry.id);
    }
    this.maxRounds = positiveInteger("maxRounds", options.maxRounds, 16);
    this.maxRestarts = options.maxRestarts ?? 1;
    if (!Number.isInteger(this.maxRestarts) || this.maxRestarts < 0) {
      throw new RangeError(`maxRestarts must be a non-negative integer, got ${options.maxRestarts}`);
    }
    this.maxRepeats = positiveInteger("maxRepeats", options.maxRepeats, 3);
    this.maxErrors = positiveInteger("maxConsecutiveErrors", options.maxConsecutiveErrors, 3);
    this.retryTemperatures = options.retryTemperatures ?? [0.7, 1.0];
    this.actionOptions = Object.freeze([...this.written.values(), FINISH_TOKEN]) as string[];
  }

  protected async loop(
    memoryId: string,
    query: string,
    chat: ChatOptions,
    rec: RunRecorder,
  ): Promise<RunOutcome> {
    const memory = this.memory(memoryId);
    const history = await memory.messages();
    await memory.add({ role: "user", content: query });
    const fresh = (temperature: number): Episode => ({
      messages: [
        { role: "system", content: TOOLGEN_AGENT_SYSTEM },
        ...history,
        { role: "user", content: agentTask(query) },
      ],
      temperature,
    });
    let episode = fresh(this.options.temperature ?? 0);
    let restarts = 0;
    const repeats = new RepeatGuard(this.maxRepeats);
    const errors = new ErrorStreak(this.maxErrors);
    const done = async (outcome: RunOutcome): Promise<RunOutcome> => {
      if (outcome.stoppedBecause === "answer")
        await memory.add({ role: "assistant", content: outcome.answer });
      return outcome;
    };
    let lastThought = "";
    let lastObservation: string | undefined;
    let needThought = true;
    for (;;) {
      if (needThought) {
        if (rec.modelCalls >= this.maxRounds)
          return done({ answer: lastThought, stoppedBecause: "max_steps" });
        lastThought = await this.reply(episode, chat, rec, { turn: "thought", constraint: "none" });
        rec.record({ type: "thought", index: rec.modelCalls - 1, text: lastThought });
        episode.messages.push({ role: "user", content: GENERATE_ACTION });
      }
      needThought = true;
      if (rec.modelCalls >= this.maxRounds) return done({ answer: lastThought, stoppedBecause: "max_steps" });
      const actionText = await this.decodeAction(episode, chat, rec);
      const index = rec.modelCalls - 1;
      const action = this.resolveAction(actionText);
      if (action === undefined) {
        const message = `${JSON.stringify(actionText.trim().slice(0, 80))} is not a valid action. ${GENERATE_ACTION}`;
        episode.messages.push({ role: "assistant", content: actionText }, { role: "user", content: message });
        rec.record({ type: "guard", index, guard: "unknown_action", message });
        if (errors.fail()) return done({ answer: lastThought, stoppedBecause: "too_many_errors" });
        needThought = false;
        continue;
      }
      const entry = action === FINISH_TOKEN ? undefined : this.entries.get(action);
      const written = entry ? this.written.get(entry.id)! : FINISH_TOKEN;
      episode.messages.push(
        { role: "assistant", content: written },
        { role: "user", content: inputRequest(actionDocumentation(written, entry)) },
      );
      if (rec.modelCalls >= this.maxRounds) return done({ answer: lastThought, stoppedBecause: "max_steps" });
      const copyFrom = { question: query, ...(entry ? {} : { observation: lastObservation }) };
      const argsText = await this.replyArguments(episode, entry, chat, rec, copyFrom);
      const parsed = parseToolGenArguments(argsText);
      if (!entry) {
        const args = parsed.ok ? parsed.arguments : {};
        if (args.return_type === "give_up_and_restart") {
          if (restarts >= this.maxRestarts) return done({ answer: lastThought, stoppedBecause: "gave_up" });
          restarts += 1;
          const temperature =
            this.retryTemperatures[Math.min(restarts, this.retryTemperatures.length) - 1] ?? 1;
          rec.record({
            type: "retry",
            index: rec.modelCalls - 1,
            reason: "give_up_and_restart",
            temperature,
          });
          episode = fresh(temperature);
          lastObservation = undefined;
          continue;
        }
        const answer = args.final_answer;
        if (parsed.ok && answer !== undefined) {
          return done({
            answer: typeof answer === "string" ? answer : JSON.stringify(answer),
            stoppedBecause: "answer",
          });
        }
        // A Finish without a usable answer: say so in the function turn and let the model try again.
        const message = parsed.ok
          ? 'Finish needs {"return_type": "give_answer", "final_answer": "..."}'
          : parsed.error.message;
        episode.messages.push(this.functionResult(FINISH_TOKEN, message, ""));
        rec.record({ type: "guard", index: rec.modelCalls - 1, guard: "invalid_input", message });
        if (errors.fail()) return done({ answer: lastThought, stoppedBecause: "too_many_errors" });
        continue;
      }
      if (!parsed.ok) {
        episode.messages.push(this.functionResult(written, `invalid input: ${parsed.error.message}`, ""));
        rec.record({
          type: "guard",
          index: rec.modelCalls - 1,
          guard: "invalid_input",
          message: parsed.error.message,
        });
        if (errors.fail()) return done({ answer: lastThought, stoppedBecause: "too_many_errors" });
        continue;
      }
      if (repeats.isDeadLoop(entry.id, parsed.arguments))
        return done({ answer: lastThought, stoppedBecause: "repeated_action" });
      const result = await this.execute(entry, parsed.arguments, rec.modelCalls - 1, memoryId, chat, rec);
      episode.messages.push(
        this.functionResult(written, result.ok ? "" : result.error, result.ok ? result.content : ""),
      );
      if (result.ok) lastObservation = result.content;
      if (result.ok) errors.reset();
      else if (errors.fail()) return done({ answer: lastThought, stoppedBecause: "too_many_errors" });
    }
  }

  private functionResult(name: string, error: string, response: string): Message {
    return functionResult(name, error, response, this.options.functionRole ?? "tool");
  }

  /** A free-text assistant turn, re-asked at higher temperatures while it says "give up" or "sorry". */
  private async reply(
    episode: Episode,
    chat: ChatOptions,
    rec: RunRecorder,
    decoding: TurnDecoding,
  ): Promise<string> {
    let temperature = episode.temperature;
    for (let attempt = 0; ; attempt++) {
      const { message } = await callModel(
        this.options.model,
        episode.messages,
        {
          temperature,
          ...(this.options.maxTokens !== undefined ? { maxTokens: this.options.maxTokens } : {}),
          ...(chat.signal ? { signal: chat.signal } : {}),
        },
        rec,
        chat.stream === true,
        decoding,
      );
      const next = this.retryTemperatures[attempt];
      if (!GIVE_UP.test(message.content) || next === undefined || rec.modelCalls >= this.maxRounds) {
        episode.messages.push({ role: "assistant", content: message.content });
        return message.content;
      }
      temperature = Math.max(next, temperature);
      rec.record({
        type: "retry",
        index: rec.modelCalls - 1,
        reason: "the reply gave up or apologised",
        temperature,
      });
    }
  }

  /**
   * The arguments turn: under the action's json-schema constraint when `argumentsConstraint` asks for it (and
   * the backend can enforce it), with values copied from `copyFrom`'s texts under "json-schema+copy", else a
   * free reply.
   */
  private async replyArguments(
    episode: Episode,
    entry: CatalogEntry | undefined,
    chat: ChatOptions,
    rec: RunRecorder,
    copyFrom: { question: string; observation?: string | undefined },
  ): Promise<string> {
    const turn = entry ? "arguments" : "finish";
    const asked = this.options.argumentsConstraint;
    if (asked === undefined || asked === "none" || this.schemaUnsupported)
      return this.reply(episode, chat, rec, { turn, constraint: "none" });
    const maxTokens = this.options.argumentsMaxTokens ?? this.options.maxTokens;
    const copy = asked === "json-schema+copy" && !this.copyUnsupported;
    // An answer reports a tool's result; with none (no call yet, or every call failed) there is nothing to
    // report, and a copy of the question's words is no answer: only declining is left.
    const declineOnly = copy && !entry && copyFrom.observation === undefined;
    const schema = entry ? entry.parameters : declineOnly ? FINISH_DECLINE_SCHEMA : FINISH_ARGUMENTS_SCHEMA;
    // An answer takes nothing from the question: on dev the model's answers that copied what the question
    // quotes ("reverse 'WANOU'" → "WANOU") were all wrong (13 of 402), while none needed it.
    const sources = Object.entries(copyFrom).filter(
      (e): e is [string, string] => e[1] !== undefined && (entry !== undefined || e[0] === "observation"),
    );
    const decoding: TurnDecoding = copy
      ? {
          turn,
          constraint: "json-schema+copy",
          copyFrom: sources.map(([name]) => name),
          ...(declineOnly ? { declineOnly } : {}),
        }
      : { turn, constraint: "json-schema" };
    try {
      const { message } = await callModel(
        this.options.model,
        episode.messages,
        {
          temperature: episode.temperature,
          constraint: {
            kind: "json-schema",
            schema,
            // the question's quotes mark whole values; a tool result's quotes are part of it
            ...(copy
              ? {
                  copyFrom: sources.map(([, text]) => text),
                  quotesWhole: sources.map(([name]) => name === "question"),
                  // a call is about what the question quotes; an answer is built from the tool's result
                  quotesFirst: entry !== undefined,
                  // the words naming the tool are the request, not its data ("sha256 of abc" hashes "abc")
                  ...(entry
                    ? {
                        requestWords: [
                          ...entry.id.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3),
                          ...(this.policy.pointing?.courtesyWords ?? []),
                        ],
                        edgeWords: [...(this.policy.pointing?.pointingWords ?? [])],
                        description: entry.description,
                      }
                    : {}),
                  policy: this.policy,
                  // an answer reports the tool's result whole or not at all
                  whole: sources.map(([name]) => entry === undefined && name === "observation"),
                }
              : {}),
          },
          ...(maxTokens !== undefined ? { maxTokens } : {}),
          ...(chat.signal ? { signal: chat.signal } : {}),
        },
        rec,
        false,
        decoding,
      );
      episode.messages.push({ role: "assistant", content: message.content });
      return message.content;
    } catch (error) {
      if (!ToolgenError.hasCode(error, "unsupported_constraint")) throw error;
      if (copy) {
        // The schema alone may still be enforced: ask again without copying, and from then on.
        this.copyUnsupported = true;
        const reason = `arguments turns without the copy constraint from now on: ${(error as Error).message}`;
        rec.record({ type: "retry", index: rec.modelCalls, reason, temperature: episode.temperature });
        return this.replyArguments(episode, entry, chat, rec, copyFrom);
      }
      this.schemaUnsupported = true;
      const reason = `unconstrained arguments turns from now on: ${(error as Error).message}`;
      rec.record({ type: "retry", index: rec.modelCalls, reason, temperature: episode.temperature });
      return this.reply(episode, chat, rec, { turn, constraint: "none" });
    }
  }

  private async decodeAction(episode: Episode, chat: ChatOptions, rec: RunRecorder): Promise<string> {
    const options = this.actionOptions;
    const decode = this.options.decodeAction;
    if (decode) {
      const started = performance.now();
      const text = await decode({
        messages: episode.messages,
        options,
        temperature: episode.temperature,
        ...(chat.signal ? { signal: chat.signal } : {}),
      });
      const usage = { promptTokens: 0, completionTokens: 0 };
      const ms = Math.round(performance.now() - started);
      rec.record({
        type: "model",
        index: rec.modelCalls,
        message: { role: "assistant", content: text },
        usage,
        ms,
        decoding: { turn: "action", constraint: "choice", options: options.length },
      });
      return text;
    }
    const base = { temperature: episode.temperature, ...(chat.signal ? { signal: chat.signal } : {}) };
    if (!this.choiceUnsupported) {
      try {
        const constraint = { kind: "choice" as const, options };
        const decoding = { turn: "action" as const, constraint: "choice" as const, options: options.length };
        return (
          await callModel(this.options.model, episode.messages, { ...base, constraint }, rec, false, decoding)
        ).message.content;
      } catch (error) {
        // A backend that cannot enforce a choice (OpenAI proper) still works: the action is checked afterwards.
        if (!ToolgenError.hasCode(error, "unsupported_constraint")) throw error;
        this.choiceUnsupported = true;
        const reason = `unconstrained action turns from now on: ${(error as Error).message}`;
        rec.record({ type: "retry", index: rec.modelCalls, reason, temperature: episode.temperature });
      }
    }
    const free = { turn: "action" as const, constraint: "none" as const };
    return (await callModel(this.options.model, episode.messages, base, rec, false, free)).message.content;
  }

  /** The catalog id (or FINISH_TOKEN) an action turn names, or undefined when it names nothing known. */
  private resolveAction(text: string): string | undefined {
    const trimmed = text.trim();
    const direct = this.idOfText.get(trimmed);
    if (direct !== undefined) return direct;
    const parsed = parseToolGenAction(trimmed);
    if (parsed.kind === "finish") return FINISH_TOKEN;
    if (parsed.kind === "tool")
      return this.idOfText.get(parsed.token) ?? (this.entries.has(parsed.id) ? parsed.id : undefined);
    return undefined;
  }

  private async execute(
    entry: CatalogEntry,
    args: Record<string, unknown>,
    index: number,
    memoryId: string,
    chat: ChatOptions,
    rec: RunRecorder,
  ): Promise<{ ok: true; content: string } | { ok: false; error: string }> {
    const hook = this.options.execute;
    const tool: Tool = this.tools.get(entry.id) ?? {
      name: entry.id,
      description: entry.description,
      parameters: entry.parameters,
      ...(hook ? { execute: (a: Record<string, unknown>, c: ToolContext) => hook(entry, a, c) } : {}),
    };
    const call = {
      id: `toolgen_${index}`,
      type: "function" as const,
      function: { name: tool.name, arguments: args },
    };
    rec.record({ type: "tool_call", index, call });
    const context: ToolContext = { ...this.options.context, memoryId };
    if (chat.signal) context.signal = chat.signal;
    const started = performance.now();
    const result = await invokeTool(call, [tool], context);
    rec.record({ type: "tool_result", index, call, result, ms: Math.round(performance.now() - started) });
    return result.ok ? result : { ok: false, error: result.error.message };
  }
}

export function createToolGenAgent(options: ToolGenAgentOptions): ToolGenAgent {
  return new ToolGenAgent(options);
}

/** The function turn in ToolBench's form: {"error": …, "response": …}. */
function functionResult(name: string, error: string, response: string, role: "tool" | "user"): Message {
  const content = JSON.stringify({ error, response });
  return role === "tool" ? { role, name, content } : { role, content };
}
