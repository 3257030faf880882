import type { ToolContext } from "../tools/types.ts";
import type { OpenApiTarget } from "./config.ts";
import { ToolgenError } from "../errors.ts";

/** What the OpenAPI importer keeps in an entry's `doc`: the method, the path template and the operation. */
export interface OpenApiOperationDoc {
  method: string;
  path: string;
  parameters?: { name: string; in: string }[];
}

export function isOpenApiOperationDoc(doc: unknown): doc is OpenApiOperationDoc {
  if (typeof doc !== "object" || doc === null) return false;
  const d = doc as Record<string, unknown>;
  return typeof d.method === "string" && typeof d.path === "string" && d.path.startsWith("/");
}

/** An HTTP request for one operation call: path parameters filled, query and header parameters placed, the rest
 * as a JSON body (or the `body` argument itself when the operation's body is not an object). */
export function buildOpenApiRequest(
  op: OpenApiOperationDoc,
  target: OpenApiTarget,
  args: Record<string, unknown>,
): { url: string; init: RequestInit } {
  const where = new Map((op.parameters ?? []).map((p) => [p.name, p.in]));
  const rest: Record<string, unknown> = { ...args };
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    if (value === undefined) throw new ToolgenError("invalid_input", `path parameter "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(target.baseUrl.replace(/\/+$/, "") + path);
  const headers: Record<string, string> = { accept: "application/json", ...(target.headers ?? {}) };
  if (target.bearerToken) headers.authorization = `Bearer ${target.bearerToken}`;
  for (const [name, value] of Object.entries(rest)) {
    const location = where.get(name);
    if (location === "query") {
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, scalar(v));
      delete rest[name];
    } else if (location === "header") {
      headers[name.toLowerCase()] = scalar(value);
      delete rest[name];
    }
  }
  const method = op.method.toUpperCase();
  const init: RequestInit = { method, headers };
  const keys = Object.keys(rest);
  if (keys.length > 0) {
    if (method === "GET" || method === "HEAD") {
      // Parameters the document did not place: a GET can only carry them in the query string.
      for (const k of keys) url.searchParams.append(k, scalar(rest[k]));
    } else {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(keys.length === 1 && keys[0] === "body" ? rest.body : rest);
    }
  }
  return { url: url.toString(), init };
}

function scalar(value: unknown): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** Calls the operation; a non-2xx status is an error quoting the status and the start of the response. */
export async function callOpenApiOperation(
  op: OpenApiOperationDoc,
  target: OpenApiTarget,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<unknown> {
  const { url, init } = buildOpenApiRequest(op, target, args);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: context.signal });
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message;
    throw new ToolgenError(
      "upstream_failure",
      `${init.method} ${url} failed: ${(error as Error).message}${cause ? ` (${cause})` : ""}`,
      {
        cause: error,
      },
    );
  }
  const text = await response.text();
  if (!response.ok)
    throw new ToolgenError(
      "upstream_failure",
      `${init.method} ${url} answered HTTP ${response.status} ${response.statusText}: ${text.slice(0, 500)}`,
    );
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json") && text !== "") {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
