import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 (random port) that speaks the OpenAI chat protocol as each test scripts it:
 * every request is answered by the next handler in the queue, and the parsed request is recorded.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown> | undefined;
}

export type Handler = (
  request: RecordedRequest,
  response: ServerResponse,
  socket: Socket,
) => void | Promise<void>;

export class FakeOpenAIServer {
  readonly requests: RecordedRequest[] = [];
  private readonly handlers: Handler[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  baseURL = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseURL = `http://127.0.0.1:${port}/v1`;
    return this;
  }

  /** Queues handlers; each answers one request, in order. */
  enqueue(...handlers: Handler[]): this {
    this.handlers.push(...handlers);
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const request: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
    this.requests.push(request);
    const handler = this.handlers.shift();
    if (!handler) {
      res.writeHead(599, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "the test queued no handler for this request" } }));
      return;
    }
    await handler(request, res, req.socket);
  }
}

/** A complete JSON chat completion. */
export function completion(
  message: Record<string, unknown>,
  finish = "stop",
  usage = { prompt_tokens: 11, completion_tokens: 7 },
): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "cmpl-1",
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
  };
}

export function status(code: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(code, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Streams chunks as SSE, cutting the raw bytes into `pieceBytes`-sized writes (so pieces split JSON, lines
 * and multi-byte characters), then `[DONE]` unless `done` is false.
 */
export function sse(
  chunks: unknown[],
  options: { pieceBytes?: number; done?: boolean; gapMs?: number } = {},
): Handler {
  return async (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const events = chunks.map(
      (chunk) => `data: ${typeof chunk === "string" ? chunk : JSON.stringify(chunk)}\n\n`,
    );
    if (options.done !== false) events.push("data: [DONE]\n\n");
    const bytes = Buffer.from(events.join(""), "utf8");
    const size = options.pieceBytes ?? bytes.length;
    for (let i = 0; i < bytes.length; i += size) {
      res.write(bytes.subarray(i, i + size));
      await wait(options.gapMs ?? 1);
    }
    res.end();
  };
}

export function textChunks(text: string, size: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [
    { choices: [{ index: 0, delta: { role: "assistant", content: "" } }] },
  ];
  for (let i = 0; i < text.length; i += size) {
    out.push({ choices: [{ index: 0, delta: { content: text.slice(i, i + size) }, finish_reason: null }] });
  }
  return out;
}

export const finishChunk = (reason: string) => ({
  choices: [{ index: 0, delta: {}, finish_reason: reason }],
});
export const usageChunk = { choices: [], usage: { prompt_tokens: 20, completion_tokens: 9 } };
