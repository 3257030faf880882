/**
 * llama.cpp through node-llama-cpp (an optional dependency, loaded on first use) as a TokenModel — next-token
 * log-probabilities for ToolGen retrieval and constrained beam search over tool tokens — and as a ChatModel
 * (chat with tools; tool arguments constrained by a grammar built from the tool's schema).
 * Model specs: `gguf:PATH` (or a plain .gguf path) and `hf:USER/REPO/FILE` (node-llama-cpp's resolver).
 */
import type { Message } from "../chat/messages.ts";
import type {
  ChatModel,
  GenerateOptions,
  GenerateResult,
  StreamEvent,
  TokenModel,
  TokenSession,
} from "./model.ts";
import { generateChat, streamChat, type ChatBackend } from "./llamacpp/chat.ts";
import {
  createContext,
  loadModelFile,
  resolveGgufFile,
  type ContextOptions,
  type LlamaCppContext,
  type LlamaCppModelFile,
  type LlamaCppToken,
} from "./llamacpp/runtime.ts";
import {
  LlamaCppTokenSession,
  SharedSequence,
  type GeneratedTokens,
  type TokenGeneration,
} from "./llamacpp/sequence.ts";
import { ToolgenError } from "../errors.ts";

export { llamaCppAvailable, MISSING_MESSAGE as LLAMA_CPP_MISSING } from "./llamacpp/runtime.ts";

/** Whether a model spec names a llama.cpp model: `gguf:PATH`, `hf:USER/REPO/FILE`, or a path ending in .gguf. */
export function isLlamaCppSpec(spec: string | undefined): spec is string {
  return spec !== undefined && (spec.startsWith("gguf:") || spec.startsWith("hf:") || spec.endsWith(".gguf"));
}

export interface LlamaCppOptions extends ContextOptions {
  /** Where `hf:` models are cached (node-llama-cpp's default otherwise). */
  directory?: string;
  /** Set false to resolve `hf:` specs only from the cache. */
  download?: boolean;
}

interface Vocabulary {
  tokens: readonly string[];
}

export class LlamaCppModel implements ChatModel, TokenModel {
  readonly vocabSize: number;
  private readonly shared: SharedSequence;
  private readonly byText = new Map<string, number>();

  private constructor(
    readonly id: string,
    readonly file: LlamaCppModelFile,
    readonly context: LlamaCppContext,
    vocab: Vocabulary,
  ) {
    this.vocabSize = vocab.tokens.length;
    vocab.tokens.forEach((t, i) => {
      if (!this.byText.has(t)) this.byText.set(t, i);
    });
    // Never shift the context silently (it would drop the start of the prompt): a full context is an error.
    const sequence = context.getSequence({
      contextShift: {
        strategy: () => {
          throw new ToolgenError("model_failure", `llama.cpp: the context (${context.contextSize - 1} tokens) is full`);
        },
      },
    });
    this.shared = new SharedSequence(sequence, this.vocabSize, context.contextSize - 1);
  }

  /** Loads a model from a spec (`gguf:PATH`, `hf:USER/REPO/FILE`) or a path to a .gguf file. */
  static async load(spec: string, options: LlamaCppOptions = {}): Promise<LlamaCppModel> {
    const path = await resolveGgufFile(spec, options);
    const file = await loadModelFile(path);
    const tokens = ggufTokens(file);
    const context = await createContext(file, options);
    const id = spec.startsWith("gguf:") || spec.startsWith("hf:") ? spec : `gguf:${spec}`;
    return new LlamaCppModel(id, file, context, { tokens });
  }

  /** A metadata value of the file by its GGUF key (`general.name`, `toolgen.index`, …). */
  metadata(key: string): unknown {
    let v: unknown = this.file.fileInfo.metadata;
    for (const part of key.split(".")) {
      if (typeof v !== "object" || v === null) return undefined;
      v = (v as Record<string, unknown>)[part];
    }
    return v;
  }

  /** The chat template stored in the file (tokenizer.chat_template), if any. */
  get chatTemplate(): string | undefined {
    const t = (this.file.fileInfo.metadata as { tokenizer?: { chat_template?: unknown } }).tokenizer
      ?.chat_template;
    return typeof t === "string" ? t : undefined;
  }

  /** Text -> ids as llama.cpp tokenizes it; special and user-defined tokens (tool tokens) are recognised. */
  tokenize(text: string): number[] {
    return Array.from(this.file.tokenize(text, true));
  }

  detokenize(ids: number[]): string {
    return this.file.detokenize(ids as LlamaCppToken[], true);
  }

  tokenId(token: string): number | undefined {
    const direct = this.byText.get(token);
    if (direct !== undefined) return direct;
    const ids = this.file.tokenize(token, true);
    return ids.length === 1 && this.file.detokenize(ids, true) === token ? ids[0] : undefined;
  }

  /**
   * Next-token scores after `prefixIds`: log-probabilities (llama.cpp's logits minus their log-sum-exp, so
   * rankings, argmax and softmax are those of the logits). Tokens with probability 0 score -Infinity.
   */
  async logits(prefixIds: number[]): Promise<Float32Array> {
    if (prefixIds.length === 0) throw new ToolgenError("invalid_option", "logits: the prefix needs at least one token");
    return this.shared.logProbs(prefixIds);
  }

  /** Log-probabilities after several positions of one token sequence, in one evaluation. */
  async logitsAt(ids: number[], positions: number[]): Promise<Float32Array[]> {
    return this.shared.logProbsAt(ids, positions);
  }

  /**
   * Token-level generation after `prompt` (greedy unless a temperature is given); stops at an end-of-generation
   * token (not included) or after maxTokens.
   */
  generateTokens(
    prompt: number[],
    options: Omit<TokenGeneration, "onToken"> & { maxTokens: number },
  ): Promise<GeneratedTokens> {
    return this.shared.generate(prompt, options);
  }

  async session(): Promise<TokenSession> {
    return new LlamaCppTokenSession(this.shared);
  }

  generate(messages: Message[], options: GenerateOptions = {}): Promise<GenerateResult> {
    return generateChat(this.chatBackend(), messages, options);
  }

  stream(messages: Message[], options: GenerateOptions = {}): AsyncIterable<StreamEvent> {
    return streamChat(this.chatBackend(), messages, options);
  }

  async dispose(): Promise<void> {
    await this.context.dispose();
    await this.file.dispose();
  }

  private chatBackend(): ChatBackend {
    const template = this.chatTemplate;
    return {
      id: this.id,
      model: this.file,
      shared: this.shared,
      template: template
        ? {
            source: template,
            bosToken: this.file.tokens.bosString ?? "",
            eosToken: this.file.tokens.eosString ?? "",
          }
        : undefined,
    };
  }
}

/** The token strings of the file, in id order (what tokenId looks up). */
function ggufTokens(file: LlamaCppModelFile): string[] {
  const md = file.fileInfo.metadata as { tokenizer?: { ggml?: { tokens?: unknown } } };
  const tokens = md.tokenizer?.ggml?.tokens;
  if (Array.isArray(tokens) && tokens.every((t) => typeof t === "string")) return tokens as string[];
  throw new ToolgenError("model_failure", 
    `${file.filename ?? "GGUF file"}: tokenizer.ggml.tokens is missing; cannot serve it as a TokenModel`,
  );
}
