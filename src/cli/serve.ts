import type { Command } from "commander";
import { DEFAULT_RETRIEVER } from "../retrieval/create.ts";
import { RETRIEVER_OPTION } from "./retriever-options.ts";
import { buildGateway } from "../server/build.ts";
import { collect } from "../server/command-line.ts";
import { loadRouterConfig } from "../server/config.ts";
import { EXPOSE_MODES, type ExposeMode } from "../server/exposure.ts";
import type { GatewayOptions } from "../server/gateway.ts";
import { serveHttp } from "../server/http.ts";
import { checkNamingOptions, PREFIX_MODES, type PrefixMode } from "../server/naming.ts";
import { createGatewayServer } from "../server/session.ts";
import { LineStdioServerTransport } from "../server/stdio-transport.ts";
import { reportFailure, runAction } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";

interface ServeMcpOptions {
  catalog: string[];
  tools: string[];
  retriever: string;
  model?: string;
  config?: string;
  http?: string;
  host: string;
  timeout?: string;
  expose: string;
  prefix: string;
  separator: string;
  maxNameLength: string;
  toolBudget: string;
  stateless?: boolean;
  watch: boolean;
}

/** The gateway options from the command line, checked before anything starts. */
function gatewayOptions(opts: ServeMcpOptions): GatewayOptions {
  if (!EXPOSE_MODES.includes(opts.expose as ExposeMode))
    throw new ToolgenError(
      "invalid_option",
      `--expose expects ${EXPOSE_MODES.join(" | ")}, got "${opts.expose}"`,
    );
  const budget = Number(opts.toolBudget);
  if (!Number.isInteger(budget) || budget < 1)
    throw new ToolgenError(
      "invalid_option",
      `--tool-budget expects a positive number of tokens, got "${opts.toolBudget}"`,
    );
  const naming = checkNamingOptions({
    prefix: opts.prefix as PrefixMode,
    separator: opts.separator,
    maxLength: Number(opts.maxNameLength),
  });
  return { ...naming, expose: opts.expose as ExposeMode, toolTokenBudget: budget };
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ToolgenError(
      "invalid_option",
      `--http expects a port from 0 to 65535 (0 = any free port), got "${text}"`,
    );
  return port;
}

/** `toolgen serve mcp`: the MCP tool router over stdio (default) or Streamable HTTP (--http PORT). */
export function register(program: Command): void {
  const serve = program.command("serve").description("serve toolgen to other programs");
  serve
    .command("mcp")
    .description(
      "an MCP gateway: search_tools, call_tool and get_tool over a tool catalog, or every upstream tool by name",
    )
    .option("--catalog <file>", "catalog file (any recognised format; repeatable)", collect, [])
    .option("--tools <file>", "TS/JS module whose tools are served and callable (repeatable)", collect, [])
    .option(...RETRIEVER_OPTION, DEFAULT_RETRIEVER)
    .option("--model <spec>", "model for the toolgen/hybrid retriever (DIR, builtin:DIR, gguf:FILE)")
    .option(
      "--config <file>",
      "JSON config: modules, mcpServers, openapi targets, timeoutMs (docs/gateway.md)",
    )
    .option("--http <port>", "serve MCP Streamable HTTP on this port instead of stdio (0 = any free port)")
    .option("--host <address>", "interface for --http", "127.0.0.1")
    .option("--no-watch", "do not re-read catalog files when they change")
    .option("--stateless", "--http without sessions: any replica answers any request (no subscriptions)")
    .option("--timeout <ms>", "milliseconds a tool call may take (default 30000; 0 = no limit)")
    .option(
      "--expose <mode>",
      `tools listed: ${EXPOSE_MODES.join(" | ")} (auto: all within --tool-budget)`,
      "search",
    )
    .option("--prefix <mode>", `upstream name before tool names: ${PREFIX_MODES.join(" | ")}`, "always")
    .option("--separator <text>", "between an upstream's name and its tool's name", "__")
    .option(
      "--max-name-length <n>",
      "longest tool name (128 by the spec; 64 for clients that need it)",
      "128",
    )
    .option(
      "--tool-budget <tokens>",
      "most tokens of tool definitions --expose auto lists before searching",
      "10000",
    )
    .action(
      runAction(async (opts: ServeMcpOptions, command: Command) => {
        const port = opts.http === undefined ? undefined : parsePort(opts.http);
        if (port !== undefined && !isLoopback(opts.host)) {
          process.stderr.write(
            `toolgen serve mcp: warning: --host ${opts.host} accepts connections from other machines, ` +
              `and the router runs tools for whoever connects (there is no authentication); ` +
              `use --host 127.0.0.1 to serve this machine only\n`,
          );
        }
        const gateway = gatewayOptions(opts);
        if (opts.stateless && port === undefined)
          throw new ToolgenError("invalid_option", "--stateless applies to --http only");
        const config = opts.config ? loadRouterConfig(opts.config) : {};
        let timeoutMs: number | undefined;
        if (opts.timeout !== undefined) {
          timeoutMs = Number(opts.timeout);
          if (!Number.isFinite(timeoutMs) || timeoutMs < 0)
            throw new ToolgenError("invalid_option", `--timeout expects milliseconds, got "${opts.timeout}"`);
        }
        const started = performance.now();
        const build = () =>
          buildGateway({
            ...gateway,
            watch: opts.watch,
            catalogs: opts.catalog,
            modules: opts.tools,
            config,
            retriever: opts.retriever,
            ...(opts.model === undefined ? {} : { model: opts.model }),
            ...(timeoutMs === undefined ? {} : { timeoutMs }),
          });
        // Over stdio, `initialize` is answered before the catalog loads, so an MCP client starts at once; tools/list
        // and calls wait for the router, and a failed load ends the process with status 1. Loading blocks for
        // seconds, so it starts once the client's `initialize` (usually already waiting on stdin) is answered:
        // at the client's `initialized` notification, or 100 ms after connecting, whichever comes first.
        const stdio = opts.http === undefined;
        let release = (): void => undefined;
        const building = stdio ? new Promise<void>((go) => (release = go)).then(build) : build();
        building.catch(() => undefined); // awaited below; this only keeps a rejection from going unhandled
        const stop = async (): Promise<void> => {
          await (await building.catch(() => undefined))?.close();
          process.exit(0);
        };
        process.once("SIGINT", () => void stop());
        process.once("SIGTERM", () => void stop());
        if (stdio) {
          const server = createGatewayServer(building);
          server.oninitialized = release;
          const transport = new LineStdioServerTransport();
          transport.onclose = () => void stop();
          await server.connect(transport);
          process.stdin.once("end", () => void stop());
          setTimeout(release, 100);
        }
        const served = await building.catch((error: unknown) => {
          if (!stdio) throw error;
          // The stdio server keeps the process alive: report as every command does, then end it.
          reportFailure(command, error);
          return process.exit();
        });
        const ready =
          `${served.router.size} tools (listed: ${served.exposure === "all" ? `all ${served.exposedTools.length}` : "search_tools, call_tool, get_tool"}), ` +
          `${opts.retriever} retriever, ready in ${Math.round(performance.now() - started)} ms`;
        if (port !== undefined) {
          const running = await serveHttp(served, {
            port: port ?? 0,
            host: opts.host,
            ...(opts.stateless ? { stateless: true } : {}),
          });
          process.stderr.write(`toolgen MCP router: ${ready}; listening on ${running.url}\n`);
          return;
        }
        process.stderr.write(`toolgen MCP router: ${ready}; speaking MCP on stdio\n`);
      }),
    );
}
