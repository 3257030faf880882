import type { Message } from "../chat/messages.ts";

/**
 * How chat samples become token ids for the built-in engine: ChatML (`<|im_start|>role\n…<|im_end|>\n`), the
 * format many small open models use, with a Jinja template saved beside the model (tokenizer_config.json) so
 * other runtimes render the same text. Each message's content is tokenized on its own, so an id written by the
 * assistant has the same tokens here as in the trie that constrains it.
 */
export const BOS_TOKEN = "<|endoftext|>";
export const IM_START = "<|im_start|>";
export const IM_END = "<|im_end|>";
/** Special tokens a ToolGen tokenizer is trained with (ids 0, 1, 2). */
export const CHAT_SPECIAL_TOKENS: readonly string[] = [BOS_TOKEN, IM_START, IM_END];

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}" +
  "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** What encoding needs from a tokenizer (the engine's Tokenizer has both). */
export interface ChatTokenizer {
  encode(text: string): number[];
  tokenToId(token: string): number | undefined;
}

export interface EncodedChat {
  ids: number[];
  /** 1 where the token is predicted in training: assistant content and its closing `<|im_end|>`. */
  lossMask: Uint8Array;
}

function special(tokenizer: ChatTokenizer, token: string): number {
  const id = tokenizer.tokenToId(token);
  if (id === undefined)
    throw new Error(`the tokenizer has no ${token} token (train it with CHAT_SPECIAL_TOKENS)`);
  return id;
}

/**
 * Encodes messages; with `generationPrompt` the ids end with `<|im_start|>assistant\n`, ready for the model to
 * write the next assistant turn. Long user/system/tool contents are cut from their end (the usual cutoff):
 * each to `maxContentTokens`, then the longest ones further until the whole fits `maxLength`. Assistant contents
 * are never cut (they are what is learned).
 */
export function encodeChat(
  tokenizer: ChatTokenizer,
  messages: readonly Message[],
  options: { generationPrompt?: boolean; maxContentTokens?: number; maxLength?: number } = {},
): EncodedChat {
  const start = special(tokenizer, IM_START);
  const end = special(tokenizer, IM_END);
  const newline = tokenizer.encode("\n");
  const parts = messages.map((m) => {
    let content = tokenizer.encode(m.content);
    const trained = m.role === "assistant";
    if (!trained && options.maxContentTokens !== undefined)
      content = content.slice(0, options.maxContentTokens);
    return { header: [start, ...tokenizer.encode(`${m.role}\n`)], content, trained };
  });
  const tail = options.generationPrompt ? [start, ...tokenizer.encode("assistant\n")] : [];
  if (options.maxLength !== undefined) {
    const total = () =>
      parts.reduce((n, p) => n + p.header.length + p.content.length + 1 + newline.length, 0) + tail.length;
    let excess = total() - options.maxLength;
    while (excess > 0) {
      const longest = parts
        .filter((p) => !p.trained && p.content.length > 1)
        .sort((a, b) => b.content.length - a.content.length)[0];
      if (!longest) break; // nothing left to cut; the trainer truncates
      const cut = Math.min(excess, longest.content.length - 1);
      longest.content = longest.content.slice(0, longest.content.length - cut);
      excess -= cut;
    }
  }
  const ids: number[] = [];
  const mask: number[] = [];
  const push = (tokens: number[], trained: boolean) => {
    for (const t of tokens) {
      ids.push(t);
      mask.push(trained ? 1 : 0);
    }
  };
  for (const p of parts) {
    push(p.header, false);
    push(p.content, p.trained);
    push([end], p.trained);
    push(newline, false);
  }
  push(tail, false);
  return { ids, lossMask: Uint8Array.from(mask) };
}
