import { isToolCallFormat } from "../chat/parse/index.ts";
import { TOOL_CALL_FORMATS, type ToolCallFormat } from "../chat/parse/types.ts";
import type { ChatModel } from "./model.ts";
import { OpenAIChatModel } from "./openai.ts";
import type { ServerDialect } from "./openai-request.ts";
import { SERVER_DIALECTS } from "./openai-request.ts";
import { ScriptedModel } from "./scripted.ts";
import { LlamaCppModel } from "./llamacpp.ts";
import { resolveBuiltin } from "./builtin-chat.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Model specs: `openai:MODEL@BASEURL`, `scripted:FILE`, `builtin:DIR`, `gguf:PATH`,
 * `hf:USER/REPO/FILE`. Each scheme has one resolver in SCHEMES below; a new backend adds its line there.
 */
export class ModelSpecError extends ToolgenError {
  override name = "ModelSpecError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("model_spec", message, options);
  }
}

export interface ResolveOptions {
  /** For openai: which server dialect (constraint fields); default $TOOLGEN_SERVER_DIALECT, then "generic". */
  dialect?: ServerDialect;
  /** For openai: read tool calls out of the text in this format when the server returns them as text
   * (default $TOOLGEN_TOOL_CALL_FORMAT). */
  toolCallFormat?: ToolCallFormat;
  timeoutMs?: number;
  maxRetries?: number;
  apiKey?: string;
}

export type SchemeResolver = (
  rest: string,
  options: ResolveOptions,
  spec: string,
) => Promise<ChatModel> | ChatModel;

const EXAMPLES = [
  "openai:MODEL@BASEURL (e.g. openai:qwen2.5-7b-instruct@http://127.0.0.1:8000/v1)",
  "scripted:FILE (replies for tests)",
  "builtin:DIR",
  "gguf:PATH",
  "hf:USER/REPO/FILE",
];

function resolveOpenAI(rest: string, options: ResolveOptions, spec: string): ChatModel {
  // Model names may contain ":" and "@" (Ollama's "qwen2.5:7b"), so split at the last "@" that starts a URL.
  const at = rest.search(/@https?:\/\/(?!.*@https?:\/\/)/);
  const model = at < 0 ? rest : rest.slice(0, at);
  const baseURL = at < 0 ? process.env.OPENAI_BASE_URL : rest.slice(at + 1);
  // "openai:x@notaurl" with no $OPENAI_BASE_URL: the part after the last "@" was meant as the URL.
  const lastAt = rest.lastIndexOf("@");
  if (at < 0 && lastAt >= 0 && !baseURL) {
    throw new ModelSpecError(
      `model spec ${JSON.stringify(spec)}: ${JSON.stringify(rest.slice(lastAt + 1))} is not a valid base URL ` +
        `(http:// or https://); expected ${EXAMPLES[0]}`,
    );
  }
  if (baseURL !== undefined && baseURL !== "" && !URL.canParse(baseURL)) {
    throw new ModelSpecError(
      `model spec ${JSON.stringify(spec)}: ${JSON.stringify(baseURL)} is not a valid base URL; expected ${EXAMPLES[0]}`,
    );
  }
  if (model === "")
    throw new ModelSpecError(`model spec ${JSON.stringify(spec)} has no model name; expected ${EXAMPLES[0]}`);
  if (!baseURL) {
    throw new ModelSpecError(
      `model spec ${JSON.stringify(spec)} has no base URL and $OPENAI_BASE_URL is unset; expected ${EXAMPLES[0]}`,
    );
  }
  // The CLI passes only a spec, so the server dialect and a text tool-call format may come from the environment.
  const dialect = options.dialect ?? (process.env.TOOLGEN_SERVER_DIALECT as ServerDialect | undefined);
  if (dialect !== undefined && !SERVER_DIALECTS.includes(dialect)) {
    throw new ModelSpecError(
      `unknown server dialect ${JSON.stringify(dialect)}; accepted: ${SERVER_DIALECTS.join(", ")}`,
    );
  }
  const format = options.toolCallFormat ?? process.env.TOOLGEN_TOOL_CALL_FORMAT;
  if (format !== undefined && !isToolCallFormat(format)) {
    throw new ModelSpecError(
      `unknown tool-call format ${JSON.stringify(format)}; accepted: ${TOOL_CALL_FORMATS.join(", ")}`,
    );
  }
  try {
    return new OpenAIChatModel({ model, baseURL, ...options, dialect, toolCallFormat: format });
  } catch (error) {
    throw new ModelSpecError(`model spec ${JSON.stringify(spec)}: ${(error as Error).message}`);
  }
}

function resolveScripted(rest: string, _options: ResolveOptions, spec: string): ChatModel {
  if (rest === "")
    throw new ModelSpecError(`model spec ${JSON.stringify(spec)} names no file; expected ${EXAMPLES[1]}`);
  return ScriptedModel.fromFile(rest);
}

export const SCHEMES: Record<string, SchemeResolver> = {
  openai: resolveOpenAI,
  scripted: resolveScripted,
  builtin: resolveBuiltin,
  gguf: (_rest, _options, spec) => LlamaCppModel.load(spec),
  hf: (_rest, _options, spec) => LlamaCppModel.load(spec),
};

/**
 * Checks a spec's scheme (and an openai spec's URL) without loading anything, so a command can report a bad
 * `--model` before it complains about other options. Throws ModelSpecError as `resolveModel` would.
 */
export function checkModelSpec(spec: string): void {
  const colon = spec.indexOf(":");
  const scheme = colon < 0 ? "" : spec.slice(0, colon);
  if (!Object.hasOwn(SCHEMES, scheme)) {
    throw new ModelSpecError(
      `unrecognised model spec ${JSON.stringify(spec)}; accepted: ${EXAMPLES.join("; ")}`,
    );
  }
  if (scheme === "openai") resolveOpenAI(spec.slice(colon + 1), {}, spec);
}

/** Turns a model spec into a ChatModel, or throws ModelSpecError saying what is accepted. */
export async function resolveModel(spec: string, options: ResolveOptions = {}): Promise<ChatModel> {
  const colon = spec.indexOf(":");
  const scheme = colon < 0 ? "" : spec.slice(0, colon);
  const resolver = Object.hasOwn(SCHEMES, scheme) ? SCHEMES[scheme] : undefined;
  if (!resolver) {
    throw new ModelSpecError(
      `unrecognised model spec ${JSON.stringify(spec)}; accepted: ${EXAMPLES.join("; ")}`,
    );
  }
  return resolver(spec.slice(colon + 1), options, spec);
}
