export { writeGguf, ggufMetadata } from "./write.ts";
export type { GgufExportInput, GgufExportSummary, GgufFloatType } from "./write.ts";
export { ggufTensorName, permuteRopeRows } from "./tensors.ts";
export { toHalf, fromHalf } from "./f16.ts";
export { exportCheckpointToGguf, GGUF_TOOLGEN_INDEX_KEY } from "./export.ts";
export type { ExportGgufOptions } from "./export.ts";
