// Public entry point of the library. Each room exports its public surface here.
export * from "./tools/types.ts";
export * from "./chat/messages.ts";
export * from "./models/model.ts";
export * from "./retrieval/retriever.ts";
export * from "./catalog/catalog.ts";
export * from "./models/scripted.ts";
export * from "./nn/tokenizer/index.ts";
export * from "./tools/schema.ts";
export * from "./tools/define.ts";
export * from "./tools/spec-builder.ts";
export * from "./tools/decorators.ts";
export * from "./tools/signature.ts";
export * from "./tools/load-module.ts";
export * from "./tools/execute.ts";
export * from "./tools/result.ts";
export * from "./tools/suggest.ts";
export * from "./tools/pretty.ts";
