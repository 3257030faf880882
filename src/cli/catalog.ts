import { resolve } from "node:path";
import type { Command } from "commander";
import type { McpServerSpec } from "../catalog/import/mcp.ts";
import { collect, splitCommandLine } from "../server/command-line.ts";
import { importMcpServer, writeMcpCatalog } from "../server/import-mcp.ts";
import { runAction } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";

interface ImportMcpOptions {
  server?: string;
  url?: string;
  out: string;
  name?: string;
  env: string[];
  json?: boolean;
}

function parseEnv(pairs: string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  return Object.fromEntries(
    pairs.map((pair) => {
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new ToolgenError("invalid_option", `--env expects NAME=VALUE, got "${pair}"`);
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}

/** `toolgen catalog import mcp --server "CMD ARGS" | --url URL --out F`: an MCP server's tools as a catalog. */
export function register(program: Command): void {
  const catalog = program.command("catalog").description("build and convert tool catalogs");
  const importer = catalog
    .command("import")
    .description("import tools from another source into a catalog file");
  importer
    .command("mcp")
    .description("list an MCP server's tools into a catalog that serve mcp can search and proxy")
    .option("--server <command>", 'command line of a stdio MCP server, e.g. "npx -y @scope/server --flag"')
    .option("--url <url>", "Streamable HTTP endpoint of an MCP server")
    .requiredOption("--out <file>", "catalog file to write (JSON)")
    .option("--name <name>", "namespace of the ids (name&&tool); default: the server's own name")
    .option("--env <NAME=VALUE>", "environment for the server process (repeatable)", collect, [])
    .option("--json", 'print one JSON object: {"out", "server", "tools"}')
    .action(
      runAction(async (opts: ImportMcpOptions) => {
        if ((opts.server === undefined) === (opts.url === undefined))
          throw new ToolgenError("invalid_option", 'give exactly one of --server "CMD ARGS" or --url URL');
        let spec: McpServerSpec;
        if (opts.url !== undefined) {
          const url = new URL(opts.url); // throws a clear "Invalid URL"
          spec = { name: opts.name ?? "mcp", url: url.toString() };
        } else {
          const [command, ...args] = splitCommandLine(opts.server!);
          if (command === undefined) throw new ToolgenError("invalid_option", "--server is empty");
          const env = parseEnv(opts.env);
          spec = { name: opts.name ?? "mcp", command, args, cwd: process.cwd(), ...(env ? { env } : {}) };
        }
        const document = await importMcpServer(spec, {
          onStderr: (line) => process.stderr.write(`[server] ${line}\n`),
        });
        const name = opts.name ?? safeName(String(document.serverInfo?.name ?? "mcp"));
        document.server = { ...document.server, name };
        writeMcpCatalog(opts.out, document);
        const summary = { out: resolve(opts.out), server: name, tools: document.tools.map((t) => t.name) };
        if (opts.json) process.stdout.write(JSON.stringify(summary) + "\n");
        else process.stdout.write(`wrote ${document.tools.length} tools of "${name}" to ${opts.out}\n`);
      }),
    );
}

/** A server name usable as an id namespace: no "&&", no blanks. */
function safeName(name: string): string {
  const cleaned = name.replace(/&&/g, "-").replace(/\s+/g, "-");
  return cleaned === "" ? "mcp" : cleaned;
}
