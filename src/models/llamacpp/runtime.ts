/**
 * Lazy access to node-llama-cpp (an optional peer dependency): one CPU `Llama` instance per process, model files
 * resolved from `gguf:PATH` or `hf:USER/REPO/FILE` specs. Contexts are created for exact parity with the
 * engine: no flash attention and an F32 KV cache, so its log-probabilities match the engine's on an exported GGUF.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import type * as NodeLlamaCpp from "node-llama-cpp";
import { ToolgenError } from "../../errors.ts";

export type NodeLlamaCppModule = typeof NodeLlamaCpp;
export type LlamaRuntime = NodeLlamaCpp.Llama;
export type LlamaCppModelFile = NodeLlamaCpp.LlamaModel;
export type LlamaCppContext = NodeLlamaCpp.LlamaContext;
export type LlamaCppSequence = NodeLlamaCpp.LlamaContextSequence;
export type LlamaCppToken = NodeLlamaCpp.Token;

export type LlamaCppEvaluateOptions = NodeLlamaCpp.SequenceEvaluateOptions;

/** node-llama-cpp is an optional peer (677 MB of prebuilt binaries most users never load): one line says how to add it. */
export const MISSING_MESSAGE =
  "node-llama-cpp is not installed (an optional peer of toolgen, needed for gguf: and hf: models); add it with `npm install node-llama-cpp@3.21.1`";

let modulePromise: Promise<NodeLlamaCppModule> | undefined;
let llamaPromise: Promise<LlamaRuntime> | undefined;

/** Imports node-llama-cpp on first use; a clear error says how to add it when it is missing. */
export function nodeLlamaCpp(): Promise<NodeLlamaCppModule> {
  modulePromise ??= import("node-llama-cpp").catch((e: unknown) => {
    modulePromise = undefined;
    throw new ToolgenError("model_failure", MISSING_MESSAGE, { cause: e });
  });
  return modulePromise;
}

/** The shared llama.cpp runtime: CPU, prebuilt binaries only (nothing is compiled or downloaded at run time). */
export function llamaRuntime(): Promise<LlamaRuntime> {
  llamaPromise ??= nodeLlamaCpp().then((m) =>
    m.getLlama({ gpu: false, build: "never", progressLogs: false, logLevel: m.LlamaLogLevel.error }),
  );
  return llamaPromise;
}

/** Whether node-llama-cpp can be loaded here (tests use it to skip with a visible reason). */
export async function llamaCppAvailable(): Promise<boolean> {
  try {
    await llamaRuntime();
    return true;
  } catch {
    return false;
  }
}

/**
 * A model spec or path -> a local GGUF file. `gguf:PATH` and plain paths must exist; `hf:USER/REPO/FILE` goes
 * through node-llama-cpp's resolver, which uses its download cache and downloads where a network exists.
 */
export async function resolveGgufFile(
  spec: string,
  options: { directory?: string; download?: boolean } = {},
): Promise<string> {
  if (spec.startsWith("hf:")) {
    const rest = spec.slice(3);
    if (rest.split("/").filter(Boolean).length < 3) {
      throw new ToolgenError("model_spec", `invalid model spec "${spec}": expected hf:USER/REPO/FILE.gguf`);
    }
    const { resolveModelFile } = await nodeLlamaCpp();
    return resolveModelFile(spec, {
      directory: options.directory,
      download: options.download === false ? false : "auto",
      cli: false,
    });
  }
  const path = spec.startsWith("gguf:") ? spec.slice(5) : spec;
  if (path === "") throw new ToolgenError("model_spec", `invalid model spec "${spec}": expected gguf:PATH`);
  if (!existsSync(path)) throw new ToolgenError("model_spec", `GGUF file ${path} does not exist (model spec "${spec}")`);
  return path;
}

export interface ContextOptions {
  /** Tokens the context holds (default: the model's training context, at most 4096). */
  contextSize?: number;
  /** Sequences (independent KV caches) in the context (default 1). */
  sequences?: number;
  /**
   * CPU threads (default: half the cores, at least 1). llama.cpp's threads spin while they wait, so more
   * threads than free cores makes it much slower, not faster (measured: 7 s instead of 10 ms per call on a
   * loaded 2-core machine).
   */
  threads?: number;
}

export async function loadModelFile(path: string): Promise<LlamaCppModelFile> {
  const llama = await llamaRuntime();
  return llama.loadModel({ modelPath: path, gpuLayers: 0 });
}

/**
 * A context that holds `contextSize` tokens (default: the model's training context, at most 4096).
 * node-llama-cpp keeps one cell free, so the context is made one token larger.
 */
export async function createContext(
  model: LlamaCppModelFile,
  o: ContextOptions = {},
): Promise<LlamaCppContext> {
  const trained = model.trainContextSize;
  const size = o.contextSize ?? Math.min(trained > 0 ? trained : 4096, 4096);
  if (!(Number.isInteger(size) && size > 0))
    throw new ToolgenError("invalid_option", `contextSize must be a positive integer, got ${size}`);
  return model.createContext({
    contextSize: size + 1,
    sequences: o.sequences ?? 1,
    threads: o.threads ?? Math.max(1, Math.floor(availableParallelism() / 2)),
    flashAttention: false,
    experimentalKvCacheKeyType: "F32",
    experimentalKvCacheValueType: "F32",
  });
}
