import { ToolgenError } from "../../errors.ts";
import { isPlainObject } from "../../plain-object.ts";

/**
 * The Hugging Face `tokenizer.json` form of a byte-level BPE tokenizer (GPT-2 style): what `save` writes and
 * `load` accepts. Other layouts (normalizers, Metaspace, WordPiece, …) are rejected with a clear error.
 */
export interface HfAddedToken {
  id: number;
  content: string;
  single_word: boolean;
  lstrip: boolean;
  rstrip: boolean;
  normalized: boolean;
  special: boolean;
}

export interface TokenizerData {
  /** Token strings by id (byte-level strings for BPE tokens, verbatim content for added tokens). */
  vocab: string[];
  merges: [string, string][];
  added: { id: number; content: string; special: boolean }[];
}

const BYTE_LEVEL = { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true };

export function toHfJson(data: TokenizerData): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  data.vocab.forEach((t, id) => (vocab[t] = id));
  const added: HfAddedToken[] = data.added.map((a) => ({
    id: a.id,
    content: a.content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: a.special,
  }));
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: BYTE_LEVEL,
    post_processor: { ...BYTE_LEVEL, trim_offsets: false },
    decoder: BYTE_LEVEL,
    model: {
      type: "BPE",
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: data.merges,
    },
  };
}

function fail(source: string, what: string): never {
  throw new ToolgenError("invalid_input", `${source}: ${what}`);
}

/** Parses and validates a tokenizer.json object. */
export function fromHfJson(json: unknown, source = "tokenizer.json"): TokenizerData {
  if (!isPlainObject(json)) fail(source, "expected a JSON object");
  const model = json.model;
  if (!isPlainObject(model) || model.type !== "BPE") {
    fail(
      source,
      `model.type must be "BPE" (byte-level BPE), got ${JSON.stringify(isPlainObject(model) ? model.type : model)}`,
    );
  }
  if (json.normalizer !== null && json.normalizer !== undefined) {
    fail(
      source,
      "a normalizer is not supported; accepted: byte-level BPE with normalizer null (GPT-2 style)",
    );
  }
  const pre = json.pre_tokenizer;
  if (
    !isPlainObject(pre) ||
    pre.type !== "ByteLevel" ||
    pre.use_regex === false ||
    pre.add_prefix_space === true
  ) {
    fail(
      source,
      'pre_tokenizer must be {"type":"ByteLevel","use_regex":true,"add_prefix_space":false} (GPT-2 style)',
    );
  }
  if (!isPlainObject(model.vocab)) fail(source, "model.vocab must be an object of token -> id");
  const byId = new Map<number, string>();
  for (const [token, id] of Object.entries(model.vocab)) {
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0)
      fail(source, `bad id for token ${JSON.stringify(token)}`);
    if (byId.has(id)) fail(source, `id ${id} is used by two tokens`);
    byId.set(id, token);
  }
  const added: TokenizerData["added"] = [];
  const addedList = json.added_tokens ?? [];
  if (!Array.isArray(addedList)) fail(source, "added_tokens must be an array");
  for (const a of addedList) {
    if (!isPlainObject(a) || typeof a.id !== "number" || typeof a.content !== "string") {
      fail(source, "each added token needs a numeric id and a string content");
    }
    const prev = byId.get(a.id);
    if (prev !== undefined && prev !== a.content) {
      fail(
        source,
        `added token ${JSON.stringify(a.content)} has id ${a.id}, which the vocab gives to ${JSON.stringify(prev)}`,
      );
    }
    byId.set(a.id, a.content);
    added.push({ id: a.id, content: a.content, special: a.special === true });
  }
  const vocab: string[] = [];
  for (let id = 0; id < byId.size; id++) {
    const t = byId.get(id);
    if (t === undefined) fail(source, `token ids must run from 0 without gaps; id ${id} is missing`);
    vocab.push(t);
  }
  const rawMerges = model.merges ?? [];
  if (!Array.isArray(rawMerges)) fail(source, "model.merges must be an array");
  const merges: [string, string][] = rawMerges.map((m: unknown, i: number): [string, string] => {
    if (Array.isArray(m) && m.length === 2 && typeof m[0] === "string" && typeof m[1] === "string")
      return [m[0], m[1]];
    if (typeof m === "string") {
      const parts = m.split(" ");
      if (parts.length === 2) return [parts[0]!, parts[1]!];
    }
    return fail(source, `merge ${i} must be ["a","b"] or "a b", got ${JSON.stringify(m)}`);
  });
  return { vocab, merges, added };
}
