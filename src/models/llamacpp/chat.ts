/**
 * Chat generation on llama.cpp for the ChatModel contract. Tool calls are written as Hermes `<tool_call>`
 * blocks whose JSON is constrained by a grammar built from the tools' schemas: with toolChoice "required" or a
 * named tool the whole reply is one such block; with "auto" the model writes freely and, once it opens
 * `<tool_call>`, finishes the block under the grammar. `constraint` maps to a grammar (json-schema, grammar,
 * choice) or a token mask (tokens). One tool call per reply.
 */
import type { Message } from "../../chat/messages.ts";
import type { ToolCall, ToolJson } from "../../tools/types.ts";
import { UnsupportedConstraintError } from "../http-errors.ts";
import type { Constraint, GenerateOptions, GenerateResult, StreamEvent } from "../model.ts";
import { choiceGrammar, gbnfLiteral, GrammarBuilder, jsonSchemaGrammar } from "./grammar.ts";
import { renderPrompt, TOOL_CALL_CLOSE, TOOL_CALL_OPEN, type PromptTemplate } from "./prompt.ts";
import { llamaRuntime, nodeLlamaCpp, type LlamaCppModelFile, type LlamaCppToken } from "./runtime.ts";
import type { SharedSequence, TokenGeneration } from "./sequence.ts";
import { ToolgenError } from "../../errors.ts";

export interface ChatBackend {
  id: string;
  model: LlamaCppModelFile;
  shared: SharedSequence;
  template?: PromptTemplate;
}

const DEFAULT_MAX_TOKENS = 512;

/** `"\n" {"name": …, "arguments": …} "\n</tool_call>"`, one alternative per tool. */
export function toolCallGrammar(tools: ToolJson[], withOpenTag: boolean): string {
  const b = new GrammarBuilder();
  const ws = b.primitive("ws");
  const calls = tools.map((t) => {
    b.setRoot(t.function.parameters);
    const args = b.schema(t.function.parameters, `${t.function.name}-args`);
    const name = gbnfLiteral(JSON.stringify(t.function.name));
    return b.rule(
      `"{" ${ws} "\\"name\\":" ${ws} ${name} "," ${ws} "\\"arguments\\":" ${ws} ${args} ${ws} "}"`,
      "call",
    );
  });
  const open = withOpenTag ? `${gbnfLiteral(TOOL_CALL_OPEN)} ` : "";
  return b.build(`${open}"\\n" ( ${calls.join(" | ")} ) "\\n" ${gbnfLiteral(TOOL_CALL_CLOSE)}`);
}

function constraintGrammar(c: Constraint): string | undefined {
  switch (c.kind) {
    case "json-schema":
      if (c.copyFrom)
        throw new UnsupportedConstraintError("llama.cpp grammars cannot copy values from the conversation (copyFrom)");
      return jsonSchemaGrammar(c.schema);
    case "grammar":
      return c.gbnf;
    case "choice":
      return choiceGrammar(c.options);
    case "tokens":
      return undefined;
    default:
      throw new ToolgenError("invalid_option", `llama.cpp: unknown constraint kind ${JSON.stringify((c as { kind: unknown }).kind)}`);
  }
}

async function grammarState(
  model: LlamaCppModelFile,
  gbnf: string,
): Promise<TokenGeneration["grammarEvaluationState"]> {
  const [llama, m] = await Promise.all([llamaRuntime(), nodeLlamaCpp()]);
  let grammar;
  try {
    grammar = await llama.createGrammar({ grammar: gbnf });
  } catch (e) {
    throw new ToolgenError("model_failure", `llama.cpp rejected the grammar: ${(e as Error).message}`, { cause: e });
  }
  return new m.LlamaGrammarEvaluationState({ model, grammar });
}

/** Text deltas from token ids: whole characters only, stop strings cut, text that may start one held back. */
class TextTracker {
  ids: number[] = [];
  emitted = 0;
  text = "";
  stoppedAt: string | undefined;

  constructor(
    private readonly model: LlamaCppModelFile,
    private readonly stops: string[],
    private readonly emit: (delta: string) => void,
  ) {}

  /** Adds a token; returns true when a stop string appeared. */
  push(id: number): boolean {
    this.ids.push(id);
    const full = this.model.detokenize(this.ids as LlamaCppToken[], false);
    if (full.endsWith("\uFFFD")) return false; // a character split across tokens: wait for the rest
    this.text = full;
    for (const s of this.stops) {
      const at = this.text.indexOf(s);
      if (at >= 0) {
        this.text = this.text.slice(0, at);
        this.stoppedAt = s;
        this.flush(this.text.length);
        return true;
      }
    }
    const hold = Math.max(0, ...this.stops.map((s) => s.length - 1));
    this.flush(Math.max(this.emitted, this.text.length - hold));
    return false;
  }

  flush(upTo = this.text.length): void {
    if (upTo > this.emitted) {
      this.emit(this.text.slice(this.emitted, upTo));
      this.emitted = upTo;
    }
  }
}

/** The call inside a grammar-constrained block; undefined when maxTokens cut it before it was complete. */
function parseCall(text: string, index: number): ToolCall | undefined {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  let value: { name?: unknown; arguments?: unknown };
  try {
    value = JSON.parse(text.slice(start, end + 1)) as typeof value;
  } catch {
    return undefined;
  }
  if (typeof value?.name !== "string") return undefined;
  return {
    id: `call_${index}`,
    type: "function",
    function: { name: value.name, arguments: (value.arguments ?? {}) as Record<string, unknown> },
  };
}

/** The whole exchange as stream events; `generate` drains it. */
export async function* runChat(
  backend: ChatBackend,
  messages: Message[],
  options: GenerateOptions = {},
): AsyncGenerator<StreamEvent> {
  const { model, shared } = backend;
  const choice = options.toolChoice ?? "auto";
  let tools = choice === "none" ? [] : (options.tools ?? []);
  if (typeof choice === "object") {
    tools = tools.filter((t) => t.function.name === choice.name);
    if (tools.length === 0)
      throw new ToolgenError("invalid_option", `toolChoice names "${choice.name}", which is not among the tools`);
  }
  if (choice === "required" && tools.length === 0)
    throw new ToolgenError("invalid_option", 'toolChoice "required" needs at least one tool');
  const promptText = renderPrompt(backend.template, messages, tools);
  const prompt = model.tokenize(promptText, true) as number[];
  let budget = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const base: Omit<TokenGeneration, "maxTokens"> = {
    temperature: options.temperature,
    topP: options.topP,
    seed: options.seed,
    signal: options.signal,
  };

  // Events are produced inside the generation callback and handed out as the tokens arrive.
  const pending: StreamEvent[] = [];
  let wake: (() => void) | undefined;
  const push = (e: StreamEvent) => {
    pending.push(e);
    wake?.();
  };
  async function* drain<T>(work: Promise<T>): AsyncGenerator<StreamEvent, T> {
    let done = false;
    let result: T | undefined;
    let failure: unknown;
    work.then(
      (r) => ((result = r), (done = true), wake?.()),
      (e: unknown) => ((failure = e), (done = true), wake?.()),
    );
    for (;;) {
      while (pending.length > 0) yield pending.shift()!;
      if (done) break;
      await new Promise<void>((r) => (wake = r));
    }
    while (pending.length > 0) yield pending.shift()!;
    if (failure !== undefined) throw failure;
    return result as T;
  }

  let content = "";
  let completion: number;
  let finishReason: GenerateResult["finishReason"];
  const calls: ToolCall[] = [];
  const forced = tools.length > 0 && choice !== "auto";

  if (options.constraint || forced) {
    const gbnf = forced ? toolCallGrammar(tools, true) : constraintGrammar(options.constraint!);
    const tracker = new TextTracker(model, forced ? [] : (options.stop ?? []), (d) => {
      if (!forced) push({ type: "text", delta: d });
    });
    const grammar = gbnf ? await grammarState(model, gbnf) : undefined;
    const onToken = (id: number) => tracker.push(id);
    const gen = yield* drain(
      options.constraint?.kind === "tokens"
        ? shared.generateAmong(prompt, options.constraint.ids, {
            ...base,
            maxTokens: budget,
            onToken,
            isEnd: (id) => model.isEogToken(id as LlamaCppToken),
          })
        : shared.generate(prompt, { ...base, maxTokens: budget, grammarEvaluationState: grammar, onToken }),
    );
    tracker.flush();
    while (pending.length > 0) yield pending.shift()!;
    completion = gen.ids.length;
    finishReason = gen.finishReason;
    if (!forced) content = tracker.text;
    else {
      const call = parseCall(tracker.text, 0);
      if (call) calls.push(call);
      else content = tracker.text; // cut off by maxTokens: finishReason says "length"
    }
  } else {
    const stops = [...(options.stop ?? []), ...(tools.length > 0 ? [TOOL_CALL_OPEN] : [])];
    const tracker = new TextTracker(model, stops, (d) => push({ type: "text", delta: d }));
    const gen = yield* drain(
      shared.generate(prompt, { ...base, maxTokens: budget, onToken: (id) => tracker.push(id) }),
    );
    tracker.flush();
    while (pending.length > 0) yield pending.shift()!;
    completion = gen.ids.length;
    finishReason = gen.finishReason;
    content = tracker.text;
    budget -= gen.ids.length;
    if (tracker.stoppedAt === TOOL_CALL_OPEN) {
      // The model opened a tool call: finish it under the grammar of the tools' schemas.
      const callPrompt = model.tokenize(promptText + content + TOOL_CALL_OPEN, true) as number[];
      const callTracker = new TextTracker(model, [], () => undefined);
      const call = await shared.generate(callPrompt, {
        ...base,
        maxTokens: Math.max(budget, 1),
        grammarEvaluationState: await grammarState(model, toolCallGrammar(tools, false)),
        onToken: (id) => callTracker.push(id),
      });
      callTracker.flush();
      completion += call.ids.length;
      finishReason = call.finishReason;
      const parsed = parseCall(callTracker.text, 0);
      if (parsed) calls.push(parsed);
      else content += TOOL_CALL_OPEN + callTracker.text;
    }
  }

  for (const [index, c] of calls.entries()) {
    yield {
      type: "tool_call_delta",
      index,
      id: c.id,
      name: c.function.name,
      argumentsDelta: JSON.stringify(c.function.arguments),
    };
  }
  const message: Message = { role: "assistant", content: content.trim() };
  if (calls.length > 0) {
    message.tool_calls = calls;
    if (finishReason === "stop") finishReason = "tool_calls";
  }
  yield {
    type: "done",
    result: {
      message,
      usage: { promptTokens: prompt.length, completionTokens: completion },
      finishReason,
      raw: { prompt: promptText },
    },
  };
}

export async function generateChat(
  backend: ChatBackend,
  messages: Message[],
  options?: GenerateOptions,
): Promise<GenerateResult> {
  for await (const event of runChat(backend, messages, options))
    if (event.type === "done") return event.result;
  throw new ToolgenError("model_failure", "llama.cpp: generation ended without a result");
}

export function streamChat(
  backend: ChatBackend,
  messages: Message[],
  options?: GenerateOptions,
): AsyncIterable<StreamEvent> {
  return runChat(backend, messages, options);
}
