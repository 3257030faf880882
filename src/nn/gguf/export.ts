/**
 * A checkpoint folder (config.json, model.safetensors, tokenizer.json, optional tokenizer_config.json with the
 * chat template and bos/eos names) -> one GGUF file for llama.cpp.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { loadCheckpoint } from "../checkpoint.ts";
import { writeGguf, type GgufExportSummary, type GgufFloatType } from "./write.ts";
import { ToolgenError } from "../../errors.ts";

/** The file of a ToolGen folder that holds its index (src/train/model-folder-write.ts writes it). */
const TOOLGEN_INDEX_FILE = "toolgen-index.json";
/** The GGUF metadata key that carries it. */
export const GGUF_TOOLGEN_INDEX_KEY = "toolgen.index";

interface TokenizerConfig {
  chat_template?: unknown;
  bos_token?: unknown;
  eos_token?: unknown;
}

/** HF writes special tokens either as strings or as {content: …} objects. */
function tokenName(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "object" && v !== null && typeof (v as { content?: unknown }).content === "string") {
    return (v as { content: string }).content;
  }
  return undefined;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch (e) {
    throw new ToolgenError("invalid_input", `${file}: cannot read as JSON (${(e as Error).message})`, {
      cause: e,
    });
  }
}

function readTokenizerConfig(dir: string): TokenizerConfig {
  const file = join(dir, "tokenizer_config.json");
  if (!existsSync(file)) return {};
  const value = readJson(file);
  return typeof value === "object" && value !== null ? (value as TokenizerConfig) : {};
}

export interface ExportGgufOptions {
  type?: GgufFloatType;
  name?: string;
}

export function exportCheckpointToGguf(
  dir: string,
  out: string,
  o: ExportGgufOptions = {},
): GgufExportSummary {
  const type = o.type ?? "f32";
  if (type !== "f32" && type !== "f16")
    throw new ToolgenError(
      "invalid_option",
      `unknown GGUF tensor type "${String(type)}"; accepted: f32, f16`,
    );
  const { model, tokenizer } = loadCheckpoint(dir);
  if (!tokenizer)
    throw new ToolgenError(
      "invalid_input",
      `checkpoint ${dir}: tokenizer.json is missing; a GGUF file needs the tokenizer`,
    );
  const tc = readTokenizerConfig(dir);
  const chatTemplate = typeof tc.chat_template === "string" ? tc.chat_template : undefined;
  // A ToolGen model's index (how each tool id is written) travels inside the file, so `gguf:` retrieval needs
  // nothing else.
  const indexFile = join(dir, TOOLGEN_INDEX_FILE);
  const extra: Record<string, string> = {};
  if (existsSync(indexFile)) extra[GGUF_TOOLGEN_INDEX_KEY] = JSON.stringify(readJson(indexFile));
  return writeGguf(out, {
    config: model.config,
    tensors: model.params.tensors,
    tokenizer,
    chatTemplate,
    name: o.name ?? basename(resolve(dir)),
    type,
    bosToken: tokenName(tc.bos_token),
    eosToken: tokenName(tc.eos_token),
    extra,
  });
}
