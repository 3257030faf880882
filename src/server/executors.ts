import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isMcpEntryDoc, type McpServerSpec } from "../catalog/import/mcp.ts";
import type { CatalogEntry } from "../catalog/catalog.ts";
import type { Tool, ToolContext } from "../tools/types.ts";
import type { OpenApiTarget, RouterConfig } from "./config.ts";
import type { CallRelay } from "./relay.ts";
import { callOpenApiOperation, isOpenApiOperationDoc } from "./openapi-executor.ts";
import { UpstreamServer, type UpstreamOptions } from "./upstream.ts";
import { ToolgenError } from "../errors.ts";

export type ExecutorKind = "module" | "mcp" | "openapi";

/** Runs the calls of one catalog entry. Arguments arrive already validated against the entry's schema. */
export interface Executor {
  kind: ExecutorKind;
  /** Where calls go, for people: the module's tool, the upstream server, the base URL. */
  target: string;
  /**
   * True when the executor applies the call's time limit itself, so that starting an upstream server does not
   * count against it (its start-up has its own limit).
   */
  ownTimeout?: boolean;
  /** `timeoutMs` is the call's limit (0 = none); executors without `ownTimeout` are timed by the router. */
  run(args: Record<string, unknown>, context: ToolContext, timeoutMs: number): Promise<ExecutorOutput>;
}

/** A plain value (written as JSON or text), or an upstream MCP result passed through as it came. */
export type ExecutorOutput = { value: unknown } | { mcp: CallToolResult };

export function moduleExecutor(tool: Tool, file: string): Executor {
  return {
    kind: "module",
    target: `${tool.name} in ${file}`,
    run: async (args, context) => ({ value: await tool.execute!(args, context) }),
  };
}

export function upstreamExecutor(server: UpstreamServer, toolName: string): Executor {
  return {
    kind: "mcp",
    target: `${toolName} on ${server.label}`,
    ownTimeout: true,
    run: async (args, context, timeoutMs) => ({
      mcp: await server.callTool(toolName, args, {
        ...(context.signal ? { signal: context.signal } : {}),
        timeoutMs,
        ...(context.relay ? { relay: context.relay as CallRelay } : {}),
      }),
    }),
  };
}

export function openApiExecutor(entry: CatalogEntry, target: OpenApiTarget): Executor {
  if (!isOpenApiOperationDoc(entry.doc))
    throw new ToolgenError("invalid_input", `${entry.id} is not an OpenAPI operation`);
  const op = entry.doc;
  return {
    kind: "openapi",
    target: `${op.method.toUpperCase()} ${target.baseUrl.replace(/\/+$/, "")}${op.path}`,
    run: async (args, context) => ({ value: await callOpenApiOperation(op, target, args, context) }),
  };
}

/** The OpenAPI target of a document title: the config's, else `TOOLGEN_OPENAPI_BASE_URL` (+ `_TOKEN`). */
export function openApiTargetFor(
  title: string,
  config: RouterConfig,
  env: NodeJS.ProcessEnv,
): OpenApiTarget | undefined {
  const configured = config.openapi?.[title];
  if (configured) return configured;
  const baseUrl = env.TOOLGEN_OPENAPI_BASE_URL;
  if (!baseUrl) return undefined;
  const token = env.TOOLGEN_OPENAPI_TOKEN;
  return token ? { baseUrl, bearerToken: token } : { baseUrl };
}

/**
 * Chooses each entry's executor: a module tool of the same id, the upstream MCP server its import recorded
 * (the config's `mcpServers` may override how to reach it), or an OpenAPI target; otherwise none (catalog-only).
 * Upstream servers are shared by name (`started` ones are reused) and start only when first called.
 */
export function bindExecutors(
  entries: readonly CatalogEntry[],
  moduleTools: ReadonlyMap<string, { tool: Tool; file: string }>,
  config: RouterConfig,
  env: NodeJS.ProcessEnv = process.env,
  upstreamOptions: UpstreamOptions = {},
  started: ReadonlyMap<string, UpstreamServer> = new Map(),
): { executors: Map<string, Executor>; upstreams: Map<string, UpstreamServer> } {
  const executors = new Map<string, Executor>();
  const upstreams = new Map<string, UpstreamServer>(started);
  const upstream = (spec: McpServerSpec): UpstreamServer => {
    let server = upstreams.get(spec.name);
    if (!server) {
      const override = config.mcpServers?.[spec.name];
      server = new UpstreamServer(override ? { name: spec.name, ...override } : spec, upstreamOptions);
      upstreams.set(spec.name, server);
    }
    return server;
  };
  for (const entry of entries) {
    const local = moduleTools.get(entry.id);
    if (local?.tool.execute) {
      executors.set(entry.id, moduleExecutor(local.tool, local.file));
    } else if (isMcpEntryDoc(entry.doc)) {
      executors.set(entry.id, upstreamExecutor(upstream(entry.doc.mcp), entry.doc.tool.name));
    } else if (isOpenApiOperationDoc(entry.doc)) {
      const target = openApiTargetFor(entry.tool, config, env);
      if (target) executors.set(entry.id, openApiExecutor(entry, target));
    }
  }
  return { executors, upstreams };
}
