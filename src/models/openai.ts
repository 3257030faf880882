import type { Message } from "../chat/messages.ts";
import type { ToolCallFormat } from "../chat/parse/types.ts";
import { DEFAULT_HTTP_POLICY, openWithRetry, type HttpPolicy, type OpenResponse } from "./http-client.ts";
import { ModelResponseError, ModelTimeoutError } from "./http-errors.ts";
import type { ChatModel, GenerateOptions, GenerateResult, StreamEvent } from "./model.ts";
import { buildChatRequest, type ServerDialect } from "./openai-request.ts";
import { StreamAccumulator, readCompletion } from "./openai-response.ts";
import { SseParser } from "./sse.ts";
import { ToolgenError } from "../errors.ts";

export interface OpenAIChatModelOptions {
  /** The model name the server knows. */
  model: string;
  /** The API root, e.g. http://127.0.0.1:8000/v1 (requests go to BASE/chat/completions and BASE/models). */
  baseURL: string;
  /** Sent as a bearer token; defaults to $TOOLGEN_API_KEY, then $OPENAI_API_KEY; none is sent when unset. */
  apiKey?: string;
  dialect?: ServerDialect;
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** Replaces global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Read tool calls out of the text with this parser when the server returns them as plain content. */
  toolCallFormat?: ToolCallFormat;
  extraBody?: Record<string, unknown>;
}

/**
 * A ChatModel over any OpenAI-compatible chat/completions endpoint (OpenAI, vLLM, llama.cpp's server, Ollama,
 * LM Studio …): tools and tool_choice, SSE streaming with tool-call deltas, retries with backoff on 429/5xx and
 * broken connections, time limits, constraint passthrough and model listing.
 */
export class OpenAIChatModel implements ChatModel {
  readonly id: string;
  readonly baseURL: string;
  private readonly options: OpenAIChatModelOptions;
  private readonly policy: HttpPolicy;

  constructor(options: OpenAIChatModelOptions) {
    if (!options.model) throw new ToolgenError("invalid_option", "OpenAIChatModel needs a model name");
    let url: URL;
    try {
      url = new URL(options.baseURL);
    } catch {
      throw new ToolgenError("invalid_option", 
        `OpenAIChatModel: base URL ${JSON.stringify(options.baseURL)} is not a URL (e.g. http://127.0.0.1:8000/v1)`,
      );
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ToolgenError("invalid_option", `OpenAIChatModel: base URL must be http(s), got ${url.protocol}`);
    }
    this.options = options;
    this.baseURL = options.baseURL.replace(/\/+$/, "");
    this.id = `openai:${options.model}@${this.baseURL}`;
    this.policy = {
      timeoutMs: options.timeoutMs ?? DEFAULT_HTTP_POLICY.timeoutMs,
      maxRetries: options.maxRetries ?? DEFAULT_HTTP_POLICY.maxRetries,
      retryBaseMs: options.retryBaseMs ?? DEFAULT_HTTP_POLICY.retryBaseMs,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_HTTP_POLICY.maxRetryDelayMs,
      fetch: options.fetch ?? DEFAULT_HTTP_POLICY.fetch,
    };
  }

  async generate(messages: Message[], options: GenerateOptions = {}): Promise<GenerateResult> {
    const open = await this.post(messages, options, false);
    let text: string;
    try {
      text = await open.response.text();
    } catch (error) {
      throw this.bodyError(open, error, "reading the answer");
    } finally {
      open.done();
    }
    return readCompletion(text, this.options.toolCallFormat, this.what());
  }

  async *stream(messages: Message[], options: GenerateOptions = {}): AsyncIterable<StreamEvent> {
    const open = await this.post(messages, options, true);
    const body = open.response.body;
    if (!body) {
      open.done();
      throw new ModelResponseError(`${this.what()}: the server sent no body to stream`);
    }
    const accumulator = new StreamAccumulator(this.options.toolCallFormat, this.what());
    const sse = new SseParser();
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw this.bodyError(open, error, "streaming");
        }
        if (chunk.done) break;
        open.touch();
        for (const event of sse.push(decoder.decode(chunk.value, { stream: true }))) {
          yield* accumulator.push(event.data);
        }
      }
      for (const event of sse.push(decoder.decode())) yield* accumulator.push(event.data);
      for (const event of sse.end()) yield* accumulator.push(event.data);
      yield* accumulator.finish().events;
    } finally {
      open.done();
      reader.cancel().catch(() => undefined);
    }
  }

  /** The model names the server lists at BASE/models. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    const open = await openWithRetry(
      `${this.baseURL}/models`,
      { method: "GET", headers: this.headers() },
      this.policy,
      signal,
      this.what("listing models"),
    );
    let text: string;
    try {
      text = await open.response.text();
    } catch (error) {
      throw this.bodyError(open, error, "reading the model list");
    } finally {
      open.done();
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ModelResponseError(
        `${this.what("listing models")}: the answer is not JSON: ${text.slice(0, 200)}`,
      );
    }
    const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
    if (!Array.isArray(data))
      throw new ModelResponseError(`${this.what("listing models")}: the answer has no data list`);
    return data.flatMap((entry) =>
      typeof entry === "object" && entry !== null && typeof entry.id === "string" ? [entry.id] : [],
    );
  }

  private async post(messages: Message[], options: GenerateOptions, stream: boolean): Promise<OpenResponse> {
    const body = buildChatRequest(messages, options, {
      model: this.options.model,
      dialect: this.options.dialect ?? "generic",
      stream,
      extraBody: this.options.extraBody,
    });
    const init: RequestInit = {
      method: "POST",
      headers: {
        ...this.headers(),
        "content-type": "application/json",
        accept: stream ? "text/event-stream" : "application/json",
      },
      body: JSON.stringify(body),
    };
    return openWithRetry(`${this.baseURL}/chat/completions`, init, this.policy, options.signal, this.what());
  }

  private headers(): Record<string, string> {
    const key = this.options.apiKey ?? process.env.TOOLGEN_API_KEY ?? process.env.OPENAI_API_KEY;
    return { ...(key ? { authorization: `Bearer ${key}` } : {}), ...this.options.headers };
  }

  private what(action = "chat completion"): string {
    return `${action} with ${this.options.model} at ${this.baseURL}`;
  }

  private bodyError(open: OpenResponse, error: unknown, doing: string): Error {
    if (open.timedOut()) {
      return new ModelTimeoutError(
        `${this.what()}: no data for ${this.policy.timeoutMs} ms while ${doing}`,
        200,
        undefined,
        open.attempts,
      );
    }
    if (open.signal.aborted && !(error instanceof ModelTimeoutError))
      return error instanceof Error ? error : new Error(String(error));
    const reason = error instanceof Error ? error.message : String(error);
    return new ModelResponseError(
      `${this.what()}: the connection broke while ${doing}: ${reason}`,
      200,
      undefined,
      open.attempts,
    );
  }
}
