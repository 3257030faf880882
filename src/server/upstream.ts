import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  ProgressNotificationSchema,
  type CallToolResult,
  type Implementation,
  type Notification,
  type ServerCapabilities,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerSpec } from "../catalog/import/mcp.ts";
import { ToolgenError } from "../errors.ts";
import { listAllPages } from "./paginate.ts";
import { PassThroughResultSchema, relayForRequest, type CallRelay } from "./relay.ts";

export interface UpstreamOptions {
  /** Milliseconds allowed for starting the server and the `initialize` handshake (default 20 000). */
  startTimeoutMs?: number;
  /** Where the child's stderr goes besides the kept tail (default: this process's stderr, prefixed). */
  onStderr?: (line: string) => void;
  /** Where the gateway reports an upstream that exited on its own (default: this process's stderr). */
  onWarning?: (line: string) => void;
}

/**
 * How to reach an upstream, with what only the gateway may know: for a Streamable HTTP server, request headers
 * and a bearer token (sent as `Authorization`); never written to catalogs, results or logs.
 */
export interface UpstreamSpec extends McpServerSpec {
  headers?: Record<string, string>;
  bearerToken?: string;
}

/** The parts of a spec that may be shown (in a catalog entry, `get_tool`): no environment, headers or token. */
export function publicSpec(spec: UpstreamSpec): McpServerSpec {
  const { env: _env, headers: _headers, bearerToken: _token, ...shown } = spec;
  return shown;
}

/** What the gateway does with what an upstream sends on its own: notifications (logs, updates, list changes). */
export type UpstreamNotificationHandler = (upstream: UpstreamServer, notification: Notification) => void;

const CLIENT_INFO: Implementation = { name: "toolgen-router", version: "0.1.0" };
const STDERR_TAIL_LINES = 20;
const NO_LIMIT = 2 ** 31 - 1; // the largest setTimeout delay; the SDK would otherwise stop at 60 s

/**
 * One upstream MCP server, reached over stdio or Streamable HTTP. It is started lazily by the first request,
 * and when its process exits (or the connection drops) the next request starts a fresh one; a request that was
 * in flight fails with an error naming the server and the last lines it wrote to stderr.
 */
export class UpstreamServer {
  readonly spec: UpstreamSpec;
  private readonly options: UpstreamOptions;
  private connecting: Promise<Client> | undefined;
  private stderrTail: string[] = [];
  private closedUnexpectedly = 0;
  private generation = 0;
  private closing = false;
  /** Failed starts and crashes since the last call that succeeded, and when the next start may be tried. */
  private failures = 0;
  private retryAt = 0;
  private lastFailure = "";
  /** Calls in flight, each with its way back to the client that made it. */
  private readonly inFlight = new Set<CallRelay>();
  /** Progress tokens of the calls in flight that asked for progress. */
  private readonly progress = new Map<string, { relay: CallRelay; forwarded: Promise<unknown>[] }>();
  private progressCount = 0;
  /** How many times a process (or HTTP session) was started; tests and logs read it. */
  starts = 0;
  /** Set by the gateway: where log messages, resource updates and list changes from this upstream go. */
  onNotification?: UpstreamNotificationHandler;

  constructor(spec: UpstreamSpec, options: UpstreamOptions = {}) {
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
    const tools = (await this.listAll("tools/list", "tools")) as McpTool[];
    return { tools, serverInfo: client.getServerVersion() };
  }

  /** What the upstream said it offers at `initialize` (starts it if needed). */
  async capabilities(): Promise<ServerCapabilities> {
    return (await this.client()).getServerCapabilities() ?? {};
  }

  /** Every item of a paginated list (`tools/list`, `prompts/list`, ...), following cursors, never looping. */
  async listAll(method: string, key: string): Promise<Record<string, unknown>[]> {
    return listAllPages(`${this.label} ${method}`, (cursor) =>
      this.request(method, cursor === undefined ? {} : { cursor }).then((page) => ({
        items: (Array.isArray(page[key]) ? page[key] : []) as Record<string, unknown>[],
        nextCursor: page.nextCursor,
      })),
    );
  }

  /** One request upstream, its result passed back as it came; it fails after `timeoutMs` (default 30 s; 0 = none). */
  async request(
    method: string,
    params: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    const client = await this.client();
    const limit = options.timeoutMs ?? 30_000;
    return client.request({ method, params } as never, PassThroughResultSchema, {
      ...(options.signal ? { signal: options.signal } : {}),
      timeout: limit > 0 ? limit : NO_LIMIT,
    });
  }

  /**
   * Calls one tool upstream; rejects with a readable error on timeout, abort or a crash mid-call. The time limit
   * (0 = none) starts once the server is up; starting it has its own limit.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: {
      signal?: AbortSignal;
      timeoutMs?: number;
      relay?: CallRelay;
      meta?: Record<string, unknown>;
    } = {},
  ): Promise<CallToolResult> {
    const client = await this.client();
    const generation = this.generation;
    const crashesBefore = this.closedUnexpectedly;
    const { relay } = options;
    if (relay) this.inFlight.add(relay);
    // Progress goes back to the client under its own token. The gateway tracks its tokens itself: the SDK's own
    // progress handling drops a notification that arrives in the same read as the response.
    const token =
      relay?.progressToken === undefined ? undefined : `${this.spec.name}-${++this.progressCount}`;
    const forwarded: Promise<unknown>[] = [];
    if (token !== undefined) this.progress.set(token, { relay: relay!, forwarded });
    try {
      const result = await client.request(
        {
          method: "tools/call",
          params: {
            name,
            arguments: args,
            // The client's _meta goes along as it came, its progress token swapped for the gateway's.
            ...(token === undefined && options.meta === undefined
              ? {}
              : { _meta: { ...options.meta, ...(token === undefined ? {} : { progressToken: token }) } }),
          },
        },
        PassThroughResultSchema,
        {
          ...(options.signal ? { signal: options.signal } : {}),
          timeout: options.timeoutMs && options.timeoutMs > 0 ? options.timeoutMs : NO_LIMIT,
        },
      );
      await Promise.all(forwarded);
      this.failures = 0;
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
    } finally {
      if (relay) this.inFlight.delete(relay);
      if (token !== undefined) this.progress.delete(token);
    }
  }

  /** The calls in flight now, with their ways back to their clients. */
  get relays(): ReadonlySet<CallRelay> {
    return this.inFlight;
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
    if (this.connecting === undefined) {
      const wait = this.retryAt - Date.now();
      if (wait > 0)
        return Promise.reject(
          new ToolgenError(
            "upstream_failure",
            `${this.label} is unavailable: it failed ${this.failures} times in a row; next try in ` +
              `${(wait / 1000).toFixed(1)} s (last failure: ${this.lastFailure})`,
          ),
        );
    }
    this.connecting ??= this.start().catch((error: unknown) => {
      this.connecting = undefined;
      this.failed((error as Error).message);
      throw error;
    });
    return this.connecting;
  }

  /**
   * Counts a failed start or a crash. The first is retried at once (the next request starts it again); after
   * that requests are answered at once with "unavailable" until a backoff of 0.5 s, doubling to 30 s, has passed.
   */
  private failed(reason: string): void {
    this.failures++;
    this.lastFailure = reason.split("\n")[0]!.slice(0, 300);
    this.retryAt = this.failures <= 1 ? 0 : Date.now() + Math.min(30_000, 500 * 2 ** (this.failures - 2));
  }

  private async start(): Promise<Client> {
    const generation = ++this.generation;
    this.starts++;
    const transport = this.transport();
    const client = new Client(CLIENT_INFO, {
      capabilities: { sampling: {}, elicitation: { form: {}, url: {} } },
    });
    this.relayRequests(client);
    client.setNotificationHandler(ProgressNotificationSchema, async ({ params }) => {
      const call = this.progress.get(String(params.progressToken));
      if (!call) return;
      const { progressToken: _, ...rest } = params;
      const back = {
        method: "notifications/progress",
        params: { ...rest, progressToken: call.relay.progressToken! },
      };
      call.forwarded.push(call.relay.notify(back).catch(() => undefined));
    });
    client.fallbackNotificationHandler = async (notification) => this.onNotification?.(this, notification);
    let up = false; // a failed start is counted where it is reported, not again here
    client.onclose = () => {
      if (generation !== this.generation) return;
      if (!this.closing) {
        this.closedUnexpectedly++;
        if (up) {
          this.failed(`the process exited${this.stderrHint()}`);
          const warn = this.options.onWarning ?? ((line: string) => void process.stderr.write(`${line}\n`));
          warn(
            `toolgen MCP router: warning: ${this.label} exited${this.stderrHint()}; it restarts on the next request`,
          );
        }
      }
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
      up = true;
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

  /** Sampling and elicitation from the upstream go to the client whose call is in flight, and the answer back. */
  private relayRequests(client: Client): void {
    for (const schema of [CreateMessageRequestSchema, ElicitRequestSchema]) {
      client.setRequestHandler(schema, async (request, extra) => {
        const relay = relayForRequest(this.inFlight, request.method, this.label);
        return (await relay.request(request, { signal: extra.signal })) as never;
      });
    }
  }

  private transport(): Transport {
    const { spec } = this;
    if (spec.url !== undefined) {
      const headers = {
        ...spec.headers,
        ...(spec.bearerToken === undefined ? {} : { authorization: `Bearer ${spec.bearerToken}` }),
      };
      return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers } });
    }
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
