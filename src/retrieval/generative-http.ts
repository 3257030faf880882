import type { CatalogEntry } from "../catalog/catalog.ts";
import { toolToken } from "../toolgen/tokens.ts";
import { DEFAULT_HTTP_POLICY, openWithRetry } from "../models/http-client.ts";
import { ModelResponseError } from "../models/http-errors.ts";
import { OpenAIChatModel, type OpenAIChatModelOptions } from "../models/openai.ts";
import { resolveModel } from "../models/resolve.ts";
import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";
import { ToolgenError } from "../errors.ts";

/**
 * ToolGen retrieval against a served model (a folder from `toolgen virtualize`, fine-tuned, then served): the
 * query goes in as a user turn through the server's chat template and the first generated token is the tool.
 * The client applies ToolGen's constraint through each server's own request fields:
 * - vLLM (OpenAI-compatible server): `allowed_token_ids` = the tool tokens, `logprobs` + `top_logprobs` for the
 *   ranking, `return_tokens_as_token_ids` so tokens come back as ids;
 * - llama.cpp's server: `logit_bias` raising every tool token (so the sampled token is a tool) and `n_probs`
 *   for the ranking.
 * The ranking is read from the returned top log-probabilities, keeping tool tokens (as ToolGen's public eval
 * does with its top-100 logits): servers that report raw log-probabilities (vLLM's default
 * `--logprobs-mode raw_logprobs`, llama.cpp's default) rank the tools exactly as the model does, and vLLM with
 * `--logprobs-mode processed_logprobs` returns only allowed tokens. Tool token ids are asked from the server's
 * `/tokenize`, so client and server cannot disagree.
 */
export const HTTP_TOOLGEN_SERVERS = ["vllm", "llamacpp"] as const;
export type HttpToolGenServer = (typeof HTTP_TOOLGEN_SERVERS)[number];

export interface HttpToolGenOptions {
  /** `openai:MODEL@BASEURL`, BASEURL ending in /v1 (the server root serves /tokenize). */
  spec: string;
  /** Default: $TOOLGEN_SERVER_DIALECT when it is llamacpp, else vllm. */
  server?: HttpToolGenServer;
  /**
   * How many top log-probabilities to ask for per query (default $TOOLGEN_MAX_LOGPROBS, else 20: vLLM's default
   * --max-logprobs). At most this many tools can be ranked; serve with a larger --max-logprobs for deeper lists.
   */
  topLogprobs?: number;
  /** catalog id → token id, when known; otherwise asked from the server's /tokenize. */
  toolTokenIds?: ReadonlyMap<string, number>;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The request fields that carry ToolGen's constraint and ask for the ranking, per server. */
export function toolgenRequestFields(
  server: HttpToolGenServer,
  toolIds: readonly number[],
  topLogprobs: number,
): Record<string, unknown> {
  const common = { logprobs: true, top_logprobs: topLogprobs };
  if (server === "vllm")
    return { ...common, allowed_token_ids: [...toolIds], return_tokens_as_token_ids: true };
  return { ...common, n_probs: topLogprobs, logit_bias: toolIds.map((id) => [id, 100]) };
}

interface TopEntry {
  id?: unknown;
  token?: unknown;
  logprob?: unknown;
}

function rootOf(baseURL: string): string {
  return baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
}

export class HttpGenerativeRetriever implements Retriever {
  readonly name = "toolgen-http";
  private readonly idOfToken = new Map<number, string>();
  private readonly idOfText = new Map<string, string>();

  private readonly chat: OpenAIChatModel;

  private constructor(
    chatOptions: OpenAIChatModelOptions,
    readonly server: HttpToolGenServer,
    toolTokenIds: ReadonlyMap<string, number>,
  ) {
    this.chat = new OpenAIChatModel(chatOptions);
    for (const [id, token] of toolTokenIds) {
      this.idOfToken.set(token, id);
      this.idOfText.set(toolToken(id), id);
    }
  }

  /** Connects to the server: resolves the spec and the tool token ids (one /tokenize call for the catalog). */
  static async open(
    catalog: readonly CatalogEntry[],
    o: HttpToolGenOptions,
  ): Promise<HttpGenerativeRetriever> {
    if (catalog.length === 0)
      throw new ToolgenError("invalid_option", "the toolgen retriever needs a non-empty catalog");
    const resolved = await resolveServed(o.spec, o.timeoutMs);
    const model = resolved.model;
    const server = o.server ?? defaultServer();
    if (!HTTP_TOOLGEN_SERVERS.includes(server))
      throw new ToolgenError(
        "invalid_option",
        `server must be ${HTTP_TOOLGEN_SERVERS.join(" or ")}, got ${JSON.stringify(server)}`,
      );
    const ids =
      o.toolTokenIds ??
      (await tokenizeToolTokens(resolved.baseURL, model, server, catalog, o.fetch, o.timeoutMs));
    const known = catalog.filter((e) => ids.has(e.id));
    if (known.length === 0)
      throw new ToolgenError("model_failure", "none of the catalog's tools has a token id");
    const top = o.topLogprobs ?? Number(process.env.TOOLGEN_MAX_LOGPROBS ?? 20);
    if (!Number.isInteger(top) || top < 1)
      throw new ToolgenError(
        "invalid_option",
        `top log-probabilities must be a positive integer (TOOLGEN_MAX_LOGPROBS), got ${top}`,
      );
    const fields = toolgenRequestFields(
      server,
      known.map((e) => ids.get(e.id)!),
      top,
    );
    const chat: OpenAIChatModelOptions = {
      model,
      baseURL: resolved.baseURL,
      dialect: server,
      timeoutMs: o.timeoutMs,
      fetch: o.fetch,
      extraBody: fields,
    };
    const kept = new Map(known.map((e) => [e.id, ids.get(e.id)!]));
    return new HttpGenerativeRetriever(chat, server, kept);
  }

  async search(query: string, options: SearchOptions = {}): Promise<RetrievalHit[]> {
    const k = options.k ?? 10;
    const result = await this.chat.generate([{ role: "user", content: query }], {
      temperature: 0,
      maxTokens: 1,
    });
    const first = readFirstTokenLogprobs(result.raw, this.chat.id);
    const best = new Map<string, number>();
    for (const entry of first) {
      const id = this.catalogIdOf(entry);
      const lp = Number(entry.logprob);
      if (id === undefined || !Number.isFinite(lp)) continue;
      if (!best.has(id) || best.get(id)! < lp) best.set(id, lp);
    }
    return [...best]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, k)
      .map(([id, score]) => ({ id, score }));
  }

  private catalogIdOf(entry: TopEntry): string | undefined {
    if (typeof entry.id === "number") return this.idOfToken.get(entry.id);
    if (typeof entry.token !== "string") return undefined;
    const m = /^token_id:(\d+)$/.exec(entry.token);
    if (m) return this.idOfToken.get(Number(m[1]));
    return this.idOfText.get(entry.token);
  }
}

/** The chosen token and the top alternatives of the first generated position. */
function readFirstTokenLogprobs(raw: unknown, what: string): TopEntry[] {
  const body = raw as {
    choices?: Array<{ logprobs?: { content?: Array<TopEntry & { top_logprobs?: TopEntry[] }> } }>;
  };
  const first = body?.choices?.[0]?.logprobs?.content?.[0];
  if (!first || !Array.isArray(first.top_logprobs)) {
    throw new ModelResponseError(
      `${what}: the answer has no choices[0].logprobs.content[0].top_logprobs; the server must return log-probabilities ` +
        "(vLLM: --max-logprobs at least the requested top_logprobs; llama.cpp: a build with logprobs support)",
    );
  }
  return [first, ...first.top_logprobs];
}

/** The token ids of `text` from the server's own tokenizer (`/tokenize` at the server root, no special tokens added). */
export async function serverTokenize(
  baseURL: string,
  model: string,
  server: HttpToolGenServer,
  text: string,
  fetchImpl?: typeof fetch,
  timeoutMs?: number,
): Promise<number[]> {
  const policy = {
    ...DEFAULT_HTTP_POLICY,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  };
  const body =
    server === "vllm"
      ? { model, prompt: text, add_special_tokens: false }
      : { content: text, add_special: false, parse_special: true };
  const url = `${rootOf(baseURL)}/tokenize`;
  const open = await openWithRetry(
    url,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    policy,
    undefined,
    `tokenize at ${url}`,
  );
  let answer: string;
  try {
    answer = await open.response.text();
  } finally {
    open.done();
  }
  let tokens: unknown;
  try {
    tokens = (JSON.parse(answer) as { tokens?: unknown }).tokens;
  } catch {
    throw new ModelResponseError(`${url}: the answer is not JSON: ${answer.slice(0, 200)}`);
  }
  if (!Array.isArray(tokens)) throw new ModelResponseError(`${url}: the answer has no "tokens" list`);
  // llama.cpp can answer [{id, piece}] when asked for pieces; plain ids otherwise.
  return tokens.map((t) => (typeof t === "number" ? t : Number((t as { id?: unknown }).id)));
}

/**
 * Asks the server for the ids of every tool token in one /tokenize call: the tokens are concatenated, and a
 * virtualized model's tokenizer never splits them, so the answer must hold exactly one id per tool.
 */
export async function tokenizeToolTokens(
  baseURL: string,
  model: string,
  server: HttpToolGenServer,
  catalog: readonly CatalogEntry[],
  fetchImpl: typeof fetch | undefined,
  timeoutMs?: number,
): Promise<Map<string, number>> {
  const tokenize = (text: string) => serverTokenize(baseURL, model, server, text, fetchImpl, timeoutMs);
  const texts = catalog.map((e) => toolToken(e.id));
  const ids = await tokenize(texts.join(""));
  if (ids.length === texts.length && ids.every(Number.isInteger))
    return new Map(catalog.map((e, i) => [e.id, ids[i]!]));
  // Find one token the server splits, for a useful message.
  for (const text of texts.slice(0, 50)) {
    const one = await tokenize(text);
    if (one.length !== 1) {
      throw new ToolgenError(
        "model_failure",
        `the served model ${model} splits the tool token ${text} into ${one.length} tokens: serve the folder ` +
          "`toolgen virtualize` wrote (after fine-tuning) for this catalog",
      );
    }
  }
  throw new ToolgenError(
    "model_failure",
    `the served model ${model} returned ${ids.length} ids for ${texts.length} tool tokens: it was not virtualized with this catalog`,
  );
}

/** The model name and API root of an `openai:MODEL@BASEURL` spec (parsed and checked by resolveModel). */
export async function resolveServed(
  spec: string,
  timeoutMs?: number,
): Promise<{ model: string; baseURL: string }> {
  const resolved = await resolveModel(spec, { timeoutMs });
  if (!(resolved instanceof OpenAIChatModel))
    throw new ToolgenError(
      "model_spec",
      `${spec}: a served ToolGen model needs an openai:MODEL@BASEURL spec`,
    );
  const model = resolved.id.slice("openai:".length, resolved.id.length - resolved.baseURL.length - 1);
  return { model, baseURL: resolved.baseURL };
}

/** $TOOLGEN_SERVER_DIALECT=llamacpp selects llama.cpp's fields; vLLM's otherwise. */
export function defaultServer(): HttpToolGenServer {
  return process.env.TOOLGEN_SERVER_DIALECT === "llamacpp" ? "llamacpp" : "vllm";
}

/** `openai:` specs go to a served model; everything else is a local checkpoint. */
export function isHttpModelSpec(spec: string | undefined): spec is string {
  return spec !== undefined && spec.startsWith("openai:");
}
