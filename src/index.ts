// Public entry point of the library. Each room exports its public surface here.
export * from "./tools/types.ts";
export * from "./chat/messages.ts";
export * from "./models/model.ts";
export * from "./retrieval/retriever.ts";
export * from "./catalog/catalog.ts";
export * from "./models/scripted.ts";
export * from "./nn/tokenizer/index.ts";
