// The catalog importers, one per source format (the format is recognised in ../load.ts).
export * from "./bfcl.ts";
export * from "./jsonl.ts";
export * from "./mcp.ts";
export * from "./metatool.ts";
export * from "./openapi.ts";
export * from "./schema-types.ts";
export * from "./stabletoolbench.ts";
export * from "./toolbench.ts";
export { parseCsv, csvRecords } from "./csv.ts";
