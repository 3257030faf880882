import { randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { Gateway } from "./gateway.ts";
import { ToolRouter } from "./router.ts";
import { createGatewayServer } from "./session.ts";
import { ToolgenError } from "../errors.ts";

export interface HttpServeOptions {
  port: number;
  /** Interface to bind (default 127.0.0.1: local clients only). */
  host?: string;
  /** Path of the MCP endpoint (default /mcp). */
  path?: string;
  /** Largest accepted request body in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * No sessions: every POST is served on its own (tools/list, search and calls need no `initialize` first), so
   * that replicas behind any HTTP load balancer serve one catalog. Server-to-client streams (GET), and so
   * resource subscriptions and list-change notifications, need sessions and are not offered.
   */
  stateless?: boolean;
  /** A session with no request and no open stream for this long is closed (default 30 minutes; 0 = never). */
  sessionIdleMs?: number;
}

export interface RunningHttpServer {
  url: string;
  server: HttpServer;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, `request body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    throw new HttpError(400, `request body is not JSON: ${(error as Error).message}`);
  }
}

class HttpError extends ToolgenError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super("http_request", message);
  }
}

function reply(res: ServerResponse, status: number, message: string, code = -32000): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** One request without a session: a fresh transport and MCP server object, closed when the answer is sent. */
async function serveStateless(
  gateway: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  const server = createGatewayServer(gateway, { stateless: true });
  res.on("close", () => void server.close().catch(() => undefined));
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/**
 * Serves the router over MCP Streamable HTTP: one session (and one MCP server object) per client, all sharing
 * the router. Host-header checks guard local servers against DNS rebinding.
 */
export async function serveHttp(
  target: ToolRouter | Gateway,
  options: HttpServeOptions,
): Promise<RunningHttpServer> {
  const gateway = target instanceof ToolRouter ? await Gateway.create(target) : target;
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const activity = new Map<string, { last: number; streams: number }>();
  let allowedHosts: string[] = [];
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  // Clients that vanish without DELETE leave sessions behind: close those idle past the limit.
  const sweeper =
    idleMs > 0
      ? setInterval(
          () => {
            for (const [id, seen] of activity)
              if (seen.streams === 0 && Date.now() - seen.last > idleMs)
                void sessions
                  .get(id)
                  ?.close()
                  .catch(() => undefined);
          },
          Math.min(60_000, Math.max(10, idleMs / 2)),
        ).unref()
      : undefined;
  const touch = (id: string, res: ServerResponse, stream: boolean): void => {
    const seen = activity.get(id) ?? { last: 0, streams: 0 };
    seen.last = Date.now();
    activity.set(id, seen);
    if (!stream) return;
    seen.streams++;
    res.once("close", () => (seen.streams--, (seen.last = Date.now())));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A local server only answers requests addressed to it by a local name (DNS rebinding guard).
    if (allowedHosts.length > 0 && !allowedHosts.includes(req.headers.host ?? ""))
      return reply(
        res,
        403,
        `Host header ${JSON.stringify(req.headers.host)} is not allowed for a local server`,
      );
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== path) return reply(res, 404, `not found; the MCP endpoint is ${path}`);
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing && typeof sessionId === "string") touch(sessionId, res, req.method === "GET");
    if (options.stateless) {
      if (req.method !== "POST") {
        res.setHeader("allow", "POST");
        return reply(res, 405, `method ${req.method} not allowed: this server is stateless (POST only)`);
      }
      return serveStateless(gateway, req, res, await readJson(req, limit));
    }
    if (req.method === "POST") {
      const body = await readJson(req, limit);
      if (existing) return existing.handleRequest(req, res, body);
      if (sessionId !== undefined) return reply(res, 404, "unknown or expired session; initialize again");
      if (!isInitializeRequest(body))
        return reply(res, 400, "no session: the first request must be initialize");
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
          touch(id, res, false);
        },
        enableDnsRebindingProtection: allowedHosts.length > 0,
        allowedHosts,
      });
      transport.onclose = () => {
        if (!transport.sessionId) return;
        sessions.delete(transport.sessionId);
        activity.delete(transport.sessionId);
      };
      await createGatewayServer(gateway).connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (req.method === "GET" || req.method === "DELETE") {
      if (!existing) return reply(res, 400, "missing or unknown mcp-session-id header");
      return existing.handleRequest(req, res);
    }
    res.setHeader("allow", "GET, POST, DELETE");
    return reply(res, 405, `method ${req.method} not allowed`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      reply(res, status, (error as Error).message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  if (host === "127.0.0.1" || host === "localhost" || host === "::1")
    allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    server,
    close: async () => {
      clearInterval(sweeper);
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
