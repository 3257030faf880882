/**
 * Byte-level BPE tokenizer with GPT-2 pre-tokenization, special and added tokens that are never split, and
 * Hugging Face `tokenizer.json` I/O. Ids: special tokens given at training first, then the 256 bytes, then one
 * per merge; tokens added later (`addTokens`) get the next ids.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AddedTokenMatcher } from "./added.ts";
import { BYTE_TO_CHAR, decodeUtf8, fromByteLevel } from "./bytes.ts";
import { fromHfJson, toHfJson, type TokenizerData } from "./hf-json.ts";
import { pretokenize } from "./pretokenize.ts";
import { trainBpe } from "./train.ts";
import { ToolgenError } from "../../errors.ts";

export interface TrainTokenizerOptions {
  /** Tokens placed first (ids 0, 1, …), never split and never learned from the text: chat markers, bos/eos. */
  specialTokens?: string[];
  /** A pair seen fewer times than this is never merged (default 2). */
  minFrequency?: number;
  /** Keep every digit a token of its own (no merge involves a digit; train.ts). */
  splitDigits?: boolean;
}

export interface EncodeOptions {
  /** Recognise special tokens in the text (default true). When false they are encoded as plain text. */
  special?: boolean;
}

export interface DecodeOptions {
  /** Leave special tokens out of the text (default false). */
  skipSpecial?: boolean;
}

export interface AddedTokenInfo {
  id: number;
  content: string;
  special: boolean;
}

const PAIR_SHIFT = 2 ** 21;
const CACHE_LIMIT = 200_000;
const utf8 = new TextEncoder();

export class Tokenizer {
  private readonly vocab: string[];
  private readonly ids = new Map<string, number>();
  private readonly merges: [string, string][];
  /** pair key (left id · 2^21 + right id) -> rank; `mergedId[rank]` is the token the pair becomes. */
  private readonly mergeRank = new Map<number, number>();
  private readonly mergedId: number[] = [];
  private readonly mergeLeft: number[] = [];
  private readonly mergeRight: number[] = [];
  private readonly byteId: number[] = [];
  private readonly added = new Map<number, AddedTokenInfo>();
  private readonly matcher = new AddedTokenMatcher();
  private readonly cache = new Map<string, number[]>();

  private constructor(data: TokenizerData) {
    this.vocab = data.vocab.slice();
    this.vocab.forEach((t, id) => {
      if (!this.ids.has(t)) this.ids.set(t, id);
    });
    for (let b = 0; b < 256; b++) {
      const id = this.ids.get(BYTE_TO_CHAR[b]!);
      if (id === undefined)
        throw new ToolgenError(
          "invalid_input",
          `tokenizer: byte token ${JSON.stringify(BYTE_TO_CHAR[b])} is missing`,
        );
      this.byteId.push(id);
    }
    this.merges = data.merges.map(([a, b]) => [a, b]);
    this.merges.forEach(([a, b], rank) => {
      const ia = this.ids.get(a);
      const ib = this.ids.get(b);
      const im = this.ids.get(a + b);
      if (ia === undefined || ib === undefined || im === undefined) {
        throw new ToolgenError(
          "invalid_input",
          `tokenizer: merge ${rank} (${JSON.stringify(a)} ${JSON.stringify(b)}) uses a token not in the vocab`,
        );
      }
      const key = ia * PAIR_SHIFT + ib;
      if (!this.mergeRank.has(key)) this.mergeRank.set(key, rank);
      this.mergedId.push(im);
      this.mergeLeft.push(ia);
      this.mergeRight.push(ib);
    });
    for (const a of data.added) this.registerAdded(a.id, a.content, a.special);
  }

  /** Trains byte-level BPE on `texts` up to `vocabSize` tokens (special tokens and the 256 bytes included). */
  static train(texts: Iterable<string>, vocabSize: number, options: TrainTokenizerOptions = {}): Tokenizer {
    const specials = options.specialTokens ?? [];
    if (new Set(specials).size !== specials.length)
      throw new ToolgenError("invalid_input", "tokenizer: special tokens must be distinct");
    const base = specials.length + 256;
    if (!Number.isInteger(vocabSize) || vocabSize < base) {
      throw new ToolgenError(
        "invalid_option",
        `tokenizer: vocabSize must be an integer ≥ ${base} (special tokens + 256 bytes), got ${vocabSize}`,
      );
    }
    const matcher = new AddedTokenMatcher();
    specials.forEach((s, i) => matcher.add(s, i));
    // Special tokens are cut out of the training text so no merge learns them.
    function* plain(): Iterable<string> {
      for (const t of texts) for (const seg of matcher.split(t)) if (seg.id === -1) yield seg.text;
    }
    const { tokens, merges } = trainBpe(plain(), {
      merges: vocabSize - base,
      minFrequency: options.minFrequency ?? 2,
      ...(options.splitDigits ? { splitDigits: true } : {}),
    });
    return new Tokenizer({
      vocab: [...specials, ...tokens],
      merges,
      added: specials.map((content, id) => ({ id, content, special: true })),
    });
  }

  /** Loads a `tokenizer.json` (a file, or a folder that holds one). */
  static load(path: string): Tokenizer {
    if (!existsSync(path)) throw new ToolgenError("invalid_input", `tokenizer: ${path} does not exist`);
    const file = statSync(path).isDirectory() ? join(path, "tokenizer.json") : path;
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      throw new ToolgenError(
        "invalid_input",
        `tokenizer: cannot read ${file} as JSON: ${(e as Error).message}`,
        { cause: e },
      );
    }
    return Tokenizer.fromJSON(json, file);
  }

  /** Builds a tokenizer from a parsed `tokenizer.json` object. */
  static fromJSON(json: unknown, source = "tokenizer.json"): Tokenizer {
    return new Tokenizer(fromHfJson(json, source));
  }

  /** The Hugging Face `tokenizer.json` object. */
  toJSON(): Record<string, unknown> {
    return toHfJson({ vocab: this.vocab, merges: this.merges, added: this.addedTokens() });
  }

  /** Writes `tokenizer.json` into `dir` (atomically: temporary file, then rename); returns the file path. */
  save(dir: string): string {
    const file = join(dir, "tokenizer.json");
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
    writeFileSync(tmp, JSON.stringify(this.toJSON()));
    renameSync(tmp, file);
    return file;
  }

  get vocabSize(): number {
    return this.vocab.length;
  }

  tokenToId(token: string): number | undefined {
    return this.ids.get(token);
  }

  idToToken(id: number): string | undefined {
    return this.vocab[id];
  }

  /** Merges in rank order, as pairs of byte-level token strings (GGUF export needs them). */
  mergeList(): readonly (readonly [string, string])[] {
    return this.merges;
  }

  /** Special and added tokens, by id. */
  addedTokens(): AddedTokenInfo[] {
    return [...this.added.values()].sort((a, b) => a.id - b.id);
  }

  isSpecial(id: number): boolean {
    return this.added.get(id)?.special === true;
  }

  /**
   * Adds tokens that are never split (tool tokens, `<<Finish>>`, extra markers); returns their ids. A token
   * that exists already keeps its id. New tokens get the next ids, so a model's embedding grows at the end.
   */
  addTokens(tokens: string[], options: { special?: boolean } = {}): number[] {
    const out = tokens.map((content) => {
      const existing = this.ids.get(content);
      if (existing !== undefined) {
        if (!this.added.has(existing)) this.registerAdded(existing, content, options.special === true);
        return existing;
      }
      const id = this.vocab.length;
      this.vocab.push(content);
      this.ids.set(content, id);
      this.registerAdded(id, content, options.special === true);
      return id;
    });
    this.cache.clear();
    return out;
  }

  encode(text: string, options: EncodeOptions = {}): number[] {
    const out: number[] = [];
    const accept = options.special === false ? (id: number) => !this.isSpecial(id) : undefined;
    for (const seg of this.matcher.split(text, accept)) {
      if (seg.id !== -1) out.push(seg.id);
      else for (const word of pretokenize(seg.text)) for (const id of this.encodeWord(word)) out.push(id);
    }
    return out;
  }

  decode(ids: readonly number[], options: DecodeOptions = {}): string {
    let text = "";
    let bytes: number[] = [];
    const flush = (): void => {
      if (bytes.length > 0) text += decodeUtf8(Uint8Array.from(bytes));
      bytes = [];
    };
    for (const id of ids) {
      const token = this.vocab[id];
      if (token === undefined)
        throw new ToolgenError(
          "invalid_input",
          `tokenizer: id ${id} is outside the vocabulary (size ${this.vocabSize})`,
        );
      const added = this.added.get(id);
      if (added) {
        flush();
        if (!(added.special && options.skipSpecial)) text += added.content;
        continue;
      }
      const b = fromByteLevel(token);
      if (b) for (const x of b) bytes.push(x);
      else {
        flush();
        text += token;
      }
    }
    flush();
    return text;
  }

  private registerAdded(id: number, content: string, special: boolean): void {
    this.added.set(id, { id, content, special });
    this.matcher.add(content, id);
  }

  /** BPE on one pre-token: repeatedly merge the lowest-ranked adjacent pair (all its occurrences, left to right). */
  private encodeWord(word: string): number[] {
    const hit = this.cache.get(word);
    if (hit) return hit;
    let sym: number[] = Array.from(utf8.encode(word), (b) => this.byteId[b]!);
    while (sym.length > 1) {
      let best = Infinity;
      for (let i = 0; i + 1 < sym.length; i++) {
        const r = this.mergeRank.get(sym[i]! * PAIR_SHIFT + sym[i + 1]!);
        if (r !== undefined && r < best) best = r;
      }
      if (best === Infinity) break;
      const ia = this.mergeLeft[best]!;
      const ib = this.mergeRight[best]!;
      const merged: number[] = [];
      for (let i = 0; i < sym.length; i++) {
        if (i + 1 < sym.length && sym[i] === ia && sym[i + 1] === ib) {
          merged.push(this.mergedId[best]!);
          i++;
        } else merged.push(sym[i]!);
      }
      sym = merged;
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(word, sym);
    return sym;
  }
}
