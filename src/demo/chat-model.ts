import type { Message } from "../chat/messages.ts";
import type { BuiltinTokenModel } from "../models/builtin.ts";
import { UnsupportedConstraintError } from "../models/http-errors.ts";
import type {
  ChatModel,
  Constraint,
  DecodedAs,
  GenerateOptions,
  GenerateResult,
  StreamEvent,
} from "../models/model.ts";
import { pickToken } from "../nn/infer/decode.ts";
import { InferenceSession } from "../nn/infer/session.ts";
import { Rng } from "../nn/rng.ts";
import { decodeIds } from "../retrieval/constrained-beam.ts";
import { TokenTrie } from "../retrieval/trie.ts";
import { IM_END, encodeChat } from "../toolgen/chat-encoding.ts";
import { argumentChoice } from "./arguments.ts";
import {
  beamDecodeConstrained,
  CopySource,
  decodeConstrained,
  jsonSchemaConstraint,
} from "../constrain/index.ts";

export interface ToolGenChatModelOptions {
  /** Cut non-assistant contents to this many tokens, as the training did (schedule.maxContentTokens). */
  maxContentTokens: number;
  /**
   * Cut tool results to this many tokens instead (default: maxContentTokens). A longer cut lets the model read
   * a whole long result (a hash, a file) to copy it into its final answer.
   */
  maxToolContentTokens?: number;
  /**
   * Turn an unconstrained arguments turn into a choice among candidates built from the question (arguments.ts);
   * default false. The demo asks for the tool's JSON Schema instead, so the model writes the arguments itself.
   */
  constrainArguments?: boolean;
  /** Beam width for choice decoding (default 3). */
  beams?: number;
  /**
   * Beam width for `json-schema` replies decoded greedily (default 1: greedy, token by token). Above 1 the
   * likeliest whole value of that many beams is taken (src/constrain/beam.ts); sampling stays single-path.
   */
  schemaBeams?: number;
  /** With `schemaBeams`, finished values compared by mean log-probability per token (beam.ts `perToken`). */
  schemaBeamsPerToken?: boolean;
}

/** The chat formats a ToolGen folder may be trained in, told apart by the token that ends a turn. */
const FORMATS = [
  { format: "llama3", end: "<|eot_id|>" },
  { format: "chatml", end: IM_END },
] as const;

/**
 * A trained ToolGen folder as a ChatModel that encodes conversations exactly as the training did (the folder's
 * chat format, contents cut to `maxContentTokens`): free greedy or sampled decoding until the turn ends, or a
 * `choice` constraint decoded by beam search over a trie of the options' tokens, or a `json-schema` constraint
 * (the model writes the value itself, token by token, under a mask that keeps it a valid instance of the
 * schema: src/constrain). Other constraint kinds are refused. With `constrainArguments`, an unconstrained
 * arguments turn of the ToolGen agent becomes a choice among the candidates of arguments.ts, and the result says
 * so (`decodedAs`).
 */
export class ToolGenChatModel implements ChatModel {
  readonly id: string;
  private readonly trieCache = new Map<string, TokenTrie>();
  private readonly format: (typeof FORMATS)[number]["format"];
  private readonly endId: number;

  constructor(
    readonly tokens: BuiltinTokenModel,
    private readonly options: ToolGenChatModelOptions,
  ) {
    this.id = tokens.id;
    const found = FORMATS.find((f) => tokens.tokenId(f.end) !== undefined);
    if (!found) {
      throw new Error(
        `${tokens.id}: the tokenizer has no turn-end token (${FORMATS.map((f) => f.end).join(" or ")})`,
      );
    }
    this.format = found.format;
    this.endId = tokens.tokenId(found.end)!;
  }

  private prompt(messages: Message[], room: number): number[] {
    const toolCut = this.options.maxToolContentTokens;
    if (toolCut !== undefined) {
      // Everything but tool results is cut as in training; tool results get their own, longer cut.
      const cut = this.options.maxContentTokens;
      messages = messages.map((m) => {
        if (m.role === "assistant") return m;
        const ids = this.tokens.tokenize(m.content);
        const limit = m.role === "tool" ? toolCut : cut;
        return ids.length > limit ? { ...m, content: this.tokens.detokenize(ids.slice(0, limit)) } : m;
      });
    }
    const tokenizer = {
      encode: (t: string) => this.tokens.tokenize(t),
      tokenToId: (t: string) => this.tokens.tokenId(t),
    };
    // `format` is read by encoders that know several chat formats and ignored by a ChatML-only one.
    const settings = {
      format: this.format,
      generationPrompt: true,
      ...(toolCut === undefined ? { maxContentTokens: this.options.maxContentTokens } : {}),
      maxLength: this.tokens.model.config.maxPositions - room,
    };
    return encodeChat(tokenizer, messages, settings).ids;
  }

  /** The trie of the options' tokens, each followed by the turn-end token (so no option is another's prefix). */
  private trieFor(options: string[]): TokenTrie {
    const key = options.join("\u0000");
    let trie = this.trieCache.get(key);
    if (!trie) {
      trie = new TokenTrie();
      for (const o of options) trie.insert([...this.tokens.tokenize(o), this.endId], o);
      if (this.trieCache.size > 32) this.trieCache.clear();
      this.trieCache.set(key, trie);
    }
    return trie;
  }

  /**
   * The `beams` likeliest of `options` as the model's reply to `messages` (each with the turn-end token), best
   * first, with their log-probabilities: what an action decoder that weighs the model's choice needs.
   */
  async rankChoice(
    messages: Message[],
    options: string[],
    beams: number,
  ): Promise<{ option: string; logProb: number }[]> {
    const trie = this.trieFor(options);
    const prompt = this.prompt(messages, trie.maxDepth + 1);
    const ranked = await decodeIds(this.tokens, prompt, trie, { beams, endToken: this.endId });
    return ranked.flatMap((h) => (h.id === undefined ? [] : [{ option: h.id, logProb: h.logProb }]));
  }

  async generate(messages: Message[], options: GenerateOptions = {}): Promise<GenerateResult> {
    let result: GenerateResult | undefined;
    for await (const event of this.stream(messages, options))
      if (event.type === "done") result = event.result;
    return result!;
  }

  async *stream(messages: Message[], options: GenerateOptions = {}): AsyncIterable<StreamEvent> {
    const c = options.constraint;
    if (c && c.kind !== "choice" && c.kind !== "json-schema") {
      throw new UnsupportedConstraintError(
        `the built-in ToolGen model supports only "choice" and "json-schema" constraints, not "${c.kind}"`,
      );
    }
    if (c?.kind === "json-schema") {
      yield* this.streamSchema(messages, c, options);
      return;
    }
    const auto = !c && this.options.constrainArguments === true ? argumentChoice(messages) : undefined;
    const choice = c?.kind === "choice" ? c.options : auto?.options;
    let text: string;
    let promptTokens: number;
    let completionTokens: number;
    const decodedAs: DecodedAs | undefined = auto
      ? { kind: "choice", options: auto.options.length, source: auto.source }
      : undefined;
    if (choice) {
      if (choice.length === 0) throw new Error("a choice constraint needs at least one option");
      const trie = this.trieFor(choice);
      const prompt = this.prompt(messages, trie.maxDepth + 1);
      const [best] = await decodeIds(this.tokens, prompt, trie, {
        beams: choice.length === 1 ? 1 : (this.options.beams ?? 1),
        endToken: this.endId,
      });
      text = best?.id ?? choice[0]!;
      promptTokens = prompt.length;
      completionTokens = best?.tokens.length ?? 0;
    } else {
      const max = options.maxTokens ?? 64;
      const prompt = this.prompt(messages, max);
      const rng = new Rng(options.seed ?? 0);
      const session = new InferenceSession(this.tokens.model);
      const ids: number[] = [];
      try {
        let logits = session.append(prompt);
        while (ids.length < max) {
          if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
          const id = pickToken(logits, { temperature: options.temperature, topP: options.topP }, rng);
          if (id === this.endId) break;
          ids.push(id);
          logits = session.append([id]);
        }
      } finally {
        session.dispose();
      }
      text = this.tokens.detokenize(ids);
      promptTokens = prompt.length;
      completionTokens = ids.length;
    }
    yield { type: "text", delta: text };
    yield {
      type: "done",
      result: {
        message: { role: "assistant", content: text },
        usage: { promptTokens, completionTokens },
        finishReason: "stop",
        ...(decodedAs ? { decodedAs } : {}),
      },
    };
  }

  /**
   * A reply written by the model under a JSON Schema (and, with `copyFrom`, the copy constraint): greedy (or
   * sampled) over the ids the schema allows.
   */
  private async *streamSchema(
    messages: Message[],
    c: Extract<Constraint, { kind: "json-schema" }>,
    options: GenerateOptions,
  ): AsyncIterable<StreamEvent> {
    const max = options.maxTokens ?? 96;
    const prompt = this.prompt(messages, max + 1);
    const constraint = jsonSchemaConstraint(c.schema, this.tokens.tokenizer, [this.endId], {
      vocabSize: this.tokens.model.config.vocabSize,
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
    const beams = this.options.schemaBeams ?? 1;
    const session = new InferenceSession(this.tokens.model);
    let ids: number[];
    // Not the final answer (a copy of the tool result): there a beam favours the short declining branch.
    const final = c.copyFrom?.includes("observation") === true;
    if (beams > 1 && !final && !(options.temperature && options.temperature > 0)) {
      // the search disposes of the session and every branch of it
      ({ ids } = beamDecodeConstrained(session, prompt, constraint, {
        maxTokens: max,
        beams,
        perToken: this.options.schemaBeamsPerToken === true,
        ...(options.signal ? { signal: options.signal } : {}),
      }));
    } else
      try {
        ({ ids } = decodeConstrained(session, prompt, constraint, {
          maxTokens: max,
          temperature: options.temperature,
          topP: options.topP,
          seed: options.seed ?? 0,
          ...(options.signal ? { signal: options.signal } : {}),
        }));
      } finally {
        session.dispose();
      }
    const text = this.tokens.detokenize(ids);
    yield { type: "text", delta: text };
    yield {
      type: "done",
      result: {
        message: { role: "assistant", content: text },
        usage: { promptTokens: prompt.length, completionTokens: ids.length },
        finishReason: "stop",
      },
    };
  }
}
