import { resolve } from "node:path";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { isMcpEntryDoc } from "../catalog/import/mcp.ts";
import { indexCatalog } from "../catalog/catalog.ts";
import { loadCatalog } from "../catalog/load.ts";
import { createRetriever, DEFAULT_RETRIEVER, type CreateRetrieverOptions } from "../retrieval/create.ts";
import { DeferredRetriever } from "../retrieval/deferred.ts";
import { shippedRanker } from "../retrieval/ranker.ts";
import type { Retriever } from "../retrieval/retriever.ts";
import { loadTools } from "../tools/load-module.ts";
import type { Tool } from "../tools/types.ts";
import type { RouterConfig } from "./config.ts";
import { watchFiles } from "./catalog-watch.ts";
import { bindExecutors } from "./executors.ts";
import { Gateway, type CatalogBinding, type GatewayOptions } from "./gateway.ts";
import { startLiveUpstreams } from "./live-upstreams.ts";
import { ToolRouter } from "./router.ts";
import type { UpstreamOptions, UpstreamServer } from "./upstream.ts";
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
 * the retriever over everything served. Upstream MCP servers that a catalog lists are not started here (the first
 * call starts them); the config's other upstreams are started and their tools listed.
 */
export async function buildToolRouter(options: BuildRouterOptions): Promise<ToolRouter> {
  return (await buildParts(options)).router;
}

async function buildParts(
  options: BuildRouterOptions,
): Promise<{ router: ToolRouter; catalogFiles: string[]; reload: () => CatalogBinding }> {
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

  const fromCatalogs: CatalogEntry[] = catalogFiles.flatMap((file) => loadCatalog(file));
  const listed = new Set(fromCatalogs.flatMap((e) => (isMcpEntryDoc(e.doc) ? [e.doc.mcp.name] : [])));
  const live = await startLiveUpstreams(config, listed, options.upstream);
  const moduleTools = new Map<string, { tool: Tool; file: string }>();
  for (const file of moduleFiles) {
    for (const tool of await loadTools(file)) {
      if (moduleTools.has(tool.name))
        throw new ToolgenError(
          "invalid_option",
          `two modules export a tool named ${tool.name} (${moduleTools.get(tool.name)!.file}, ${file})`,
        );
      moduleTools.set(tool.name, { tool, file: resolve(file) });
    }
  }
  const env = options.env ?? process.env;
  const bind = (
    catalog: CatalogEntry[],
    liveEntries: CatalogEntry[],
    started: ReadonlyMap<string, UpstreamServer>,
  ) => {
    const entries = [...catalog, ...liveEntries];
    const described = new Set(entries.map((e) => e.id));
    for (const { tool, file } of moduleTools.values())
      if (!described.has(tool.name)) entries.push(moduleEntry(tool, file));
    indexCatalog(entries, catalogFiles.join(", ") || "modules and upstream servers"); // one id, one tool
    return { entries, ...bindExecutors(entries, moduleTools, config, env, options.upstream, started) };
  };
  const { entries, executors, upstreams } = bind(fromCatalogs, live.entries, live.upstreams);
  const router = new ToolRouter({
    entries,
    retriever: await retrieverFor(options)(entries),
    executors,
    upstreams,
    live: [...live.upstreams.keys()],
    timeoutMs: options.timeoutMs ?? config.timeoutMs ?? 30_000,
  });
  // The catalog files read again; the live upstreams' current tools and the running upstream servers kept.
  const reload = (): CatalogBinding => {
    const liveNow = router.entries.filter(
      (e) => isMcpEntryDoc(e.doc) && router.live.includes(e.doc.mcp.name),
    );
    return bind(
      catalogFiles.flatMap((file) => loadCatalog(file)),
      liveNow,
      router.upstreams,
    );
  };
  return { router, catalogFiles, reload };
}

/**
 * How the router's retriever is built over a catalog (again when an upstream's tools change). The in-memory
 * kinds' index is built once the router is up (DeferredRetriever), so `tools/list` does not wait for it; the
 * model-backed kinds open their model here, so a bad model still fails the start.
 */
function retrieverFor(options: BuildRouterOptions): (entries: readonly CatalogEntry[]) => Promise<Retriever> {
  const kind = options.retriever ?? DEFAULT_RETRIEVER;
  return async (entries) => {
    const create = () =>
      createRetriever(kind, {
        catalog: entries,
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.bm25 === undefined ? {} : { bm25: options.bm25 }),
      });
    if (!DEFERRED_KINDS.includes(kind)) return create();
    if (kind === "ranker") shippedRanker(); // its files are read now: a broken package fails the start
    return new DeferredRetriever(kind, create);
  };
}

/** The kinds whose whole cost is building an index over the catalog. */
const DEFERRED_KINDS: readonly string[] = ["ranker", "bm25f", "bm25"];

/** The router and, over it, the gateway that serves its tools, prompts and resources (see `GatewayOptions`). */
export async function buildGateway(
  options: BuildRouterOptions & GatewayOptions & { watch?: boolean },
): Promise<Gateway> {
  const { router, catalogFiles, reload } = await buildParts(options);
  try {
    const gateway = await Gateway.create(router, { ...options, retrieverFor: retrieverFor(options) });
    if (options.watch && catalogFiles.length > 0) {
      const stop = watchFiles(catalogFiles, () => gateway.reloadCatalog(reload));
      gateway.onClose(stop);
    }
    return gateway;
  } catch (error) {
    await router.close();
    throw error;
  }
}
