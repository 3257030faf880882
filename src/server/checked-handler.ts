import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ErrorCode,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** An MCP request schema of the SDK: an object whose `method` is a literal. */
type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> } & z.ZodRawShape>;

/**
 * Registers `handler` for the schema's method, the request checked here: one that does not fit is answered
 * with -32602 (invalid params) naming what is wrong, where the SDK would answer -32603 with a raw dump of the
 * schema error. Registered on the protocol layer itself, past the SDK's tools/call wrapper, which re-parses
 * results and drops the fields it does not know: an upstream's result goes back exactly as it came.
 */
export function onRequest<S extends RequestSchema>(
  server: Server,
  schema: S,
  handler: (request: z.infer<S>, extra: Extra) => Promise<unknown>,
): void {
  const method = schema.shape.method.value;
  const envelope = z.looseObject({ method: z.literal(method) });
  Protocol.prototype.setRequestHandler.call(server, envelope, async (request: unknown, extra: Extra) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success)
      throw new McpError(
        ErrorCode.InvalidParams,
        `invalid ${method} request: ${z.prettifyError(parsed.error)}`,
      );
    return handler(parsed.data, extra);
  });
}
