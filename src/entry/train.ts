// `toolgen/train`: ToolGen training — the three stages' datasets, vocabulary virtualization, schedules, the
// in-process pipeline, model folders, and export for external trainers (LLaMA-Factory, axolotl, TRL).
export {
  memorizationSamples,
  retrievalSamples,
  agentSamples,
  samplesToJsonl,
  writeSamples,
  parseSamples,
  readSamples,
  STAGES,
  type Stage,
  type StageSample,
  type TrajectoryStep,
  type Trajectory,
  type RetrievalSampleOptions,
} from "../train/datasets.ts";
export { toolDocument } from "../toolgen/tool-document.ts";
export {
  agentTask,
  actionDocumentation,
  inputRequest,
  TOOLGEN_AGENT_SYSTEM,
  GENERATE_ACTION,
} from "../toolgen/agent-format.ts";
export {
  encodeChat,
  CHAT_FORMATS,
  CHAT_SPECIAL_TOKENS,
  CHATML_TEMPLATE,
  type ChatFormat,
  type ChatTokenizer,
  type EncodedChat,
  type EncodeChatOptions,
} from "../toolgen/chat-encoding.ts";
export { toolName, virtualizeTools, type VirtualizedModel } from "../train/virtualize.ts";
export { scheduleFor, SCHEDULES, type StageSchedule, type Schedule } from "../train/schedule.ts";
export { writeToolGenExtras } from "../train/model-folder-write.ts";
export {
  readToolIndex,
  readManifest,
  loadToolGenModel,
  INDEX_FILE,
  MANIFEST_FILE,
  TOKENIZER_CONFIG_FILE,
  type StageReport,
  type ToolGenManifest,
  type ToolGenModel,
} from "../toolgen/model-folder.ts";
export { trainToolGen, type ToolGenTrainOptions } from "../train/pipeline.ts";
export { addToolsToModel, ADD_DEFAULTS, type AddToolsOptions, type AddStage } from "../train/add-tools.ts";
export {
  virtualizeHfModel,
  type HfVirtualizeOptions,
  type HfVirtualizeSummary,
} from "../train/virtualize-hf.ts";
export {
  exportTraining,
  readTrajectoriesFile,
  type TrainingExportOptions,
  type TrainingExportSummary,
} from "../train/export.ts";
export {
  isExportFormat,
  toShareGpt,
  llamaFactoryDatasetInfo,
  toChatMessages,
  toPromptCompletion,
  EXPORT_FORMATS,
  type ExportFormat,
  type ShareGptTurn,
  type ShareGptRecord,
  type ChatMessagesRecord,
  type PromptCompletionRecord,
} from "../train/export-formats.ts";
export {
  stageConfigs,
  deepSpeedZero3,
  runScript,
  PAPER_RECIPE,
  type PaperRecipe,
  type ConfigOptions,
} from "../train/export-configs.ts";
