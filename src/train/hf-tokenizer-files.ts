import { ToolgenError } from "../errors.ts";
import { isPlainObject } from "../plain-object.ts";

/**
 * Adding tokens to a Hugging Face tokenizer the way `tokenizer.add_tokens(...)` + `save_pretrained` does:
 * new entries in `tokenizer.json`'s `added_tokens` (ids after every existing id; the BPE vocab and merges are
 * untouched) and in `tokenizer_config.json`'s `added_tokens_decoder`. Tool tokens are not special (they are
 * printed when decoded) and not normalized (matched in the raw text, so a name with spaces still matches
 * under a Metaspace/SentencePiece normalizer).
 */
export interface TokenAssignment {
  /** Token text → id, for every requested token (existing ones keep their id). */
  ids: Map<string, number>;
  /** The tokens that were new, in id order. */
  added: { id: number; content: string }[];
  /** Number of ids the tokenizer covers before the change (max id + 1). */
  baseSize: number;
}

/** Every token string the tokenizer already knows, with its id (BPE vocab and added tokens). */
function knownTokens(json: Record<string, unknown>, source: string): Map<string, number> {
  const known = new Map<string, number>();
  const model = json.model;
  if (!isPlainObject(model)) throw new ToolgenError("invalid_input", `${source}: no "model" object`);
  const vocab = model.vocab;
  if (isPlainObject(vocab)) {
    for (const [t, id] of Object.entries(vocab)) if (typeof id === "number") known.set(t, id);
  } else if (Array.isArray(vocab)) {
    // Unigram: [[piece, score], …], ids by position.
    vocab.forEach((entry, id) => {
      if (Array.isArray(entry) && typeof entry[0] === "string") known.set(entry[0], id);
    });
  } else throw new ToolgenError("invalid_input", `${source}: model.vocab is neither an object nor a list`);
  const added = json.added_tokens ?? [];
  if (!Array.isArray(added))
    throw new ToolgenError("invalid_input", `${source}: added_tokens must be a list`);
  for (const a of added) {
    if (!isPlainObject(a) || typeof a.id !== "number" || typeof a.content !== "string")
      throw new ToolgenError(
        "invalid_input",
        `${source}: each added token needs a numeric id and a string content`,
      );
    known.set(a.content, a.id);
  }
  return known;
}

/** Assigns ids to `tokens` and appends the new ones to `json.added_tokens` (the object is modified). */
export function addTokensToTokenizerJson(
  json: Record<string, unknown>,
  tokens: readonly string[],
  source = "tokenizer.json",
): TokenAssignment {
  const known = knownTokens(json, source);
  let next = 0;
  for (const id of known.values()) next = Math.max(next, id + 1);
  const baseSize = next;
  const ids = new Map<string, number>();
  const added: TokenAssignment["added"] = [];
  const list = (json.added_tokens ?? []) as unknown[];
  for (const content of tokens) {
    if (ids.has(content)) continue;
    const existing = known.get(content);
    if (existing !== undefined) {
      ids.set(content, existing);
      continue;
    }
    const id = next++;
    ids.set(content, id);
    added.push({ id, content });
    list.push({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: false,
    });
  }
  json.added_tokens = list;
  return { ids, added, baseSize };
}

/** Records the new tokens in a `tokenizer_config.json` object (transformers reads `added_tokens_decoder`). */
export function addTokensToTokenizerConfig(
  config: Record<string, unknown>,
  added: readonly { id: number; content: string }[],
): void {
  const decoder = isPlainObject(config.added_tokens_decoder) ? config.added_tokens_decoder : {};
  for (const a of added) {
    decoder[String(a.id)] = {
      content: a.content,
      lstrip: false,
      normalized: false,
      rstrip: false,
      single_word: false,
      special: false,
    };
  }
  config.added_tokens_decoder = decoder;
}
