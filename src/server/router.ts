import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CatalogEntry } from "../catalog/catalog.ts";
import type { Retriever } from "../retrieval/retriever.ts";
import { executeToolCall } from "../tools/execute.ts";
import { closestNames } from "../tools/suggest.ts";
import type { JsonSchema, Tool } from "../tools/types.ts";
import type { Executor, ExecutorKind } from "./executors.ts";
import type { CallRelay } from "./relay.ts";
import type { UpstreamServer } from "./upstream.ts";
import { ToolgenError } from "../errors.ts";

/** One search hit as `search_tools` returns it. */
export interface ToolSearchResult {
  id: string;
  description: string;
  inputSchema: JsonSchema;
}

/** What `get_tool` returns: the whole entry, the executor that would run it, and its raw source document. */
export interface ToolDocument extends ToolSearchResult {
  tool: string;
  api: string;
  category?: string;
  executor: ExecutorKind | "none";
  target?: string;
  doc: unknown;
}

export interface ToolRouterOptions {
  entries: readonly CatalogEntry[];
  retriever: Retriever;
  executors: ReadonlyMap<string, Executor>;
  upstreams?: ReadonlyMap<string, UpstreamServer>;
  /** Milliseconds a call may take (default 30 000; 0 = no limit). */
  timeoutMs?: number;
  /** Largest k a search may ask for (default 50). */
  maxK?: number;
  /** Upstreams whose tools were listed live at start (the config's servers no catalog lists), by name. */
  live?: readonly string[];
}

/** Thrown for a request the router cannot serve (unknown id, bad k); the MCP layer turns it into an error result. */
export class RouterError extends ToolgenError {
  override name = "RouterError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("router", message, options);
  }
}

export const NO_EXECUTOR_MESSAGE = "no executor configured for this tool";

/**
 * The transport-free core of the MCP tool router: search over a catalog, describe one entry, call one entry
 * through its executor. Calls go through executeToolCall (src/tools/execute.ts), so arguments are validated
 * against the catalog schema and time limits and aborts behave as for any tool. A value of the wrong type is
 * refused with the violation named, never converted: a gateway does not change a call on its way through.
 */
export class ToolRouter {
  private byId: Map<string, CatalogEntry>;
  private options: ToolRouterOptions;
  /** Other exact names of an entry (its exposed name, its own name upstream), for exact-name search. */
  private aliases = new Map<string, string>();

  constructor(options: ToolRouterOptions) {
    this.options = options;
    this.byId = new Map(options.entries.map((e) => [e.id, e]));
  }

  /** Every entry, in catalog order. */
  get entries(): readonly CatalogEntry[] {
    return this.options.entries;
  }

  executor(id: string): Executor | undefined {
    return this.options.executors.get(id);
  }

  get upstreams(): ReadonlyMap<string, UpstreamServer> {
    return this.options.upstreams ?? new Map();
  }

  get live(): readonly string[] {
    return this.options.live ?? [];
  }

  /** The call time limit in milliseconds (0 = none). */
  get timeoutMs(): number {
    return this.options.timeoutMs ?? 30_000;
  }

  /** Names that find an entry first in `search` when a query is exactly that name. */
  setAliases(aliases: ReadonlyMap<string, string>): void {
    this.aliases = new Map(aliases);
  }

  /**
   * Swaps in a new catalog (an upstream's tools or a catalog file changed); searches and calls in progress finish
   * on the old one. New upstream servers join the ones kept (none is stopped here).
   */
  replace(
    entries: readonly CatalogEntry[],
    retriever: Retriever,
    executors: ReadonlyMap<string, Executor>,
    upstreams?: ReadonlyMap<string, UpstreamServer>,
  ): void {
    const kept = new Map([...this.upstreams, ...(upstreams ?? [])]);
    this.options = { ...this.options, entries, retriever, executors, upstreams: kept };
    this.byId = new Map(entries.map((e) => [e.id, e]));
  }

  get size(): number {
    return this.byId.size;
  }

  get maxK(): number {
    return this.options.maxK ?? 50;
  }

  async search(query: string, k = 5): Promise<ToolSearchResult[]> {
    if (typeof query !== "string" || query.trim() === "")
      throw new RouterError("query must be a non-empty text");
    if (!Number.isInteger(k) || k < 1 || k > this.maxK)
      throw new RouterError(`k must be an integer from 1 to ${this.maxK}, got ${JSON.stringify(k)}`);
    const hits = await this.options.retriever.search(query, { k });
    const exact = this.exactMatch(query.trim());
    const ids = [...(exact ? [exact] : []), ...hits.map((h) => h.id).filter((id) => id !== exact)];
    return ids.slice(0, k).flatMap((id) => {
      const entry = this.byId.get(id);
      return entry ? [{ id: entry.id, description: entry.description, inputSchema: entry.parameters }] : [];
    });
  }

  /** The entry a query names exactly (its id or an alias), so that a tool asked for by name always comes first. */
  private exactMatch(query: string): string | undefined {
    if (this.byId.has(query)) return query;
    const alias = this.aliases.get(query);
    return alias !== undefined && this.byId.has(alias) ? alias : undefined;
  }

  describe(id: string): ToolDocument {
    const entry = this.entry(id);
    const executor = this.options.executors.get(id);
    return {
      id: entry.id,
      tool: entry.tool,
      api: entry.api,
      ...(entry.category === undefined ? {} : { category: entry.category }),
      description: entry.description,
      inputSchema: entry.parameters,
      executor: executor?.kind ?? "none",
      ...(executor ? { target: executor.target } : {}),
      doc: entry.doc,
    };
  }

  /**
   * Runs one entry. Never throws: every failure is an MCP result with `isError: true` and a readable text. A
   * relay carries what an upstream sends during the call (progress, logs, sampling) back to the client.
   */
  async call(id: string, args: unknown, signal?: AbortSignal, relay?: CallRelay): Promise<CallToolResult> {
    let entry: CatalogEntry;
    try {
      entry = this.entry(id);
    } catch (error) {
      return errorResult((error as Error).message);
    }
    const executor = this.options.executors.get(entry.id);
    if (!executor) {
      return errorResult(
        `${NO_EXECUTOR_MESSAGE}: "${entry.id}" is a catalog-only entry. Serve it by giving the router a module ` +
          `that exports it, the upstream MCP server it was imported from, or an OpenAPI base URL (--config).`,
      );
    }
    const limit = this.options.timeoutMs ?? 30_000;
    let passthrough: CallToolResult | undefined;
    const tool: Tool = {
      name: entry.id,
      description: entry.description,
      parameters: entry.parameters,
      execute: async (validated, context) => {
        const output = await executor.run(validated, context, limit);
        if ("value" in output) return output.value;
        passthrough = output.mcp;
        return output.mcp.structuredContent ?? output.mcp.content;
      },
    };
    const result = await executeToolCall(
      {
        id: "router",
        type: "function",
        function: { name: entry.id, arguments: (args ?? {}) as Record<string, unknown> },
      },
      [tool],
      { ...(signal ? { signal } : {}), ...(relay ? { relay } : {}) },
      { timeoutMs: executor.ownTimeout ? 0 : limit, coerce: false },
    );
    if (!result.ok) return errorResult(result.error.message);
    return passthrough ?? { content: [{ type: "text", text: result.content }] };
  }

  /** Stops the upstream servers that were started. */
  async close(): Promise<void> {
    await Promise.all([...(this.options.upstreams?.values() ?? [])].map((u) => u.close()));
  }

  private entry(id: string): CatalogEntry {
    if (typeof id !== "string" || id === "")
      throw new RouterError("id must be a catalog id (from search_tools)");
    // An id, or another exact name of one (its exposed name, its own name upstream).
    const entry = this.byId.get(id) ?? this.byId.get(this.aliases.get(id) ?? "");
    if (entry) return entry;
    const near = closestNames(id, [...this.byId.keys()]);
    throw new RouterError(
      `unknown tool id ${JSON.stringify(id)}${near.length > 0 ? `; did you mean ${near.map((n) => JSON.stringify(n)).join(", ")}?` : ""} ` +
        `(use search_tools to find ids)`,
    );
  }
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
