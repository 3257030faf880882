// The `toolgen` entry point: tools, chat, models, agents, catalogs, retrieval and evaluation. Named exports
// only, so the public surface changes deliberately (test/package/exports.test.ts snapshots it). The engine,
// training, the MCP router and test helpers have their own entry points: toolgen/engine, toolgen/train,
// toolgen/server, toolgen/testing (src/entry/).

// Errors: every error a caller can catch is a ToolgenError with a code (docs/errors.md); check with
// ToolgenError.isInstance / hasCode, which work across copies of the package.
export { ToolgenError, TOOLGEN_ERROR_CODES, type ToolgenErrorCode } from "./errors.ts";

// Tools: five ways to define them, loading, execution, and adapters to other ecosystems.
export type {
  JsonSchema,
  ObjectSchema,
  ToolJson,
  ToolContext,
  ToolExecute,
  Tool,
  ToolCall,
  ToolErrorCode,
  Coercion,
  ToolResult,
} from "./tools/types.ts";
export { isZodSchema, normalizeSchema, toObjectSchema, zodToParameters } from "./tools/schema.ts";
export {
  checkToolName,
  tool,
  toToolJson,
  isToolJson,
  fromToolJson,
  isTool,
  ToolInputError,
} from "./tools/define.ts";
export { paramSchema, toolSpec, ToolSpec, type ParamType, type ParamOptions } from "./tools/spec-builder.ts";
export {
  P,
  memoryId,
  toolContext,
  toolMethod,
  hasToolMethods,
  toolsFrom,
  type ParamDoc,
  type MethodParam,
} from "./tools/decorators.ts";
export { functionSignatures, getJsonSchema, type FunctionSignature } from "./tools/signature.ts";
export { loadTools } from "./tools/load-module.ts";
export { executeToolCall, type ExecuteOptions } from "./tools/execute.ts";
export { resultToContent, UnserializableResultError } from "./tools/result.ts";
export {
  fromAiSdkTools,
  toAiSdkTools,
  type AiSdkTool,
  type AiSdkToolSet,
  type AiSdkExecuteOptions,
} from "./adapters/ai-sdk.ts";
export { mcpTools, type McpToolsOptions, type McpToolSet } from "./adapters/mcp-tools.ts";

// Chat messages, wire format, templates and tool-call parsers.
export type { Role, Message } from "./chat/messages.ts";
export {
  toWireMessage,
  fromWireMessage,
  argumentsFromWire,
  WireFormatError,
  type WireToolCall,
  type WireMessage,
  type FromWire,
} from "./chat/wire.ts";
export {
  isTemplateName,
  TEMPLATE_NAMES,
  TEMPLATE_INFO,
  type TemplateName,
  type TemplateInfo,
} from "./chat/templates/registry.ts";
export {
  loadChatTemplate,
  renderChat,
  ChatTemplateError,
  ChatTemplate,
  type RenderOptions,
  type ChatTemplateOptions,
} from "./chat/templates/render.ts";
export {
  isToolCallFormat,
  parseToolCalls,
  createToolCallStreamParser,
  toAssistantMessage,
  parseReactStep,
  parseToolGenAction,
  parseToolGenArguments,
  isFinishCall,
  TOOL_CALL_FORMATS,
  type ReactStep,
  type ToolGenAction,
  type ToolGenArguments,
  type ToolCallFormat,
  type ParsedToolCall,
  type ParseErrorCode,
  type ToolCallParseError,
  type ParseResult,
  type ParseEvent,
  type StreamingToolCallParser,
} from "./chat/parse/index.ts";

// Models: the ChatModel interface, OpenAI-compatible servers, llama.cpp in process, spec strings.
export type {
  Constraint,
  ToolChoice,
  GenerateOptions,
  Usage,
  GenerateResult,
  StreamEvent,
  ChatModel,
  TokenSession,
  TokenModel,
} from "./models/model.ts";
export { OpenAIChatModel, type OpenAIChatModelOptions } from "./models/openai.ts";
export { SERVER_DIALECTS, type ServerDialect } from "./models/openai-request.ts";
export {
  isConnectionError,
  ModelHttpError,
  ModelTimeoutError,
  ModelResponseError,
  UnsupportedConstraintError,
} from "./models/http-errors.ts";
export {
  isLlamaCppSpec,
  llamaCppAvailable,
  LLAMA_CPP_MISSING,
  LlamaCppModel,
  type LlamaCppOptions,
} from "./models/llamacpp.ts";
export {
  resolveModel,
  ModelSpecError,
  SCHEMES,
  type ResolveOptions,
  type SchemeResolver,
} from "./models/resolve.ts";

// Agents: three agents with one run shape, memory stores, toolboxes.
export {
  createAgent,
  FunctionAgent,
  defaultHallucinatedToolStrategy,
  createReactAgent,
  ReactAgent,
  REACT_PROMPT,
  renderReactPrompt,
  createToolGenAgent,
  ToolGenAgent,
  ChatMemory,
  InMemoryChatMemoryStore,
  estimateTokens,
  INTERRUPTED_TOOL_RESULT,
  SqliteChatMemoryStore,
  Toolbox,
  catalogEntryFromTool,
  type FunctionAgentOptions,
  type HallucinatedToolStrategy,
  type ReactAgentOptions,
  type ActionDecoder,
  type ActionRequest,
  type CatalogExecutor,
  type ToolGenAgentOptions,
  type ChatMemoryStore,
  type MemoryOptions,
  type ToolboxOptions,
  type ToolSelection,
  type ToolSelector,
  type RunOutcome,
  type StopReason,
  type GuardKind,
  type AgentStep,
  type AgentEvent,
  type ToolCallRecord,
  type AgentRun,
  type ChatOptions,
  type AgentRunHandle,
  type Agent,
} from "./agents/index.ts";

// Catalogs: entries, tool tokens, loading any recognised format, importers.
export {
  catalogId,
  indexCatalog,
  CatalogError,
  type CatalogEntry,
  type LabelledQuery,
  type CatalogErrorLocation,
} from "./catalog/catalog.ts";
export { toolToken, FINISH_TOKEN } from "./toolgen/tokens.ts";
export {
  detectCatalogFormat,
  loadCatalog,
  detectQueryFormat,
  loadQueries,
  CATALOG_FORMATS,
  type CatalogFormat,
  type LoadCatalogOptions,
  type QueryFormat,
} from "./catalog/load.ts";
export {
  importBfcl,
  readBfclCategory,
  readBfclAnswers,
  bfclCategories,
  importJsonlQueries,
  formatJsonlQueries,
  importToolList,
  importMcpCatalog,
  MCP_CATALOG_FORMAT,
  importMetaToolTools,
  importMetaToolQueries,
  importMetaToolMultiQueries,
  importOpenApi,
  importStableToolBenchApis,
  importStableToolBenchQueryCatalog,
  importStableToolBenchQueries,
  importToolbenchTool,
  importToolbenchFolder,
  type BfclFunctionDoc,
  type BfclItem,
  type BfclExpectedCall,
  type McpServerSpec,
  type McpToolListing,
  type McpCatalogDocument,
} from "./catalog/import/index.ts";

// Retrieval: BM25, ToolGen (generative, local or over HTTP), hybrid.
export type { RetrievalHit, SearchOptions, Retriever } from "./retrieval/retriever.ts";
export { tokenize, ENGLISH_STOPWORDS, type TokenizeOptions } from "./text/terms.ts";
export {
  toolgenDocument,
  documentText,
  DOCUMENT_FORMATS,
  type DocumentFormat,
} from "./retrieval/documents.ts";
export { Bm25Retriever, type Bm25Options } from "./retrieval/bm25.ts";
export { Bm25fRetriever, BM25F_DEFAULTS, type Bm25fParams } from "./retrieval/bm25f.ts";
export { RankerRetriever } from "./retrieval/ranker.ts";
export {
  createRetriever,
  DEFAULT_RETRIEVER,
  RETRIEVER_KINDS,
  type RetrieverKind,
  type CreateRetrieverOptions,
} from "./retrieval/create.ts";
export { HybridRetriever, HYBRID_DEFAULTS, type HybridOptions } from "./retrieval/hybrid.ts";
export { openToolGenRetriever } from "./retrieval/toolgen-open.ts";
export {
  HttpGenerativeRetriever,
  HTTP_TOOLGEN_SERVERS,
  type HttpToolGenServer,
  type HttpToolGenOptions,
} from "./retrieval/generative-http.ts";
export {
  httpActionDecoder,
  type HttpActionDecoderOptions,
  type HttpActionDecoder,
} from "./retrieval/action-decoder-http.ts";

// Evaluation: retrieval metrics, query splits, BFCL.
export { ndcgAtK, ndcgToolGenAtK, recallAtK, reciprocalRank } from "./eval/metrics.ts";
export {
  evaluateRetrieval,
  reportJson,
  reportMarkdown,
  type RetrievalEvalOptions,
  type RetrievalFigures,
  type QueryOutcome,
  type RetrievalReport,
} from "./eval/retrieval.ts";
export { splitQueries, type Split } from "./eval/split.ts";
export { splitQueryFile, type SplitFilesResult } from "./eval/split-files.ts";
export { splitByTool, toolLeaks, type ToolSplit } from "./eval/split-tools.ts";
export {
  checkCall,
  checkBfclItem,
  type BfclCall,
  type CheckResult,
  type BfclLanguage,
} from "./eval/bfcl-checker.ts";
export {
  evaluateBfclOracle,
  evaluateBfclModel,
  type BfclFailure,
  type BfclCategoryFigures,
  type BfclReport,
  type BfclEvalOptions,
} from "./eval/bfcl.ts";
