import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { FINISH_TOKEN, toolToken } from "../toolgen/tokens.ts";
import {
  PositionalReader,
  SequentialWriter,
  STORED_DTYPE_BYTES,
  addRowInto,
  copyRange,
  encodeRow,
  encodeSafetensorsHeader,
  isStoredDtype,
  readSafetensorsHeader,
  type SafetensorsHeader,
  type StoredDtype,
  type TensorSpan,
} from "../nn/io/safetensors-stream.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import { nameEncoder } from "./hf-name-encoder.ts";
import { addTokensToTokenizerConfig, addTokensToTokenizerJson } from "./hf-tokenizer-files.ts";
import { INDEX_FILE, readJsonFile } from "../toolgen/model-folder.ts";
import { toolName } from "./virtualize.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Tool virtualization of a Hugging Face model folder (ToolGen §3.2) for training with existing engines: the
 * atomic tool tokens and `<<Finish>>` are added to the tokenizer, and `embed_tokens` / `lm_head` grow by one row
 * per new token, each the mean (computed in float32, stored in the tensor's dtype) of the rows of its name's
 * tokens — the same rule as `virtualizeTools` on the built-in engine. Shards are streamed: tensors other than
 * the two vocabulary matrices are copied byte for byte, shards without them are copied as files, and the two
 * matrices are copied in chunks with only the new rows computed, so memory stays bounded at any model size.
 * The folder is written beside `out` and renamed into place at the end (never half-written).
 */
export interface HfVirtualizeOptions {
  base: string;
  out: string;
  entries: readonly CatalogEntry[];
  /** A Jinja chat template written into tokenizer_config.json when the base has none (base, not chat, models). */
  chatTemplate?: string;
  /** Called as bytes are written (for a progress bar). */
  onProgress?: (done: number, total: number) => void;
  embedTensor?: string;
  headTensor?: string;
}

export interface HfVirtualizeSummary {
  out: string;
  /** Rows of the vocabulary matrices before and after. */
  baseVocab: number;
  vocab: number;
  /** Tokens new to the tokenizer; tokens it already had keep their id and row. */
  added: number;
  existing: number;
  finishId: number;
  dtype: string;
  shards: number;
  bytes: number;
  grown: string[];
  nameTokenizer: "engine" | "hf-tokenizers";
  /** Top-level files of the base that were not carried over (other weight formats, folders). */
  skipped: string[];
}

const WEIGHT_INDEX = "model.safetensors.index.json";
const SINGLE_FILE = "model.safetensors";
const HANDLED = new Set(["config.json", "tokenizer.json", "tokenizer_config.json", WEIGHT_INDEX, INDEX_FILE]);
const OTHER_WEIGHTS = /\.(bin|pth|pt|ckpt|gguf|h5|msgpack|safetensors)$/;
const CHUNK_BYTES = 16 * 2 ** 20;

function shardFiles(base: string): { files: string[]; index?: Record<string, unknown> } {
  const indexFile = join(base, WEIGHT_INDEX);
  if (existsSync(indexFile)) {
    const index = readJsonFile(indexFile) as { weight_map?: unknown };
    const map = index?.weight_map;
    if (typeof map !== "object" || map === null)
      throw new ToolgenError("invalid_input", `${indexFile}: expected {"weight_map": {tensor: file}}`);
    const files = [...new Set(Object.values(map as Record<string, unknown>).map(String))];
    for (const f of files) {
      if (basename(f) !== f || !existsSync(join(base, f)))
        throw new ToolgenError("invalid_input", `${indexFile}: shard ${f} is missing from ${base}`);
    }
    return { files, index: index as Record<string, unknown> };
  }
  if (existsSync(join(base, SINGLE_FILE))) return { files: [SINGLE_FILE] };
  const other = readdirSync(base).filter((f) => OTHER_WEIGHTS.test(f));
  throw new ToolgenError(
    "invalid_input",
    `${base}: no ${SINGLE_FILE} or ${WEIGHT_INDEX}` +
      (other.length > 0 ? ` (found ${other.join(", ")}: convert the weights to safetensors first)` : ""),
  );
}

interface Grow {
  dtype: StoredDtype;
  width: number;
  /** New or overwritten row → the ids whose rows it is the mean of. */
  rows: Map<number, number[]>;
  oldRows: number;
  newRows: number;
}

function checkVocabTensor(
  span: TensorSpan,
  rows: number,
  file: string,
): { dtype: StoredDtype; width: number } {
  if (!isStoredDtype(span.dtype))
    throw new ToolgenError(
      "invalid_input",
      `${file}: ${span.name} is ${span.dtype}; accepted: F32, F16, BF16`,
    );
  if (span.shape.length !== 2 || span.shape[0] !== rows) {
    throw new ToolgenError(
      "invalid_input",
      `${file}: ${span.name} has shape [${span.shape}], config.json vocab_size is ${rows}`,
    );
  }
  return { dtype: span.dtype, width: span.shape[1]! };
}

/** Writes one grown matrix: old rows in chunks (rows listed in `grow.rows` replaced), then the new rows. */
async function writeGrown(
  reader: PositionalReader,
  at: number,
  grow: Grow,
  writer: SequentialWriter,
  progress: () => Promise<void>,
): Promise<void> {
  const rowBytes = grow.width * STORED_DTYPE_BYTES[grow.dtype];
  const readRow = (id: number) => reader.read(at + id * rowBytes, rowBytes);
  let meanOfAll: Buffer | undefined;
  const newRow = (id: number): Buffer => {
    const sources = grow.rows.get(id) ?? [];
    const acc = new Float32Array(grow.width);
    if (sources.length === 0) {
      // No name tokens: the mean of every existing row, as the engine does (computed once).
      if (!meanOfAll) {
        for (let r = 0; r < grow.oldRows; r++) addRowInto(acc, readRow(r), grow.dtype);
        for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! / grow.oldRows;
        meanOfAll = encodeRow(acc, grow.dtype);
      }
      return meanOfAll;
    }
    for (const s of sources) addRowInto(acc, readRow(s), grow.dtype);
    for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! / sources.length;
    return encodeRow(acc, grow.dtype);
  };
  const perChunk = Math.max(1, Math.floor(CHUNK_BYTES / rowBytes));
  for (let r = 0; r < grow.oldRows; r += perChunk) {
    const n = Math.min(perChunk, grow.oldRows - r);
    const chunk = reader.read(at + r * rowBytes, n * rowBytes);
    for (let i = 0; i < n; i++) if (grow.rows.has(r + i)) newRow(r + i).copy(chunk, i * rowBytes);
    writer.write(chunk);
    await progress();
  }
  for (let r = grow.oldRows; r < grow.newRows; r += perChunk) {
    const n = Math.min(perChunk, grow.newRows - r);
    writer.write(Buffer.concat(Array.from({ length: n }, (_, i) => newRow(r + i))));
    await progress();
  }
}

export async function virtualizeHfModel(o: HfVirtualizeOptions): Promise<HfVirtualizeSummary> {
  const base = resolve(o.base);
  const out = resolve(o.out);
  if (!existsSync(base) || !statSync(base).isDirectory())
    throw new ToolgenError("invalid_input", `base model folder ${base} does not exist`);
  if (out === base)
    throw new ToolgenError(
      "invalid_option",
      "--out must differ from --base (the base folder is never modified)",
    );
  if (existsSync(out) && (!statSync(out).isDirectory() || readdirSync(out).length > 0))
    throw new ToolgenError(
      "invalid_input",
      `${out} already exists and is not an empty folder; choose a new --out`,
    );
  if (o.entries.length === 0)
    throw new ToolgenError("invalid_option", "the catalog is empty: nothing to virtualize");
  for (const f of ["config.json", "tokenizer.json"])
    if (!existsSync(join(base, f)))
      throw new ToolgenError("invalid_input", `${base}: ${f} is missing (a Hugging Face model folder?)`);

  const config = readJsonFile(join(base, "config.json")) as Record<string, unknown>;
  const rows = config.vocab_size;
  if (typeof rows !== "number" || !Number.isInteger(rows) || rows <= 0)
    throw new ToolgenError("invalid_input", `${base}/config.json: vocab_size must be a positive integer`);
  const { files, index } = shardFiles(base);
  const headers = files.map((f) => readSafetensorsHeader(join(base, f)));
  const embedName = o.embedTensor ?? "model.embed_tokens.weight";
  const headName = o.headTensor ?? "lm_head.weight";
  const find = (name: string) => headers.find((h) => h.tensors.some((t) => t.name === name));
  if (!find(embedName))
    throw new ToolgenError("invalid_input", `${base}: no tensor ${embedName} in the weights`);
  if (!find(headName) && config.tie_word_embeddings !== true)
    throw new ToolgenError("invalid_input", `${base}: no ${headName} and tie_word_embeddings is not true`);

  const tokenizerFile = join(base, "tokenizer.json");
  const tokenizerJson = readJsonFile(tokenizerFile) as Record<string, unknown>;
  const encoder = nameEncoder(tokenizerJson, tokenizerFile);
  const tokens = [...o.entries.map((e) => toolToken(e.id)), FINISH_TOKEN];
  const names = [...o.entries.map(toolName), "Finish"];
  const nameIds = new Map(tokens.map((t, i) => [t, encoder.encode(names[i]!)]));
  const assignment = addTokensToTokenizerJson(tokenizerJson, tokens, tokenizerFile);
  let newRows = rows;
  const sourceRows = new Map<number, number[]>();
  for (const { id, content } of assignment.added) {
    const sources = nameIds.get(content)!;
    const bad = sources.find((s) => s >= rows);
    if (bad !== undefined)
      throw new ToolgenError(
        "invalid_input",
        `${tokenizerFile}: token id ${bad} has no row in the weights (${rows})`,
      );
    sourceRows.set(id, sources);
    newRows = Math.max(newRows, id + 1);
  }
  for (const [content, id] of assignment.ids) {
    if (id >= rows && !sourceRows.has(id))
      throw new ToolgenError(
        "invalid_input",
        `${tokenizerFile}: ${content} has id ${id} but the weights have only ${rows} rows`,
      );
  }

  const tmp = join(dirname(out), `.${basename(out)}.partial-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  try {
    const total = headers.reduce((n, h) => n + h.dataStart + h.tensors.at(-1)!.end, 0);
    let done = 0;
    let lastYield = 0;
    const progress = async (): Promise<void> => {
      o.onProgress?.(done, total);
      if (done - lastYield > 256 * 2 ** 20) {
        lastYield = done;
        await new Promise((r) => setImmediate(r));
      }
    };
    let dtype = "";
    const grown: string[] = [];
    let totalSize = 0;
    for (const [i, h] of headers.entries()) {
      const vocab = h.tensors.filter((t) => t.name === embedName || t.name === headName);
      const target = join(tmp, files[i]!);
      if (vocab.length === 0) {
        copyFileSync(h.file, target);
        done += statSync(h.file).size;
        totalSize += h.tensors.at(-1)?.end ?? 0;
        await progress();
        continue;
      }
      const grows = new Map<string, Grow>();
      for (const t of vocab) {
        const { dtype: d, width } = checkVocabTensor(t, rows, h.file);
        dtype = d;
        grows.set(t.name, { dtype: d, width, rows: sourceRows, oldRows: rows, newRows });
        grown.push(t.name);
      }
      totalSize += await rewriteShard(h, grows, target, (n) => {
        done += n;
        return progress();
      });
    }

    if (index) {
      const metadata = {
        ...((index.metadata as Record<string, unknown> | undefined) ?? {}),
        total_size: totalSize,
      };
      writeJson(join(tmp, WEIGHT_INDEX), { ...index, metadata });
    }
    writeJson(join(tmp, "config.json"), { ...config, vocab_size: newRows });
    writeFileSync(join(tmp, "tokenizer.json"), JSON.stringify(tokenizerJson));
    writeTokenizerConfig(base, tmp, assignment.added, o.chatTemplate);
    const toolIndex: ToolIndex = {
      kind: "atomic",
      texts: Object.fromEntries(o.entries.map((e) => [e.id, toolToken(e.id)])),
    };
    writeJson(join(tmp, INDEX_FILE), toolIndex);
    const skipped = copyOtherFiles(base, tmp, new Set(files));
    if (existsSync(out)) rmSync(out, { recursive: true });
    renameSync(tmp, out);
    return {
      out,
      baseVocab: rows,
      vocab: newRows,
      added: assignment.added.length,
      existing: tokens.length - assignment.added.length,
      finishId: assignment.ids.get(FINISH_TOKEN)!,
      dtype,
      shards: files.length,
      bytes: done,
      grown,
      nameTokenizer: encoder.kind,
      skipped,
    };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Rewrites one shard with some matrices grown; returns the data bytes written. */
async function rewriteShard(
  h: SafetensorsHeader,
  grows: Map<string, Grow>,
  target: string,
  advance: (bytes: number) => Promise<void>,
): Promise<number> {
  const layout = h.tensors.map((t) => {
    const g = grows.get(t.name);
    if (!g) return { name: t.name, dtype: t.dtype, shape: t.shape, bytes: t.end - t.begin };
    const bytes = g.newRows * g.width * STORED_DTYPE_BYTES[g.dtype];
    return { name: t.name, dtype: t.dtype, shape: [g.newRows, g.width], bytes };
  });
  const { bytes: header } = encodeSafetensorsHeader(layout, h.metadata);
  const reader = new PositionalReader(h.file);
  const writer = new SequentialWriter(target);
  try {
    writer.write(header);
    for (const t of h.tensors) {
      const g = grows.get(t.name);
      const before = writer.written;
      if (g) await writeGrown(reader, h.dataStart + t.begin, g, writer, () => advance(0));
      else copyRange(reader, h.dataStart + t.begin, t.end - t.begin, writer);
      await advance(writer.written - before);
    }
  } finally {
    reader.close();
    writer.close();
  }
  return layout.reduce((n, t) => n + t.bytes, 0);
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

function writeTokenizerConfig(
  base: string,
  tmp: string,
  added: readonly { id: number; content: string }[],
  chatTemplate: string | undefined,
): void {
  const file = join(base, "tokenizer_config.json");
  const config = existsSync(file) ? (readJsonFile(file) as Record<string, unknown>) : {};
  addTokensToTokenizerConfig(config, added);
  if (chatTemplate !== undefined && typeof config.chat_template !== "string")
    config.chat_template = chatTemplate;
  writeJson(join(tmp, "tokenizer_config.json"), config);
}

/** Copies the base's other top-level files (generation_config.json, licence, …); returns what was left out. */
function copyOtherFiles(base: string, tmp: string, shards: ReadonlySet<string>): string[] {
  const skipped: string[] = [];
  for (const name of readdirSync(base)) {
    if (HANDLED.has(name) || shards.has(name)) continue;
    const path = join(base, name);
    if (!statSync(path).isFile() || OTHER_WEIGHTS.test(name)) {
      skipped.push(name);
      continue;
    }
    copyFileSync(path, join(tmp, name));
  }
  return skipped;
}
