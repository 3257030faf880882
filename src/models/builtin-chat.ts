import type { Message } from "../chat/messages.ts";
import { parseToolCalls, toAssistantMessage } from "../chat/parse/index.ts";
import { renderChat } from "../chat/templates/render.ts";
import { CopySource, jsonSchemaConstraint, toolCallSchema, ToolCallOrText } from "../constrain/index.ts";
import { pickToken } from "../nn/infer/decode.ts";
import { InferenceSession } from "../nn/infer/session.ts";
import { Rng } from "../nn/rng.ts";
import { BuiltinTokenModel } from "./builtin.ts";
import { CallerChatModel, isCallerFolder } from "./caller-chat.ts";
import { callerKind, FactoredCallerModel } from "./caller-factored.ts";
import type { ToolJson } from "../tools/types.ts";
import type {
  ChatModel,
  Constraint,
  GenerateOptions,
  GenerateResult,
  StreamEvent,
  ToolChoice,
} from "./model.ts";
import { ToolgenError } from "../errors.ts";

const END_TOKENS = ["<|eot_id|>", "<|end_of_text|>", "<|eom_id|>"];

/**
 * The built-in engine as a ChatModel over the Llama-3 chat format: messages are rendered with the shipped
 * `llama3` template (`llama3.1` when tools are given, whose JSON tool-call format the output is parsed with),
 * then decoded from a KV cache until <|eot_id|>. Constraints: `tokens` (every generated token is one of the
 * ids), `choice` (the reply is exactly one of the options, decoded over a trie of their tokens) and
 * `json-schema` (the reply is compact JSON the schema accepts, token by token: src/constrain); `grammar` is
 * refused with a clear error. With tools, a tool call is decoded under its tool's schema: the whole reply
 * when toolChoice is "required" or names a tool, otherwise from the moment the reply opens with `{`.
 */
export class BuiltinChatModel implements ChatModel {
  readonly id: string;

  constructor(readonly tokens: BuiltinTokenModel) {
    this.id = tokens.id;
  }

  static load(dir: string): BuiltinChatModel {
    return new BuiltinChatModel(BuiltinTokenModel.load(dir));
  }

  async generate(messages: Message[], options: GenerateOptions = {}): Promise<GenerateResult> {
    let result: GenerateResult | undefined;
    for await (const event of this.stream(messages, options))
      if (event.type === "done") result = event.result;
    return result!;
  }

  async *stream(messages: Message[], options: GenerateOptions = {}): AsyncIterable<StreamEvent> {
    const tok = this.tokens.tokenizer;
    const hasTools = (options.tools?.length ?? 0) > 0 && options.toolChoice !== "none";
    const prompt = renderChat(hasTools ? "llama3.1" : "llama3", messages, {
      tools: hasTools ? options.tools : undefined,
      addGenerationPrompt: true,
    });
    const promptIds = tok.encode(prompt);
    const model = this.tokens.model;
    const endIds = END_TOKENS.map((t) => tok.tokenToId(t)).filter((id): id is number => id !== undefined);
    const room = model.config.maxPositions - promptIds.length;
    if (room < 1) {
      throw new ToolgenError("invalid_option", 
        `the prompt is ${promptIds.length} tokens; the model's context is ${model.config.maxPositions}`,
      );
    }
    const maxTokens = Math.min(options.maxTokens ?? 256, room);
    const allowed =
      constraintFilter(options.constraint, this.tokens, endIds) ??
      (hasTools ? toolCallFilter(options.tools!, options.toolChoice, this.tokens, endIds) : undefined);
    const rng = new Rng(options.seed ?? 0);
    const session = new InferenceSession(model);
    const ids: number[] = [];
    let text = "";
    let finish: GenerateResult["finishReason"] = "length";
    try {
      let logits = session.append(promptIds);
      while (ids.length < maxTokens) {
        if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
        const allow = allowed?.next(ids, maxTokens - ids.length);
        if (allow && allow.length === 0) {
          finish = "stop"; // a choice is complete and nothing may follow it
          break;
        }
        const id = pickToken(logits, { temperature: options.temperature, topP: options.topP }, rng, allow);
        if (endIds.includes(id)) {
          finish = "stop";
          break;
        }
        allowed?.accept(id);
        ids.push(id);
        const full = tok.decode(ids);
        const stopAt = firstStop(full, options.stop);
        const visible = stopAt === undefined ? full : full.slice(0, stopAt);
        // emit only settled text: a multi-byte character split across tokens decodes to U+FFFD until complete
        if (visible.length > text.length && !visible.endsWith("\uFFFD")) {
          yield { type: "text", delta: visible.slice(text.length) };
          text = visible;
        }
        if (stopAt !== undefined) {
          finish = "stop";
          break;
        }
        if (ids.length < maxTokens) logits = session.append([id]);
        await new Promise<void>((resolve) => setImmediate(resolve)); // let abort signals and other work in
      }
    } finally {
      session.dispose();
    }
    const full = tok.decode(ids);
    const stopAt = firstStop(full, options.stop);
    const final = stopAt === undefined ? full : full.slice(0, stopAt);
    if (final.length > text.length) yield { type: "text", delta: final.slice(text.length) };
    text = final;
    const parsed = hasTools ? parseToolCalls("llama3-json", text) : undefined;
    const message = parsed ? toAssistantMessage(parsed) : { role: "assistant" as const, content: text };
    if (message.tool_calls?.length) finish = "tool_calls";
    yield {
      type: "done",
      result: {
        message,
        usage: { promptTokens: promptIds.length, completionTokens: ids.length },
        finishReason: finish,
        raw: { text, ids },
      },
    };
  }
}

function firstStop(text: string, stops: string[] | undefined): number | undefined {
  let at: number | undefined;
  for (const s of stops ?? []) {
    const i = s ? text.indexOf(s) : -1;
    if (i >= 0 && (at === undefined || i < at)) at = i;
  }
  return at;
}

/** Per step: the allowed next ids (undefined: any), then the id taken. */
interface TokenFilter {
  next(generated: readonly number[], tokensLeft: number): readonly number[] | undefined;
  accept(id: number): void;
}

function stateless(next: (generated: readonly number[]) => readonly number[]): TokenFilter {
  return { next, accept: () => {} };
}

/** The filter for a constraint, or undefined for free decoding. */
function constraintFilter(
  c: Constraint | undefined,
  model: BuiltinTokenModel,
  endIds: number[],
): TokenFilter | undefined {
  if (!c) return undefined;
  if (c.kind === "json-schema") {
    const constraint = jsonSchemaConstraint(c.schema, model.tokenizer, endIds, {
      vocabSize: model.vocabSize,
      ...(c.copyFrom
        ? {
            copy: new CopySource(c.copyFrom, {
              quotesWhole: c.quotesWhole,
              quotesFirst: c.quotesFirst,
              whole: c.whole,
              quotesOnly: c.quotesOnly,
              requestWords: c.requestWords,
              edgeWords: c.edgeWords,
              description: c.description,
              policy: c.policy,
            }),
          }
        : {}),
    });
    return { next: (_, left) => constraint.allowed(left), accept: (id) => constraint.accept(id) };
  }
  if (c.kind === "tokens") {
    if (c.ids.length === 0) throw new ToolgenError("invalid_option", "constraint tokens: ids is empty");
    for (const id of c.ids) {
      if (!(Number.isInteger(id) && id >= 0 && id < model.vocabSize))
        throw new ToolgenError("invalid_option", `constraint tokens: id ${id} is not in the vocabulary`);
    }
    return stateless(() => c.ids);
  }
  if (c.kind === "choice") {
    if (c.options.length === 0) throw new ToolgenError("invalid_option", "constraint choice: options is empty");
    const seqs = c.options.map((o) => model.tokenize(o));
    return stateless((generated) => {
      const next = new Set<number>();
      for (const s of seqs) {
        if (s.length < generated.length || !generated.every((id, i) => s[i] === id)) continue;
        if (s.length === generated.length) endIds.slice(0, 1).forEach((e) => next.add(e));
        else next.add(s[generated.length]);
      }
      return [...next];
    });
  }
  throw new ToolgenError("invalid_option", 
    `the built-in model does not support "${c.kind}" constraints; supported: tokens, choice, json-schema`,
  );
}

/**
 * Tool calls in Llama 3.1's JSON form under the tools' schemas: the whole reply for toolChoice "required" or
 * a named tool, otherwise only once the reply opens with `{` (free text stays free).
 */
function toolCallFilter(
  tools: ToolJson[],
  choice: ToolChoice | undefined,
  model: BuiltinTokenModel,
  endIds: number[],
): TokenFilter {
  const named = typeof choice === "object" ? tools.filter((t) => t.function.name === choice.name) : tools;
  if (named.length === 0) throw new ToolgenError("invalid_option", `toolChoice names ${JSON.stringify(choice)}, which is not a given tool`);
  const constraint = jsonSchemaConstraint(toolCallSchema(named), model.tokenizer, endIds, {
    vocabSize: model.vocabSize,
  });
  if (choice === "required" || typeof choice === "object") {
    return { next: (_, left) => constraint.allowed(left), accept: (id) => constraint.accept(id) };
  }
  const either = new ToolCallOrText(constraint, model.vocabSize);
  return { next: (_, left) => either.allowed(left), accept: (id) => either.accept(id) };
}

/** `builtin:DIR` for resolveModel: a checkpoint folder of the built-in engine. */
export function resolveBuiltin(rest: string, _options: unknown, spec: string): ChatModel {
  if (rest === "")
    throw new ToolgenError("model_spec", `model spec ${JSON.stringify(spec)} names no folder; expected builtin:DIR`);
  try {
    // a folder with caller.json is a general function caller: the factored one (caller-factored.ts) when its
    // kind says so, else the language-model caller (caller-chat.ts)
    if (isCallerFolder(rest)) return callerKind(rest) === "factored" ? FactoredCallerModel.load(rest) : CallerChatModel.load(rest);
    return BuiltinChatModel.load(rest);
  } catch (error) {
    throw new ToolgenError("model_spec", `model spec ${JSON.stringify(spec)}: ${(error as Error).message}`, { cause: error });
  }
}
