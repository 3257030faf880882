// `toolgen/server`: the MCP tool router and gateway (search_tools, call_tool, get_tool over a catalog, or every
// upstream tool by its namespaced name, with upstream prompts and resources passed through), its executors
// (TS/JS modules, upstream MCP servers, OpenAPI operations), Streamable HTTP serving and MCP server import.
export { buildGateway, buildToolRouter, type BuildRouterOptions } from "../server/build.ts";
export { loadRouterConfig, type OpenApiTarget, type RouterConfig } from "../server/config.ts";
export {
  moduleExecutor,
  upstreamExecutor,
  openApiExecutor,
  type ExecutorKind,
  type Executor,
  type ExecutorOutput,
} from "../server/executors.ts";
export { serveHttp, type HttpServeOptions, type RunningHttpServer } from "../server/http.ts";
export { importMcpServer, writeMcpCatalog } from "../server/import-mcp.ts";
export { ROUTER_INSTRUCTIONS } from "../server/mcp.ts";
export { createGatewayServer, createRouterServer } from "../server/session.ts";
export { Gateway, type GatewayOptions } from "../server/gateway.ts";
export { EXPOSE_MODES, type ExposeMode, type ExposedTool } from "../server/exposure.ts";
export { PREFIX_MODES, validToolName, type NamingOptions, type PrefixMode } from "../server/naming.ts";
export {
  ToolRouter,
  RouterError,
  type ToolSearchResult,
  type ToolDocument,
  type ToolRouterOptions,
} from "../server/router.ts";
export { UpstreamServer, type UpstreamOptions } from "../server/upstream.ts";
