import type { Message } from "../chat/messages.ts";
import { OpenAIChatModel } from "../models/openai.ts";
import { defaultServer, resolveServed, serverTokenize, type HttpToolGenServer } from "./generative-http.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The ToolGen agent's action step against a served model, restricted to token ids: the conversation goes to the
 * server's chat endpoint with one generated token allowed among the action tokens (the catalog's tool tokens and
 * `<<Finish>>`) — vLLM's `allowed_token_ids`, or llama.cpp's `logit_bias` raising exactly those tokens. Plug it
 * into `ToolGenAgent({ decodeAction })`. Options that are not single tokens (semantic, numeric, hierarchical ids)
 * fall back to a `choice` constraint (vLLM's guided_choice, llama.cpp's grammar).
 */
export interface HttpActionDecoderOptions {
  /** `openai:MODEL@BASEURL`. */
  spec: string;
  /** Default: $TOOLGEN_SERVER_DIALECT when it is llamacpp, else vllm. */
  server?: HttpToolGenServer;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export type HttpActionDecoder = (request: {
  messages: Message[];
  options: string[];
  temperature: number;
  signal?: AbortSignal;
}) => Promise<string>;

export async function httpActionDecoder(o: HttpActionDecoderOptions): Promise<HttpActionDecoder> {
  const resolved = await resolveServed(o.spec, o.timeoutMs);
  const model = resolved.model;
  const server = o.server ?? defaultServer();
  const base = { model, baseURL: resolved.baseURL, dialect: server, timeoutMs: o.timeoutMs, fetch: o.fetch };
  const choice = new OpenAIChatModel(base);
  let cached: { options: string[]; model: OpenAIChatModel | undefined } | undefined;

  const constrained = async (options: string[]): Promise<OpenAIChatModel | undefined> => {
    const ids = await tokenizeEach(resolved.baseURL, model, server, options, o.fetch);
    if (ids === undefined) return undefined; // not all single tokens: use the choice constraint
    const fields =
      server === "vllm" ? { allowed_token_ids: ids } : { logit_bias: ids.map((id) => [id, 100]) };
    return new OpenAIChatModel({ ...base, extraBody: fields });
  };

  return async ({ messages, options, temperature, signal }) => {
    if (options.length === 0)
      throw new ToolgenError("invalid_option", "httpActionDecoder: no action options to choose from");
    if (!cached || cached.options !== options) cached = { options, model: await constrained(options) };
    const common = { temperature, ...(signal ? { signal } : {}) };
    const result = cached.model
      ? await cached.model.generate(messages, { ...common, maxTokens: 1 })
      : await choice.generate(messages, { ...common, constraint: { kind: "choice", options } });
    return result.message.content;
  };
}

/** One /tokenize call for all options; their ids when every option is exactly one token, else undefined. */
async function tokenizeEach(
  baseURL: string,
  model: string,
  server: HttpToolGenServer,
  options: readonly string[],
  fetchImpl: typeof fetch | undefined,
): Promise<number[] | undefined> {
  const ids = await serverTokenize(baseURL, model, server, options.join(""), fetchImpl);
  return ids.length === options.length && ids.every(Number.isInteger) ? ids : undefined;
}
