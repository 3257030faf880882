import type { Message } from "../chat/messages.ts";
import type { TokenModel } from "../models/model.ts";
import { encodeChat, turnEnd, type ChatFormat } from "../toolgen/chat-encoding.ts";
import { decodeIds, type BeamSearchOptions } from "./constrained-beam.ts";
import { TokenTrie } from "./trie.ts";
import { ToolgenError } from "../errors.ts";

/** The trie of written action forms: single tokens as they are (atomic), otherwise tokens + the turn's end. */
export function optionTrie(
  model: Pick<TokenModel, "tokenize" | "tokenId">,
  options: readonly string[],
  format: ChatFormat = "llama3",
): TokenTrie {
  const sequences = options.map((o) => model.tokenize(o));
  const single = sequences.every((s) => s.length === 1);
  const end = model.tokenId(turnEnd(format));
  if (!single && end === undefined)
    throw new ToolgenError("invalid_input", `the model's tokenizer has no ${turnEnd(format)} token`);
  const trie = new TokenTrie();
  options.forEach((o, i) => trie.insert(single ? sequences[i]! : [...sequences[i]!, end!], o));
  return trie;
}

/**
 * The ToolGen agent's constrained action step (paper §3.6) for a TokenModel: the conversation is encoded as the
 * model was trained (its chat format, assistant header last) and the action is decoded by beam search restricted to the
 * given options, so the agent can only name a catalog tool or `<<Finish>>`. Plug it into
 * `ToolGenAgent({decodeAction})`; `{ constrained: false }` decodes freely (for hallucination measurements).
 */
export function trieActionDecoder(
  model: TokenModel,
  settings: BeamSearchOptions & {
    maxLength?: number;
    /** Cut non-assistant contents to this many tokens, as the training did (schedule.maxContentTokens). */
    maxContentTokens?: number;
    chatFormat?: ChatFormat;
    /**
     * Counts every action decoded, and those whose raw output is not exactly an option's tokens (checked against
     * the options' own tokenization, not the trie): under the constraint `invalid` must stay 0.
     */
    raw?: { generations: number; invalid: number };
    /** The trie to decode with instead of `optionTrie` (tests inject a broken one). */
    trie?: TokenTrie;
  } = {},
): (request: { messages: Message[]; options: string[] }) => Promise<string> {
  let cached: { options: string[]; trie: TokenTrie; reference: Map<string, string> } | undefined;
  const tokenizer = { encode: (t: string) => model.tokenize(t), tokenToId: (t: string) => model.tokenId(t) };
  return async ({ messages, options }) => {
    if (options.length === 0)
      throw new ToolgenError("invalid_option", "trieActionDecoder: no action options to choose from");
    const format = settings.chatFormat;
    const end = model.tokenId(turnEnd(format));
    if (!cached || cached.options !== options) {
      const sequences = options.map((o) => model.tokenize(o));
      const single = sequences.every((q) => q.length === 1);
      const reference = new Map(
        options.map((o, i) => [(single ? sequences[i]! : [...sequences[i]!, end]).join(","), o]),
      );
      cached = { options, trie: settings.trie ?? optionTrie(model, options, format), reference };
    }
    const prompt = encodeChat(tokenizer, messages, {
      format,
      generationPrompt: true,
      maxLength: settings.maxLength,
      maxContentTokens: settings.maxContentTokens,
    }).ids;
    const {
      raw: _raw,
      trie: _trie,
      maxLength: _l,
      maxContentTokens: _c,
      chatFormat: _f,
      ...search
    } = settings;
    const [best] = await decodeIds(model, prompt, cached.trie, { beams: 1, endToken: end, ...search });
    if (settings.raw) {
      settings.raw.generations++;
      const ref = best && cached.reference.get(best.tokens.join(","));
      if (ref === undefined || ref !== best!.id) settings.raw.invalid++;
    }
    if (!best) throw new ToolgenError("model_failure", "trieActionDecoder: the search produced no action");
    // Unconstrained output that is not an option comes back as the model's own text (the agent rejects it).
    return best.id ?? model.detokenize(best.tokens.filter((t) => t !== end));
  };
}
