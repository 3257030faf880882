// The MCP tool router: search_tools / call_tool / get_tool over a catalog, with its executors and importers.
export * from "./build.ts";
export * from "./command-line.ts";
export * from "./config.ts";
export * from "./executors.ts";
export * from "./http.ts";
export * from "./import-mcp.ts";
export * from "./mcp.ts";
export * from "./openapi-executor.ts";
export * from "./router.ts";
export * from "./upstream.ts";
