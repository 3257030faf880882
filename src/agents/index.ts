// The agents' public surface: three agents with one run shape, memory stores, and the pieces to build more.
export * from "./types.ts";
export { createAgent, FunctionAgent, defaultHallucinatedToolStrategy } from "./functions.ts";
export type { FunctionAgentOptions, HallucinatedToolStrategy } from "./functions.ts";
export { createReactAgent, ReactAgent } from "./react.ts";
export type { ReactAgentOptions } from "./react.ts";
export { REACT_PROMPT, renderReactPrompt, describeTools as describeReactTools } from "./react-prompt.ts";
export { createToolGenAgent, ToolGenAgent } from "./toolgen.ts";
export type { ActionDecoder, ActionRequest, CatalogExecutor, ToolGenAgentOptions } from "./toolgen.ts";
export { ChatMemory, InMemoryChatMemoryStore, estimateTokens, INTERRUPTED_TOOL_RESULT } from "./memory.ts";
export type { ChatMemoryStore, MemoryOptions } from "./memory.ts";
export { SqliteChatMemoryStore } from "./memory-sqlite.ts";
export { Toolbox, catalogEntryFromTool } from "./toolbox.ts";
export type { ToolboxOptions, ToolSelection, ToolSelector } from "./toolbox.ts";
export { startRun, callModel, RunRecorder, RepeatGuard, ErrorStreak } from "./loop.ts";
export type { RunOutcome } from "./loop.ts";
