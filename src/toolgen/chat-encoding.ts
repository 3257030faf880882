import { LLAMA3_SPECIAL_TOKENS } from "../nn/train/text.ts";

/**
 * How chat samples become token ids for the built-in engine. New models use the Llama-3 format (the paper's
 * chat template, and the one the built-in ChatModel renders): `<|begin_of_text|>` then per message
 * `<|start_header_id|>role<|end_header_id|>\n\n content <|eot_id|>`. ChatML (`<|im_start|>role\n…<|im_end|>\n`)
 * is kept for models trained with it. Each content is tokenized on its own, which gives the same ids as
 * tokenizing the rendered text (the header ends in a special token and "\n\n", both pre-token boundaries), and
 * makes an id written by the assistant the same tokens here as in the trie that constrains it.
 */
export type ChatFormat = "llama3" | "chatml";

export const IM_START = "<|im_start|>";
export const IM_END = "<|im_end|>";

interface FormatSpec {
  /** Special tokens a tokenizer for this format is trained with (ids 0, 1, …). */
  specials: readonly string[];
  bos?: string;
  pad: string;
  /** Ends every turn; what the assistant's ids are followed by. */
  end: string;
  /** Text pieces of a turn header: [special start, role text, special, separator]. */
  header: (role: string) => Array<{ special: string } | { text: string }>;
  after: string;
}

export const CHAT_FORMATS: Record<ChatFormat, FormatSpec> = {
  llama3: {
    specials: LLAMA3_SPECIAL_TOKENS,
    bos: "<|begin_of_text|>",
    pad: "<|end_of_text|>",
    end: "<|eot_id|>",
    header: (role) => [
      { special: "<|start_header_id|>" },
      { text: role },
      { special: "<|end_header_id|>" },
      { text: "\n\n" },
    ],
    after: "",
  },
  chatml: {
    specials: ["<|endoftext|>", IM_START, IM_END],
    pad: "<|endoftext|>",
    end: IM_END,
    header: (role) => [{ special: IM_START }, { text: `${role}\n` }],
    after: "\n",
  },
};

/** Special tokens of the default (Llama-3) format. */
export const CHAT_SPECIAL_TOKENS: readonly string[] = CHAT_FORMATS.llama3.specials;

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}" +
  "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** The token that ends a turn in `format` (`<|eot_id|>` or `<|im_end|>`). */
export function turnEnd(format: ChatFormat = "llama3"): string {
  return CHAT_FORMATS[format].end;
}

/**
 * What encoding reads of a message: its role and text. The chat layer's `Message` (`src/chat/messages.ts`) is one;
 * the type is written out here because the chat layer sits above this core (its ToolGen parser reads the tokens).
 */
export interface ChatTurn {
  role: string;
  content: string;
}

/** What encoding needs from a tokenizer (the engine's Tokenizer has both). */
export interface ChatTokenizer {
  encode(text: string): number[];
  tokenToId(token: string): number | undefined;
}

export interface EncodedChat {
  ids: number[];
  /** 1 where the token is predicted in training: assistant content and the token that ends its turn. */
  lossMask: Uint8Array;
  /** 1 on the tokens of user contents: what token dropout may remove in training. */
  droppable: Uint8Array;
}

export interface EncodeChatOptions {
  format?: ChatFormat;
  generationPrompt?: boolean;
  maxContentTokens?: number;
  maxLength?: number;
}

function special(tokenizer: ChatTokenizer, token: string): number {
  const id = tokenizer.tokenToId(token);
  if (id === undefined)
    throw new Error(`the tokenizer has no ${token} token (train it with its format's special tokens)`);
  return id;
}

/**
 * Encodes messages; with `generationPrompt` the ids end with the assistant header, ready for the model to write
 * the next assistant turn. Long user/system/tool contents are cut from their end (the usual cutoff): each to
 * `maxContentTokens`, then the longest ones further until the whole fits `maxLength`. Assistant contents are
 * never cut (they are what is learned).
 */
export function encodeChat(
  tokenizer: ChatTokenizer,
  messages: readonly ChatTurn[],
  options: EncodeChatOptions = {},
): EncodedChat {
  const spec = CHAT_FORMATS[options.format ?? "llama3"];
  const end = special(tokenizer, spec.end);
  const header = (role: string) =>
    spec
      .header(role)
      .flatMap((p) => ("special" in p ? [special(tokenizer, p.special)] : tokenizer.encode(p.text)));
  const after = spec.after === "" ? [] : tokenizer.encode(spec.after);
  const bos = spec.bos === undefined ? [] : [special(tokenizer, spec.bos)];
  const parts = messages.map((m) => {
    const trained = m.role === "assistant";
    let content = tokenizer.encode(spec === CHAT_FORMATS.llama3 ? m.content.trim() : m.content);
    if (!trained && options.maxContentTokens !== undefined)
      content = content.slice(0, options.maxContentTokens);
    return { header: header(m.role), content, trained, user: m.role === "user" };
  });
  const tail = options.generationPrompt ? header("assistant") : [];
  if (options.maxLength !== undefined) {
    const total = () =>
      parts.reduce((n, p) => n + p.header.length + p.content.length + 1 + after.length, bos.length) +
      tail.length;
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
  const droppable: number[] = [];
  const push = (tokens: number[], trained: boolean, user = false) => {
    for (const t of tokens) {
      ids.push(t);
      mask.push(trained ? 1 : 0);
      droppable.push(user ? 1 : 0);
    }
  };
  push(bos, false);
  for (const p of parts) {
    push(p.header, false);
    push(p.content, p.trained, p.user);
    push([end], p.trained);
    push(after, false);
  }
  push(tail, false);
  return { ids, lossMask: Uint8Array.from(mask), droppable: Uint8Array.from(droppable) };
}
