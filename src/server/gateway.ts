import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolResultSchema,
  type CallToolResult,
  type LoggingLevel,
  type Notification,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { isMcpEntryDoc } from "../catalog/import/mcp.ts";
import type { Retriever } from "../retrieval/retriever.ts";
import { upstreamExecutor, type Executor } from "./executors.ts";
import {
  exposeTools,
  resolveExposure,
  DEFAULT_TOOL_TOKEN_BUDGET,
  type ExposedTool,
  type ExposeMode,
} from "./exposure.ts";
import { upstreamEntries } from "./live-upstreams.ts";
import { checkNamingOptions, type NamingOptions } from "./naming.ts";
import { listOfferings, Offerings } from "./offerings.ts";
import type { CallRelay } from "./relay.ts";
import { errorResult, type ToolRouter } from "./router.ts";
import type { UpstreamServer } from "./upstream.ts";

export interface GatewayOptions extends NamingOptions {
  /** What tools/list shows (default `search`). */
  expose?: ExposeMode;
  /** Token budget of `expose: auto` (default 10 000). */
  toolTokenBudget?: number;
  /** Builds a retriever over a changed catalog (an upstream's tools changed); without it the catalog is kept. */
  retrieverFor?: (entries: readonly CatalogEntry[]) => Promise<Retriever>;
  /** Where problems with upstreams are reported (default: stderr). */
  warn?: (line: string) => void;
  /** First wait before listing again a live upstream that could not be listed (default 5 s, doubling to 5 min). */
  retryMs?: number;
}

/** A catalog bound to its executors and upstream servers: what reloading the catalog files gives. */
export interface CatalogBinding {
  entries: CatalogEntry[];
  executors: Map<string, Executor>;
  upstreams: Map<string, UpstreamServer>;
}

/** One client connection: its MCP server object, its log level and its resource subscriptions. */
export interface GatewaySession {
  readonly server: Server;
  level?: LoggingLevel;
  readonly subscriptions: Set<string>;
}

const SEVERITY: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** True when a message at `level` passes a session's `logging/setLevel` (no level set: everything passes). */
export function levelAccepts(threshold: LoggingLevel | undefined, level: string): boolean {
  if (threshold === undefined) return true;
  return SEVERITY.indexOf(level as LoggingLevel) >= SEVERITY.indexOf(threshold);
}

/**
 * The MCP gateway over a router: which tools a client sees and how a call by exposed name reaches its
 * upstream, the merged prompts and resources of the live upstreams, and everything upstreams send on their
 * own (log messages, resource updates, list changes) routed to the client sessions it concerns.
 */
export class Gateway {
  readonly router: ToolRouter;
  private readonly options: GatewayOptions;
  private tools: ExposedTool[] = [];
  private byName = new Map<string, ExposedTool>();
  private mode: "search" | "all" = "search";
  private offerings: Offerings;
  private readonly sessions = new Set<GatewaySession>();
  private readonly subscribers = new Map<string, number>();
  private reindexing: Promise<void> = Promise.resolve();
  private readonly closers: (() => void)[] = [];

  private constructor(router: ToolRouter, options: GatewayOptions, offerings: Offerings) {
    checkNamingOptions(options);
    this.router = router;
    this.options = options;
    this.offerings = offerings;
    this.exposeCatalog();
    for (const name of router.live) {
      const upstream = router.upstreams.get(name);
      if (!upstream) continue;
      upstream.onNotification = (u, n) => this.onUpstreamNotification(u, n);
      if (!router.entries.some((e) => isMcpEntryDoc(e.doc) && e.doc.mcp.name === name))
        this.retryListing(upstream, options.retryMs ?? 5_000);
    }
  }

  /** Lists a live upstream that could not be listed at start again after `delayMs`, doubling to 5 minutes. */
  private retryListing(upstream: UpstreamServer, delayMs: number): void {
    const timer = setTimeout(() => {
      this.queue(async () => {
        try {
          await this.reindexTools(upstream);
        } catch (error) {
          this.warn(`${upstream.label} still has no tools: ${(error as Error).message}`);
          return this.retryListing(upstream, Math.min(delayMs * 2, 300_000));
        }
        this.offerings = await Gateway.listOfferings(this.router, this.options);
        this.broadcast("notifications/prompts/list_changed");
        this.broadcast("notifications/resources/list_changed");
      });
    }, delayMs).unref();
    this.onClose(() => clearTimeout(timer));
  }

  /** A gateway over a router; lists the live upstreams' prompts and resources first. */
  static async create(router: ToolRouter, options: GatewayOptions = {}): Promise<Gateway> {
    return new Gateway(router, options, await Gateway.listOfferings(router, options));
  }

  /** `search` or `all`: what tools/list shows now (`auto` resolved against the budget). */
  get exposure(): "search" | "all" {
    return this.mode;
  }

  /** The callable tools under their exposed names (listed by tools/list in `all` mode). */
  get exposedTools(): readonly ExposedTool[] {
    return this.tools;
  }

  get merged(): Offerings {
    return this.offerings;
  }

  tool(name: string): ExposedTool | undefined {
    return this.byName.get(name);
  }

  /**
   * Calls a tool by its exposed name. An upstream tool gets its arguments and gives its result exactly as they
   * are (the upstream checks its own schema); a local or OpenAPI tool goes through the router's checks.
   */
  async call(
    tool: ExposedTool,
    args: Record<string, unknown>,
    signal: AbortSignal,
    relay: CallRelay,
    meta?: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const upstream = tool.upstream && this.router.upstreams.get(tool.upstream.server);
    if (!upstream || !tool.upstream) return this.router.call(tool.entryId, args, signal, relay);
    try {
      const result = await upstream.callTool(tool.upstream.tool, args, {
        signal,
        timeoutMs: this.router.timeoutMs,
        relay,
        ...(meta === undefined ? {} : { meta }),
      });
      const valid = CallToolResultSchema.safeParse(result);
      if (!valid.success)
        return errorResult(`${upstream.label} returned a result that is not a tools/call result`);
      return result as CallToolResult;
    } catch (error) {
      return errorResult((error as Error).message);
    }
  }

  attach(session: GatewaySession): void {
    this.sessions.add(session);
  }

  /** Forgets a closed session and drops the upstream subscriptions only it held. */
  async detach(session: GatewaySession): Promise<void> {
    this.sessions.delete(session);
    await Promise.all([...session.subscriptions].map((uri) => this.unsubscribe(session, uri)));
  }

  /** A session's `logging/setLevel`; upstreams get the most verbose level any session asked for. */
  async setLevel(session: GatewaySession, level: LoggingLevel): Promise<void> {
    session.level = level;
    const levels = [...this.sessions].map((s) => s.level).filter((l) => l !== undefined);
    const verbose = SEVERITY.find((l) => levels.includes(l)) ?? level;
    await Promise.all(
      // An upstream that is down or refuses is reported; the client's own level holds either way.
      this.liveUpstreams().map(async (upstream) => {
        try {
          if ((await upstream.capabilities()).logging)
            await upstream.request("logging/setLevel", { level: verbose });
        } catch (error) {
          this.warn(`${upstream.label} did not take logging/setLevel: ${(error as Error).message}`);
        }
      }),
    );
  }

  async subscribe(session: GatewaySession, uri: string, upstream: UpstreamServer): Promise<void> {
    if (session.subscriptions.has(uri)) return;
    const count = this.subscribers.get(uri) ?? 0;
    if (count === 0) await upstream.request("resources/subscribe", { uri });
    session.subscriptions.add(uri);
    this.subscribers.set(uri, count + 1);
  }

  async unsubscribe(session: GatewaySession, uri: string): Promise<void> {
    if (!session.subscriptions.delete(uri)) return;
    const count = (this.subscribers.get(uri) ?? 1) - 1;
    if (count > 0) return void this.subscribers.set(uri, count);
    this.subscribers.delete(uri);
    await this.offerings
      .resourceOwner(uri)
      ?.request("resources/unsubscribe", { uri })
      .catch(() => undefined);
  }

  /** Runs `stop` when the gateway closes (a file watcher, a timer). */
  onClose(stop: () => void): void {
    this.closers.push(stop);
  }

  async close(): Promise<void> {
    for (const stop of this.closers.splice(0)) stop();
    await this.router.close();
  }

  /**
   * Re-reads the catalog files (`reload`), swaps the catalog in and tells every client. A file that cannot be
   * read (half written, broken) is reported and the catalog served so far is kept.
   */
  reloadCatalog(reload: () => CatalogBinding): void {
    this.queue(async () => {
      let binding: CatalogBinding;
      try {
        binding = reload();
      } catch (error) {
        return this.warn(`catalog not reloaded, the one served is kept: ${(error as Error).message}`);
      }
      await this.swap(binding.entries, binding.executors, binding.upstreams);
    });
  }

  private liveUpstreams(): UpstreamServer[] {
    return this.router.live.flatMap((name) => this.router.upstreams.get(name) ?? []);
  }

  private exposeCatalog(): void {
    this.tools = exposeTools(
      this.router.entries,
      (id) => this.router.executor(id) !== undefined,
      this.options,
    );
    this.byName = new Map(this.tools.map((t) => [t.name, t]));
    const definitions: McpTool[] = this.tools.map((t) => t.definition);
    this.mode = resolveExposure(
      this.options.expose ?? "search",
      definitions,
      this.options.toolTokenBudget ?? DEFAULT_TOOL_TOKEN_BUDGET,
    );
    const aliases = new Map<string, string>();
    for (const t of this.tools) {
      aliases.set(t.name, t.entryId);
      if (t.upstream && !aliases.has(t.upstream.tool)) aliases.set(t.upstream.tool, t.entryId);
    }
    this.router.setAliases(aliases);
  }

  private static async listOfferings(router: ToolRouter, options: GatewayOptions): Promise<Offerings> {
    const lists = await Promise.all(
      router.live.flatMap((name) => {
        const upstream = router.upstreams.get(name);
        return upstream
          ? [
              listOfferings(upstream).catch((error: unknown) => {
                (options.warn ?? stderr)(
                  `toolgen MCP router: warning: cannot list the prompts and resources of ${upstream.label}: ${(error as Error).message}`,
                );
                return { upstream, prompts: [], resources: [], templates: [] };
              }),
            ]
          : [];
      }),
    );
    return new Offerings(lists, options);
  }

  private onUpstreamNotification(upstream: UpstreamServer, notification: Notification): void {
    const params = (notification.params ?? {}) as Record<string, unknown>;
    switch (notification.method) {
      case "notifications/message":
        return this.forwardLog(upstream, params as { level: string });
      case "notifications/resources/updated":
        for (const session of this.sessions)
          if (session.subscriptions.has(String(params.uri)))
            void session.server.sendResourceUpdated(params as { uri: string }).catch(() => undefined);
        return;
      case "notifications/tools/list_changed":
        return this.queue(() => this.reindexTools(upstream));
      case "notifications/prompts/list_changed":
      case "notifications/resources/list_changed":
        return this.queue(async () => {
          this.offerings = await Gateway.listOfferings(this.router, this.options);
          this.broadcast(notification.method);
        });
    }
  }

  /** A log message goes to the clients whose calls are in flight on that upstream, else to every client. */
  private forwardLog(upstream: UpstreamServer, params: { level: string }): void {
    const relays = [...upstream.relays];
    if (relays.length > 0) {
      const bySession = new Map(relays.map((r) => [r.session, r]));
      for (const relay of bySession.values()) void relay.log(params).catch(() => undefined);
      return;
    }
    for (const session of this.sessions)
      if (levelAccepts(session.level, params.level))
        void session.server
          .notification({ method: "notifications/message", params } as never)
          .catch(() => undefined);
  }

  private queue(task: () => Promise<void>): void {
    this.reindexing = this.reindexing.then(task).catch((error: unknown) => {
      this.warn(`re-indexing after an upstream change failed: ${(error as Error).message}`);
    });
  }

  /** An upstream's tools changed: list them again, swap the catalog and tell every client. */
  private async reindexTools(upstream: UpstreamServer): Promise<void> {
    const fresh = await upstreamEntries(upstream);
    const theirs = (e: CatalogEntry): boolean =>
      isMcpEntryDoc(e.doc) && e.doc.mcp.name === upstream.spec.name;
    const others = this.router.entries.filter((e) => !theirs(e));
    const entries = [...others, ...fresh];
    const executors = new Map<string, Executor>();
    for (const e of others) {
      const executor = this.router.executor(e.id);
      if (executor) executors.set(e.id, executor);
    }
    for (const e of fresh) executors.set(e.id, upstreamExecutor(upstream, e.api));
    await this.swap(entries, executors);
  }

  private async swap(
    entries: CatalogEntry[],
    executors: ReadonlyMap<string, Executor>,
    upstreams?: ReadonlyMap<string, UpstreamServer>,
  ): Promise<void> {
    if (!this.options.retrieverFor)
      return this.warn("the catalog changed; no retriever to rebuild, it is kept as it was");
    this.router.replace(entries, await this.options.retrieverFor(entries), executors, upstreams);
    this.exposeCatalog();
    this.broadcast("notifications/tools/list_changed");
  }

  private broadcast(method: string): void {
    for (const session of this.sessions)
      void session.server.notification({ method } as never).catch(() => undefined);
  }

  private warn(line: string): void {
    (this.options.warn ?? stderr)(`toolgen MCP router: warning: ${line}`);
  }
}

function stderr(line: string): void {
  process.stderr.write(`${line}\n`);
}
