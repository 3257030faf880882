// `toolgen/testing`: a scripted ChatModel that replays fixed replies, for testing agents and tools offline.
export {
  ScriptedModel,
  ScriptedModelError,
  ScriptedModelExhaustedError,
  type ScriptedToolCall,
  type ScriptedMessage,
  type ScriptedReply,
  type ScriptedCall,
  type ScriptedModelOptions,
} from "../models/scripted.ts";
