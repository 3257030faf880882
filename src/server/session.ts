import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { onRequest, type Extra } from "./checked-handler.ts";
import { Gateway, levelAccepts, type GatewaySession } from "./gateway.ts";
import { handleRouterCall, ROUTER_INSTRUCTIONS, routerToolDefinitions } from "./mcp.ts";
import { pageOf } from "./paginate.ts";
import { PassThroughResultSchema, type CallRelay } from "./relay.ts";
import { ToolRouter } from "./router.ts";
import type { UpstreamServer } from "./upstream.ts";

const RESOURCE_NOT_FOUND = -32002;
const ROUTER_TOOLS = new Set(["search_tools", "call_tool", "get_tool"]);

/** The way back to this session's client for what an upstream sends during one call. */
function relayFor(session: GatewaySession, extra: Extra, progressToken?: string | number): CallRelay {
  const client = (): Record<string, unknown> => session.server.getClientCapabilities() ?? {};
  return {
    session,
    ...(progressToken === undefined ? {} : { progressToken }),
    notify: (notification) => extra.sendNotification(notification as ServerNotification),
    log: async (params) => {
      if (levelAccepts(session.level, params.level))
        await extra.sendNotification({ method: "notifications/message", params } as ServerNotification);
    },
    request: async (request, { signal }) => {
      const capability = request.method === "sampling/createMessage" ? "sampling" : "elicitation";
      if (!client()[capability])
        throw new McpError(
          ErrorCode.InvalidRequest,
          `the client connected to the gateway does not support ${capability} (${request.method})`,
        );
      return extra.sendRequest(request as ServerRequest, PassThroughResultSchema, signal ? { signal } : {});
    },
  };
}

function owner(found: UpstreamServer | undefined, uri: string): UpstreamServer {
  if (!found) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: no upstream serves ${uri}`);
  return found;
}

/**
 * An MCP server for one client connection (stdio, or one HTTP session) over a shared gateway: tools (as the
 * exposure mode says), prompts, resources, subscriptions, completion and logging, all passed to and from the
 * upstreams. The gateway may still be loading (a promise): `initialize` is answered at once, the rest waits.
 */
export function createGatewayServer(
  gateway: Gateway | Promise<Gateway>,
  options: { stateless?: boolean } = {},
): Server {
  // Without a session there is no stream to send changes or updates on later.
  const later = !options.stateless;
  const server = new Server(
    { name: "toolgen-router", version: "0.1.0" },
    {
      capabilities: {
        tools: { listChanged: later },
        prompts: { listChanged: later },
        resources: { subscribe: later, listChanged: later },
        logging: {},
        completions: {},
      },
      instructions: ROUTER_INSTRUCTIONS,
    },
  );
  const session: GatewaySession = { server, subscriptions: new Set() };
  const ready = Promise.resolve(gateway).then((g) => (g.attach(session), g));
  ready.catch(() => undefined); // a failed load is reported by whoever built the gateway
  server.onclose = () => void ready.then((g) => g.detach(session)).catch(() => undefined);

  onRequest(server, ListToolsRequestSchema, async (request) => {
    const g = await ready;
    if (g.exposure !== "all") return { tools: routerToolDefinitions(g.router.maxK) };
    const page = pageOf(g.exposedTools, request.params?.cursor);
    if (!page)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown cursor ${JSON.stringify(request.params?.cursor)}; list the tools again from the start`,
      );
    return {
      tools: page.items.map((t) => t.definition),
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
    };
  });
  onRequest(server, CallToolRequestSchema, async (request, extra) => {
    const g = await ready;
    const { name, arguments: args, _meta } = request.params;
    const relay = relayFor(session, extra, _meta?.progressToken);
    const exposed = g.tool(name);
    const routerFirst = g.exposure === "search" && ROUTER_TOOLS.has(name);
    if (exposed && !routerFirst) {
      const { progressToken: _, ...meta } = _meta ?? {};
      return g.call(exposed, args ?? {}, extra.signal, relay, _meta === undefined ? undefined : meta);
    }
    return handleRouterCall(g.router, name, args, extra.signal, relay) as Promise<CallToolResult>;
  });
  onRequest(server, SetLevelRequestSchema, async (request) => {
    await (await ready).setLevel(session, request.params.level);
    return {};
  });
  onRequest(server, ListPromptsRequestSchema, async () => ({ prompts: (await ready).merged.prompts }));
  onRequest(server, GetPromptRequestSchema, async (request, extra) => {
    const g = await ready;
    const route = g.merged.prompt(request.params.name);
    if (!route)
      throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(request.params.name)}`);
    return await route.upstream.request(
      "prompts/get",
      { ...request.params, name: route.name },
      { signal: extra.signal, timeoutMs: g.router.timeoutMs },
    );
  });
  onRequest(server, ListResourcesRequestSchema, async () => ({ resources: (await ready).merged.resources }));
  onRequest(server, ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await ready).merged.templates,
  }));
  onRequest(server, ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const g = await ready;
    const upstream = owner(g.merged.resourceOwner(uri), uri);
    return await upstream.request("resources/read", request.params, {
      signal: extra.signal,
      timeoutMs: g.router.timeoutMs,
    });
  });
  onRequest(server, SubscribeRequestSchema, async (request) => {
    const g = await ready;
    const { uri } = request.params;
    await g.subscribe(session, uri, owner(g.merged.resourceOwner(uri), uri));
    return {};
  });
  onRequest(server, UnsubscribeRequestSchema, async (request) => {
    await (await ready).unsubscribe(session, request.params.uri);
    return {};
  });
  onRequest(server, CompleteRequestSchema, async (request, extra) => {
    const g = await ready;
    const { ref } = request.params;
    let upstream: UpstreamServer | undefined;
    let params: Record<string, unknown> = request.params;
    if (ref.type === "ref/prompt") {
      const route = g.merged.prompt(ref.name);
      upstream = route?.upstream;
      if (route) params = { ...request.params, ref: { ...ref, name: route.name } };
    } else {
      upstream = g.merged.templateOwner(ref.uri);
    }
    // Nothing to complete from: an empty answer, as the spec allows.
    if (!upstream || !(await upstream.capabilities()).completions)
      return { completion: { values: [], hasMore: false } };
    return await upstream.request("completion/complete", params, {
      signal: extra.signal,
      timeoutMs: g.router.timeoutMs,
    });
  });
  return server;
}

/**
 * An MCP server for one connection over a router or a gateway (a router alone is served in `search` mode, its
 * live upstreams' prompts and resources merged).
 */
export function createRouterServer(
  target: ToolRouter | Gateway | Promise<ToolRouter> | Promise<Gateway>,
): Server {
  const gateway = Promise.resolve(target).then((t) => (t instanceof ToolRouter ? Gateway.create(t) : t));
  return createGatewayServer(gateway);
}
