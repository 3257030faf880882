import type { Message } from "../chat/messages.ts";
import type { JsonSchema, ToolJson } from "../tools/types.ts";
import type { LanguagePolicy } from "../constrain/policy.ts";

/** Constraints are data, not code; each adapter maps what its backend supports and says what it cannot. */
export type Constraint =
  | { kind: "choice"; options: string[] }
  /**
   * `copyFrom`: free string and number leaves may only copy from these texts (src/constrain/copy.ts); only
   * the built-in engine enforces it, other backends refuse it with UnsupportedConstraintError.
   * `quotesWhole[i]`: is text i's quoted text copied whole (default yes: for what a person typed, not for a
   * tool's result). `quotesFirst`: every quoted span is written (for a call's arguments).
   * `whole[i]`: is text i copied whole or not at all (a tool's result, reported by an answer)?
   * `quotesOnly[i]`: does text i give only what it quotes (the question, to an answer)?
   * `requestWords`: words never copied from what a person typed (the called tool's name: "sha256 of abc").
   * `edgeWords`: words a copy from what a person typed never starts with ("the word X", "this: X").
   * `description`: the called tool's description: the word it writes before a property's name ("in a text")
   * says which quoted span that property takes first.
   */
  | {
      kind: "json-schema";
      schema: JsonSchema;
      copyFrom?: string[];
      quotesWhole?: boolean[];
      quotesFirst?: boolean;
      whole?: boolean[];
      quotesOnly?: boolean[];
      requestWords?: string[];
      edgeWords?: string[];
      description?: string;
      /** What the copy constraint knows of the language and of property names (default englishPolicy). */
      policy?: LanguagePolicy;
    }
  | { kind: "grammar"; gbnf: string }
  | { kind: "tokens"; ids: number[] };

export type ToolChoice = "auto" | "none" | "required" | { name: string };

export interface GenerateOptions {
  tools?: ToolJson[];
  toolChoice?: ToolChoice;
  constraint?: Constraint;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  signal?: AbortSignal;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/**
 * A constraint a backend applied on its own to a turn it was asked freely (the demo model's `--candidates`:
 * a choice among `options` candidates built from `source`), so the caller can say what constrained the reply.
 */
export interface DecodedAs {
  kind: "choice";
  options: number;
  source?: string;
}

export interface GenerateResult {
  message: Message;
  usage: Usage;
  finishReason?: "stop" | "length" | "tool_calls" | "error";
  raw?: unknown;
  /** Set only when the backend constrained the reply beyond what `GenerateOptions.constraint` asked. */
  decodedAs?: DecodedAs;
}

/** Incremental output of `stream`: text deltas, tool-call fragments as they arrive, then the whole result. */
export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "tool_call_delta"; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: "done"; result: GenerateResult };

export interface ChatModel {
  readonly id: string;
  generate(messages: Message[], options?: GenerateOptions): Promise<GenerateResult>;
  stream(messages: Message[], options?: GenerateOptions): AsyncIterable<StreamEvent>;
}

/** A stateful evaluation session over a token prefix (a KV cache or a backend sequence). */
export interface TokenSession {
  /** Feeds tokens and returns the next-token logits after the last one. */
  append(ids: number[]): Promise<Float32Array>;
  /** An independent copy sharing the prefix computed so far (beam search branches with it). */
  fork(): Promise<TokenSession>;
  dispose(): void;
}

/** What constrained beam search needs. The built-in engine and node-llama-cpp implement it; HTTP backends do not. */
export interface TokenModel {
  readonly vocabSize: number;
  tokenize(text: string): number[];
  detokenize(ids: number[]): string;
  tokenId(token: string): number | undefined;
  logits(prefixIds: number[]): Promise<Float32Array>;
  session(): Promise<TokenSession>;
}
