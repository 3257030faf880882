/**
 * GPT-2's pre-tokenizer: the text is cut into words by this regex before BPE, so merges never cross a word
 * boundary. It is the `ByteLevel` pre-tokenizer of Hugging Face tokenizers (use_regex) and llama.cpp's `gpt-2`
 * pre-tokenizer. `\s` is spelled out as the Unicode White_Space set, which is what Oniguruma (Rust
 * tokenizers) and llama.cpp use; JavaScript's `\s` differs on U+0085 and U+FEFF.
 */
const WS = "\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

export const GPT2_PATTERN = `'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^${WS}\\p{L}\\p{N}]+|[${WS}]+(?![^${WS}])|[${WS}]+`;

const GPT2_REGEX = new RegExp(GPT2_PATTERN, "gu");

/** Splits text into GPT-2 pre-tokens; their concatenation is the text. */
export function pretokenize(text: string): string[] {
  return text.match(GPT2_REGEX) ?? [];
}
