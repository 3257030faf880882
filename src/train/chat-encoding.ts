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
 * write the next assistant turn. `maxContentTokens` cuts long user/tool contents from the end (the paper's
 * cutoff) so a sample fits the context; assistant contents are never cut.
 */
export function encodeChat(
  tokenizer: ChatTokenizer,
  messages: readonly Message[],
  options: { generationPrompt?: boolean; maxContentTokens?: number } = {},
): EncodedChat {
  const start = special(tokenizer, IM_START);
  const end = special(tokenizer, IM_END);
  const newline = tokenizer.encode("\n");
  const ids: number[] = [];
  const mask: number[] = [];
  const push = (tokens: number[], trained: boolean) => {
    for (const t of tokens) {
      ids.push(t);
      mask.push(trained ? 1 : 0);
    }
  };
  for (const m of messages) {
    const trained = m.role === "assistant";
    push([start, ...tokenizer.encode(`${m.role}\n`)], false);
    let content = tokenizer.encode(m.content);
    if (!trained && options.maxContentTokens !== undefined && content.length > options.maxContentTokens) {
      content = content.slice(0, options.maxContentTokens);
    }
    push(content, trained);
    push([end], trained);
    push(newline, false);
  }
  if (options.generationPrompt) push([start, ...tokenizer.encode("assistant\n")], false);
  return { ids, lossMask: Uint8Array.from(mask) };
}
