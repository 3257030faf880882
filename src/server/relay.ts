import type { Notification, Request } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ToolgenError } from "../errors.ts";

/** Any JSON object as a result, kept as it came (keys, order and unknown fields): the gateway passes it on. */
export const PassThroughResultSchema = z.looseObject({});

/**
 * The way back to the client whose request an upstream is serving: notifications (progress, log messages)
 * and requests (sampling, elicitation) that the upstream sends while it works go there, tied to that request
 * so that a Streamable HTTP client gets them on the request's own stream.
 */
export interface CallRelay {
  /** The client connection (one MCP session) the call came from. */
  readonly session: object;
  /** The client's progress token, when it asked for progress. */
  readonly progressToken?: string | number;
  notify(notification: Notification): Promise<void>;
  /** A log message, unless the client's `logging/setLevel` filters it out. */
  log(params: { level: string; [key: string]: unknown }): Promise<void>;
  request(request: Request, options: { signal?: AbortSignal }): Promise<Record<string, unknown>>;
}

/**
 * The client to put an upstream's request to: the one whose calls are in flight on that upstream. With calls
 * from two or more clients in flight, the request cannot be tied to one of them (stdio carries no request
 * relation), so it is refused rather than risk showing one user another's question.
 */
export function relayForRequest(inFlight: Iterable<CallRelay>, method: string, upstream: string): CallRelay {
  const relays = [...inFlight];
  const sessions = new Set(relays.map((r) => r.session));
  if (sessions.size === 1) return relays[relays.length - 1]!;
  throw new ToolgenError(
    "upstream_failure",
    sessions.size === 0
      ? `${upstream} sent ${method} outside any call; the gateway forwards it only during a tool call`
      : `${upstream} sent ${method} while calls from ${sessions.size} clients were in flight; it cannot tell whose it is`,
  );
}
