import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The most bytes one message line may hold (a call's arguments included); longer lines are refused. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 2 ** 20;

export interface LineTransportOptions {
  maxLineBytes?: number;
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * MCP over stdio, one JSON-RPC message a line, that answers bad input instead of dropping it: a line that is
 * not JSON gets a parse error (-32700, id null), JSON that is not a JSON-RPC message an invalid-request error
 * (-32600), and a line over `maxLineBytes` an invalid-request error naming the limit; the rest of that line is
 * skipped and the server keeps serving. (The SDK's own stdio transport reports these to `onerror` only, which
 * leaves the client waiting, and closes the connection when its buffer fills.)
 */
export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxLineBytes: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while the rest of an over-long line is being skipped. */
  private skipping = false;
  private started = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    options: LineTransportOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("LineStdioServerTransport already started");
    this.started = true;
    this.input.on("data", this.onData);
    this.input.on("error", this.onInputError);
  }

  async close(): Promise<void> {
    this.input.off("data", this.onData);
    this.input.off("error", this.onInputError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + "\n")) resolve();
      else this.output.once("drain", resolve);
    });
  }

  private readonly onInputError = (error: Error): void => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    for (let newline = data.indexOf(10); newline >= 0; newline = data.indexOf(10)) {
      const head = data.subarray(0, newline);
      data = data.subarray(newline + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.pendingBytes + head.length > this.maxLineBytes) {
        this.refuseLongLine();
        this.skipping = false;
        continue;
      }
      const line = Buffer.concat([...this.pending, head]).toString("utf8");
      this.pending = [];
      this.pendingBytes = 0;
      this.handleLine(line);
    }
    if (this.skipping || data.length === 0) return;
    if (this.pendingBytes + data.length > this.maxLineBytes) {
      this.refuseLongLine();
      this.skipping = true;
      return;
    }
    this.pending.push(data);
    this.pendingBytes += data.length;
  };

  private refuseLongLine(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.reply(INVALID_REQUEST, `message line longer than ${this.maxLineBytes} bytes; it was skipped`);
  }

  private handleLine(raw: string): void {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      this.reply(PARSE_ERROR, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown } | null)?.id;
      const validId = typeof id === "string" || typeof id === "number" ? id : null;
      this.reply(INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message", validId);
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** An error response; `id` null when the request's id could not be read (JSON-RPC 2.0 §5). */
  private reply(code: number, message: string, id: string | number | null = null): void {
    void this.send({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
    this.onerror?.(new Error(message));
  }
}
