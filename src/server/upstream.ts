import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type Implementation,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerSpec } from "../catalog/import/mcp.ts";
import { ToolgenError } from "../errors.ts";

export interface UpstreamOptions {
  /** Milliseconds allowed for starting the server and the `initialize` handshake (default 20 000). */
  startTimeoutMs?: number;
  /** Where the child's stderr goes besides the kept tail (default: this process's stderr, prefixed). */
  onStderr?: (line: string) => void;
}

const CLIENT_INFO: Implementation = { name: "toolgen-router", version: "0.1.0" };
const STDERR_TAIL_LINES = 20;
const NO_LIMIT = 2 ** 31 - 1; // the largest setTimeout delay; the SDK would otherwise stop at 60 s

/**
 * One upstream MCP server, reached over stdio or Streamable HTTP. It is started lazily by the first request,
 * and when its process exits (or the connection drops) the next request starts a fresh one; a request that was
 * in flight fails with an error naming the server and the last lines it wrote to stderr.
 */
export class UpstreamServer {
  readonly spec: McpServerSpec;
  private readonly options: UpstreamOptions;
  private connecting: Promise<Client> | undefined;
  private stderrTail: string[] = [];
  private closedUnexpectedly = 0;
  private generation = 0;
  private closing = false;
  /** How many times a process (or HTTP session) was started; tests and logs read it. */
  starts = 0;

  constructor(spec: McpServerSpec, options: UpstreamOptions = {}) {
    if (spec.command === undefined && spec.url === undefined)
      throw new ToolgenError("invalid_option", `upstream MCP server "${spec.name}" needs a command or a url`);
    this.spec = spec;
    this.options = options;
  }

  get label(): string {
    return `upstream MCP server "${this.spec.name}"`;
  }

  /** True while a connection is up (or being set up). */
  get running(): boolean {
    return this.connecting !== undefined;
  }

  async listTools(): Promise<{ tools: McpTool[]; serverInfo?: Implementation }> {
    const client = await this.client();
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { tools, serverInfo: client.getServerVersion() };
  }

  /**
   * Calls one tool upstream; rejects with a readable error on timeout, abort or a crash mid-call. The time limit
   * (0 = none) starts once the server is up; starting it has its own limit.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<CallToolResult> {
    const client = await this.client();
    const generation = this.generation;
    const crashesBefore = this.closedUnexpectedly;
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs && options.timeoutMs > 0 ? options.timeoutMs : NO_LIMIT,
      });
      return result as CallToolResult;
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && !options.signal?.aborted)
        throw new ToolgenError(
          "upstream_failure",
          `${this.label}: "${name}" did not finish within ${options.timeoutMs} ms`,
          {
            cause: error,
          },
        );
      if (this.closedUnexpectedly > crashesBefore || generation !== this.generation) {
        throw new ToolgenError(
          "upstream_failure",
          `${this.label} exited during the call to "${name}"; it will be restarted on the next call` +
            this.stderrHint(),
          { cause: error },
        );
      }
      throw new ToolgenError("upstream_failure", `${this.label}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    const pending = this.connecting;
    this.connecting = undefined;
    this.closing = true;
    try {
      await (await pending?.catch(() => undefined))?.close();
    } finally {
      this.closing = false;
    }
  }

  private client(): Promise<Client> {
    this.connecting ??= this.start().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async start(): Promise<Client> {
    const generation = ++this.generation;
    this.starts++;
    const transport = this.transport();
    const client = new Client(CLIENT_INFO);
    client.onclose = () => {
      if (generation !== this.generation) return;
      if (!this.closing) this.closedUnexpectedly++;
      this.connecting = undefined; // the next request starts a fresh process
      this.generation++;
    };
    const limit = this.options.startTimeoutMs ?? 20_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not answer initialize within ${limit} ms`)), limit);
    });
    try {
      await Promise.race([client.connect(transport), timeout]);
      return client;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new ToolgenError(
        "upstream_failure",
        `cannot start ${this.label} (${this.describe()}): ${(error as Error).message}${this.stderrHint()}`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private transport(): Transport {
    const { spec } = this;
    if (spec.url !== undefined) return new StreamableHTTPClientTransport(new URL(spec.url));
    const transport = new StdioClientTransport({
      command: spec.command!,
      args: spec.args ?? [],
      ...(spec.env === undefined ? {} : { env: spec.env }),
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
      stderr: "pipe",
    });
    let partial = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString("utf8")).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) this.keepStderr(line);
    });
    return transport;
  }

  private keepStderr(line: string): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    if (this.options.onStderr) this.options.onStderr(line);
    else process.stderr.write(`[${this.spec.name}] ${line}\n`);
  }

  private stderrHint(): string {
    const tail = this.stderrTail.filter((l) => l.trim() !== "").slice(-3);
    return tail.length === 0 ? "" : `; its last stderr lines: ${tail.join(" | ")}`;
  }

  private describe(): string {
    const { spec } = this;
    return spec.url ?? [spec.command, ...(spec.args ?? [])].join(" ");
  }
}
