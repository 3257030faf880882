import { loadCheckpoint } from "../nn/checkpoint.ts";
import { InferenceSession } from "../nn/infer/session.ts";
import type { Llama } from "../nn/llama.ts";
import type { Tokenizer } from "../nn/tokenizer/index.ts";
import type { TokenModel, TokenSession } from "./model.ts";
import { ToolgenError } from "../errors.ts";

/** A TokenSession over the engine's KV cache. */
class BuiltinSession implements TokenSession {
  constructor(private readonly inner: InferenceSession) {}

  async append(ids: number[]): Promise<Float32Array> {
    return this.inner.append(ids);
  }

  async fork(): Promise<TokenSession> {
    return new BuiltinSession(this.inner.fork());
  }

  dispose(): void {
    this.inner.dispose();
  }
}

/**
 * The built-in engine as a TokenModel (what ToolGen retrieval and constrained beam search need): a checkpoint
 * folder's model and tokenizer. `logits(prefix)` is one forward pass; `session()` decodes incrementally.
 */
export class BuiltinTokenModel implements TokenModel {
  constructor(
    readonly model: Llama,
    readonly tokenizer: Tokenizer,
    readonly id = "builtin",
  ) {
    if (tokenizer.vocabSize > model.config.vocabSize) {
      throw new ToolgenError("invalid_input", 
        `tokenizer has ${tokenizer.vocabSize} tokens, the model only ${model.config.vocabSize}`,
      );
    }
  }

  /** Loads `DIR` (config.json, model.safetensors, tokenizer.json). */
  static load(dir: string): BuiltinTokenModel {
    const { model, tokenizer } = loadCheckpoint(dir);
    if (!tokenizer)
      throw new ToolgenError("invalid_input", `checkpoint ${dir}: tokenizer.json is missing; the built-in model needs it`);
    return new BuiltinTokenModel(model, tokenizer, `builtin:${dir}`);
  }

  /** The model's vocabulary (rows of the embedding; may exceed the tokenizer's when padded). */
  get vocabSize(): number {
    return this.model.config.vocabSize;
  }

  tokenize(text: string): number[] {
    return this.tokenizer.encode(text);
  }

  detokenize(ids: number[]): string {
    return this.tokenizer.decode(ids);
  }

  tokenId(token: string): number | undefined {
    return this.tokenizer.tokenToId(token);
  }

  async logits(prefixIds: number[]): Promise<Float32Array> {
    if (prefixIds.length === 0) throw new ToolgenError("invalid_option", "logits: the prefix needs at least one token");
    const s = new InferenceSession(this.model);
    try {
      return s.append(prefixIds);
    } finally {
      s.dispose();
    }
  }

  async session(): Promise<TokenSession> {
    return new BuiltinSession(new InferenceSession(this.model));
  }
}
