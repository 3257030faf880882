// `toolgen/server`: the MCP tool router (search_tools, call_tool, get_tool over a catalog), its executors
// (TS/JS modules, upstream MCP servers, OpenAPI operations), Streamable HTTP serving and MCP server import.
export { buildToolRouter, type BuildRouterOptions } from "../server/build.ts";
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
export { createRouterServer, ROUTER_INSTRUCTIONS } from "../server/mcp.ts";
export {
  ToolRouter,
  RouterError,
  type ToolSearchResult,
  type ToolDocument,
  type ToolRouterOptions,
} from "../server/router.ts";
export { UpstreamServer, type UpstreamOptions } from "../server/upstream.ts";
