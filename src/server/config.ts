import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { UpstreamSpec } from "./upstream.ts";
import { ToolgenError } from "../errors.ts";
import { isPlainObject } from "../plain-object.ts";

/** Where and how to call the operations of one OpenAPI document (keyed by its `info.title`). */
export interface OpenApiTarget {
  baseUrl: string;
  /** Extra request headers, e.g. `{"X-Api-Key": "${PETSTORE_KEY}"}`. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer …`. */
  bearerToken?: string;
}

/**
 * The router's `--config` file (JSON). Strings may use `${VAR}` for environment variables, so secrets stay out
 * of the file; relative paths are relative to the file.
 */
export interface RouterConfig {
  /** More catalogs, besides `--catalog`. */
  catalogs?: string[];
  /** TS/JS modules whose tools are served (any of the five styles); each tool is an entry with its name as id. */
  modules?: string[];
  /**
   * Upstream MCP servers by name: how to reach them (`command`/`args`/`env`/`cwd`, or `url` with `headers` and
   * `bearerToken`). A server no catalog lists is started with the router and its tools listed live; for one a
   * catalog lists, this overrides how the router reaches it.
   */
  mcpServers?: Record<string, Omit<UpstreamSpec, "name">>;
  /** OpenAPI targets by document title; `TOOLGEN_OPENAPI_BASE_URL` / `TOOLGEN_OPENAPI_TOKEN` apply to the rest. */
  openapi?: Record<string, OpenApiTarget>;
  /** Milliseconds a tool call may take (default 30 000). */
  timeoutMs?: number;
}

const KEYS = ["catalogs", "modules", "mcpServers", "openapi", "timeoutMs"];

/** Replaces `${VAR}` with the environment's value; a missing variable is an error naming it. */
export function expandEnv(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined)
      throw new ToolgenError("invalid_input", `${where}: environment variable ${name} is not set`);
    return value;
  });
}

function expandDeep(value: unknown, env: NodeJS.ProcessEnv, where: string): unknown {
  if (typeof value === "string") return expandEnv(value, env, where);
  if (Array.isArray(value)) return value.map((v, i) => expandDeep(v, env, `${where}[${i}]`));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, expandDeep(v, env, `${where}.${k}`)]),
    );
  return value;
}

const isStringRecord = (v: unknown): v is Record<string, string> =>
  isPlainObject(v) && Object.values(v).every((s) => typeof s === "string");
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
/** Reads and checks a router config file; every problem names the file and the field. */
export function loadRouterConfig(file: string, env: NodeJS.ProcessEnv = process.env): RouterConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ToolgenError(
      "invalid_input",
      `config ${file}: cannot read it as JSON (${(error as Error).message})`,
      {
        cause: error,
      },
    );
  }
  if (!isPlainObject(raw)) throw new ToolgenError("invalid_input", `config ${file}: expected a JSON object`);
  const unknown = Object.keys(raw).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0)
    throw new ToolgenError(
      "invalid_input",
      `config ${file}: unknown keys ${unknown.join(", ")} (accepted: ${KEYS.join(", ")})`,
    );
  const config = expandDeep(raw, env, `config ${file}`) as Record<string, unknown>;
  const base = dirname(resolve(file));
  const at = (path: string): string => (isAbsolute(path) ? path : resolve(base, path));
  const bad = (field: string, expected: string): Error =>
    new Error(`config ${file}: field "${field}" must be ${expected}`);

  const out: RouterConfig = {};
  for (const key of ["catalogs", "modules"] as const) {
    if (config[key] === undefined) continue;
    if (!isStringList(config[key])) throw bad(key, "a list of file paths");
    out[key] = config[key].map(at);
  }
  if (config.mcpServers !== undefined) {
    if (!isPlainObject(config.mcpServers)) throw bad("mcpServers", "an object of servers by name");
    out.mcpServers = {};
    for (const [name, spec] of Object.entries(config.mcpServers)) {
      if (!isPlainObject(spec) || (typeof spec.command !== "string" && typeof spec.url !== "string"))
        throw bad(`mcpServers.${name}`, 'an object with "command" (and "args") or "url"');
      if (spec.args !== undefined && !isStringList(spec.args)) throw bad(`mcpServers.${name}.args`, "a list");
      for (const field of ["env", "headers"] as const)
        if (spec[field] !== undefined && !isStringRecord(spec[field]))
          throw bad(`mcpServers.${name}.${field}`, "an object of strings");
      if (spec.bearerToken !== undefined && typeof spec.bearerToken !== "string")
        throw bad(`mcpServers.${name}.bearerToken`, 'a string (e.g. "${TOKEN_VARIABLE}")');
      out.mcpServers[name] = {
        ...(spec as Omit<UpstreamSpec, "name">),
        ...(typeof spec.cwd === "string" ? { cwd: at(spec.cwd) } : { cwd: base }),
      };
    }
  }
  if (config.openapi !== undefined) {
    if (!isPlainObject(config.openapi)) throw bad("openapi", "an object of targets by document title");
    out.openapi = {};
    for (const [title, target] of Object.entries(config.openapi)) {
      if (!isPlainObject(target) || typeof target.baseUrl !== "string")
        throw bad(`openapi.${title}`, 'an object with "baseUrl"');
      if (target.headers !== undefined && !isPlainObject(target.headers))
        throw bad(`openapi.${title}.headers`, "an object of strings");
      out.openapi[title] = target as unknown as OpenApiTarget;
    }
  }
  if (config.timeoutMs !== undefined) {
    if (typeof config.timeoutMs !== "number" || !(config.timeoutMs >= 0))
      throw bad("timeoutMs", "a number of milliseconds (0 = no limit)");
    out.timeoutMs = config.timeoutMs;
  }
  return out;
}
