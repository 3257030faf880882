import type { CatalogEntry } from "../catalog/catalog.ts";
import { importMcpCatalog, MCP_CATALOG_FORMAT } from "../catalog/import/mcp.ts";
import type { RouterConfig } from "./config.ts";
import { publicSpec, UpstreamServer, type UpstreamOptions } from "./upstream.ts";

/** An upstream's current tools as catalog entries (`name&&tool`), listed live (every page). */
export async function upstreamEntries(upstream: UpstreamServer): Promise<CatalogEntry[]> {
  const { tools } = await upstream.listTools();
  return importMcpCatalog(
    { format: MCP_CATALOG_FORMAT, server: publicSpec(upstream.spec), tools },
    `the tools of ${upstream.label}`,
  );
}

/**
 * Starts the config's upstream servers that no catalog lists (the others start at their first call) and lists
 * their tools. One that cannot start or list is reported on `warn` and served with no tools for now (the gateway
 * tries it again later, see `Gateway`); the rest are served.
 */
export async function startLiveUpstreams(
  config: RouterConfig,
  listedInCatalogs: ReadonlySet<string>,
  options: UpstreamOptions = {},
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<{ entries: CatalogEntry[]; upstreams: Map<string, UpstreamServer> }> {
  const specs = Object.entries(config.mcpServers ?? {}).filter(([name]) => !listedInCatalogs.has(name));
  const upstreams = new Map<string, UpstreamServer>();
  const lists = await Promise.all(
    specs.map(async ([name, spec]) => {
      const upstream = new UpstreamServer({ name, ...spec }, options);
      try {
        return await upstreamEntries(upstream);
      } catch (error) {
        warn(
          `toolgen MCP router: warning: ${upstream.label} has no tools for now: ${(error as Error).message}`,
        );
        return [];
      } finally {
        upstreams.set(name, upstream);
      }
    }),
  );
  return { entries: lists.flat(), upstreams };
}
