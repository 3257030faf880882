import { resolve } from "node:path";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { isMcpEntryDoc } from "../catalog/import/mcp.ts";
import { indexCatalog } from "../catalog/catalog.ts";
import { loadCatalog } from "../catalog/load.ts";
import { createRetriever, type CreateRetrieverOptions } from "../retrieval/create.ts";
import type { Retriever } from "../retrieval/retriever.ts";
import { loadTools } from "../tools/load-module.ts";
import type { Tool } from "../tools/types.ts";
import type { RouterConfig } from "./config.ts";
import { bindExecutors } from "./executors.ts";
import { Gateway, type GatewayOptions } from "./gateway.ts";
import { startLiveUpstreams } from "./live-upstreams.ts";
import { ToolRouter } from "./router.ts";
import type { UpstreamOptions } from "./upstream.ts";
import { ToolgenError } from "../errors.ts";

export interface BuildRouterOptions {
  /** Catalog files in any format `loadCatalog` recognises (including `catalog import mcp` output). */
  catalogs?: readonly string[];
  /** TS/JS modules whose tools are served (ids = tool names). */
  modules?: readonly string[];
  config?: RouterConfig;
  /** bm25 (default), toolgen or hybrid. */
  retriever?: string;
  model?: string;
  bm25?: CreateRetrieverOptions["bm25"];
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  upstream?: UpstreamOptions;
}

/** A module tool as a catalog entry (id = its name), unless a catalog already describes that id. */
function moduleEntry(tool: Tool, file: string): CatalogEntry {
  return {
    id: tool.name,
    tool: tool.name,
    api: "",
    description: tool.description,
    parameters: tool.parameters,
    doc: { module: file, name: tool.name },
  };
}

/**
 * Loads the catalogs and modules (from the options and the config), binds each entry to its executor and builds
 * the retriever over everything served. Upstream MCP servers are not started here: the first call starts them.
 */
export async function buildToolRouter(options: BuildRouterOptions): Promise<ToolRouter> {
  const config = options.config ?? {};
  const catalogFiles = [...(options.catalogs ?? []), ...(config.catalogs ?? [])];
  const moduleFiles = [...(options.modules ?? []), ...(config.modules ?? [])];
  if (
    catalogFiles.length === 0 &&
    moduleFiles.length === 0 &&
    Object.keys(config.mcpServers ?? {}).length === 0
  )
    throw new ToolgenError(
      "invalid_option",
      "nothing to serve: give --catalog FILE, --tools FILE or a config with catalogs, modules or mcpServers",
    );

  const entries: CatalogEntry[] = catalogFiles.flatMap((file) => loadCatalog(file));
  const listed = new Set(entries.flatMap((e) => (isMcpEntryDoc(e.doc) ? [e.doc.mcp.name] : [])));
  const live = await startLiveUpstreams(config, listed, options.upstream);
  entries.push(...live.entries);
  const described = new Set(entries.map((e) => e.id));
  const moduleTools = new Map<string, { tool: Tool; file: string }>();
  for (const file of moduleFiles) {
    for (const tool of await loadTools(file)) {
      if (moduleTools.has(tool.name))
        throw new ToolgenError(
          "invalid_option",
          `two modules export a tool named ${tool.name} (${moduleTools.get(tool.name)!.file}, ${file})`,
        );
      moduleTools.set(tool.name, { tool, file: resolve(file) });
      if (!described.has(tool.name)) entries.push(moduleEntry(tool, resolve(file)));
    }
  }
  indexCatalog(entries, catalogFiles.join(", ") || "modules and upstream servers"); // one id, one tool, across all sources

  const env = options.env ?? process.env;
  const { executors, upstreams } = bindExecutors(
    entries,
    moduleTools,
    config,
    env,
    options.upstream,
    live.upstreams,
  );
  const retriever = await retrieverFor(options)(entries);
  return new ToolRouter({
    entries,
    retriever,
    executors,
    upstreams,
    live: [...live.upstreams.keys()],
    timeoutMs: options.timeoutMs ?? config.timeoutMs ?? 30_000,
  });
}

/** How the router's retriever is built over a catalog (again when an upstream's tools change). */
function retrieverFor(options: BuildRouterOptions): (entries: readonly CatalogEntry[]) => Promise<Retriever> {
  return (entries) =>
    createRetriever(options.retriever ?? "bm25", {
      catalog: entries,
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.bm25 === undefined ? {} : { bm25: options.bm25 }),
    });
}

/** The router and, over it, the gateway that serves its tools, prompts and resources (see `GatewayOptions`). */
export async function buildGateway(options: BuildRouterOptions & GatewayOptions): Promise<Gateway> {
  const router = await buildToolRouter(options);
  try {
    return await Gateway.create(router, { ...options, retrieverFor: retrieverFor(options) });
  } catch (error) {
    await router.close();
    throw error;
  }
}
