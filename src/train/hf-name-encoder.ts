import { Tokenizer as HfTokenizer } from "@huggingface/tokenizers";
import { Tokenizer } from "../nn/tokenizer/index.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Encodes tool names with a Hugging Face model's own `tokenizer.json`, so a new token's embedding starts from the
 * rows the base model really uses for its name. The engine's tokenizer reads GPT-2 style byte-level BPE (our
 * checkpoints); other layouts (Llama-3's Split + ByteLevel, SentencePiece-style Metaspace, normalizers) go
 * through @huggingface/tokenizers, which implements the full tokenizer.json pipeline.
 */
export interface NameEncoder {
  /** "engine" or "hf-tokenizers": which implementation reads this tokenizer.json. */
  readonly kind: "engine" | "hf-tokenizers";
  /** Token ids of `text`, without BOS/EOS or other special tokens. */
  encode(text: string): number[];
}

export function nameEncoder(tokenizerJson: Record<string, unknown>, source: string): NameEncoder {
  try {
    const engine = Tokenizer.fromJSON(tokenizerJson, source);
    return { kind: "engine", encode: (text) => engine.encode(text, { special: false }) };
  } catch {
    // Not the GPT-2 layout the engine reads: use the general implementation below.
  }
  let hf: HfTokenizer;
  try {
    hf = new HfTokenizer(tokenizerJson, {});
  } catch (e) {
    throw new ToolgenError(
      "invalid_input",
      `${source}: cannot read this tokenizer.json (${(e as Error).message})`,
      { cause: e },
    );
  }
  return { kind: "hf-tokenizers", encode: (text) => hf.encode(text, { add_special_tokens: false }).ids };
}
