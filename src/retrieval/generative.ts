import { FINISH_TOKEN } from "../toolgen/tokens.ts";
import type { TokenModel } from "../models/model.ts";
import { encodeChat, turnEnd, type ChatFormat } from "../toolgen/chat-encoding.ts";
import { constrainedBeamSearch, topTokens } from "./constrained-beam.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";
import { TokenTrie } from "./trie.ts";
import { ToolgenError } from "../errors.ts";

/**
 * ToolGen as a retriever (paper §4): the query goes in as a user turn, the model writes a tool id. Atomic ids
 * take one forward pass: the tool tokens are ranked by their next-token logit. Multi-token ids (semantic,
 * numeric, hierarchical) are decoded by beam search over the trie of valid ids. With `constrained: false` the
 * model ranks the whole vocabulary (atomic) or decodes freely; outputs that are not ids are dropped from the
 * results and counted as hallucinations.
 */
export interface GenerativeRetrieverOptions {
  /** Beam width for multi-token ids (default max(k, 5)). */
  beams?: number;
  constrained?: boolean;
  /** Long queries are cut to this many tokens, as in training. */
  maxContentTokens?: number;
  /** The chat format the model was trained with (default llama3; the model folder records it). */
  chatFormat?: ChatFormat;
  /** The trie to decode with (default `buildIdTrie`); tests inject a broken one to see `rawOutputs` catch it. */
  trie?: TokenTrie;
  /**
   * Logit offsets by tool id, added to those tools' tokens before ranking (atomic ids; a model folder's
   * toolgen-offsets.json, written by `toolgen train --add-tools --new-tool-offset`).
   */
  offsets?: Readonly<Record<string, number>>;
}

/** Batched next-token logits, when the backend can score many prompts in one pass (evaluation speed). */
export interface BatchScorer {
  nextTokenLogits(prompts: readonly number[][]): Promise<Float32Array[]>;
}

/** The token sequences of every id under an index: one token (atomic) or its tokens plus the turn's end token. */
export function buildIdTrie(
  model: Pick<TokenModel, "tokenize" | "tokenId">,
  index: ToolIndex,
  format: ChatFormat = "llama3",
): TokenTrie {
  const end = model.tokenId(turnEnd(format));
  const trie = new TokenTrie();
  for (const [id, text] of Object.entries(index.texts)) {
    if (index.kind === "atomic") {
      const token = model.tokenId(text);
      if (token === undefined)
        throw new ToolgenError(
          "invalid_input",
          `the model has no token ${text}: was it trained on this catalog?`,
        );
      trie.insert([token], id);
    } else {
      if (end === undefined)
        throw new ToolgenError("invalid_input", `the model's tokenizer has no ${turnEnd(format)} token`);
      trie.insert([...model.tokenize(text), end], id);
    }
  }
  return trie;
}

export interface HallucinationCount {
  generations: number;
  invalid: number;
}

/**
 * What the decoder produced before anything was filtered, checked against the index itself (not the trie): an
 * output is valid when its tokens are exactly the tokens of the catalog id it claims (`idSequences`). Under the
 * constraint every count of invalid outputs must be 0; a trie or decoder bug shows up here as a number.
 */
export interface RawOutputCount {
  /** Decodings run (one per query). */
  generations: number;
  /** Outputs produced: every ranked token (atomic) or finished hypothesis (multi-token), top-k per decoding. */
  outputs: number;
  /** Outputs that are not a catalog id's token sequence, or not the id the decoder says they are. */
  invalid: number;
  /** Decodings whose first output was invalid. */
  invalidTop1: number;
}

/**
 * The token sequence of every id, from the index alone (the reference a raw output is checked against): the one
 * token of an atomic id, or an id's tokens plus the turn's end token. Keys are the tokens joined by commas.
 */
export function idSequences(
  model: Pick<TokenModel, "tokenize" | "tokenId">,
  index: ToolIndex,
  format: ChatFormat = "llama3",
): Map<string, string> {
  const end = model.tokenId(turnEnd(format));
  const out = new Map<string, string>();
  for (const [id, text] of Object.entries(index.texts)) {
    const tokens = index.kind === "atomic" ? [model.tokenId(text)] : [...model.tokenize(text), end];
    out.set(tokens.join(","), id);
  }
  return out;
}

export class GenerativeRetriever implements Retriever {
  readonly name: string;
  readonly trie: TokenTrie;
  private readonly toolTokens: number[];
  private readonly idOfToken = new Map<number, string>();
  /** Token → logit offset (options.offsets on atomic ids). */
  private readonly tokenOffsets: Array<[number, number]> = [];
  /** Hallucinations seen in unconstrained mode: top-1 outputs that were not a catalog id. */
  readonly hallucinations: HallucinationCount = { generations: 0, invalid: 0 };
  /** Every raw output in either mode, checked against the index before any filtering. */
  readonly rawOutputs: RawOutputCount = { generations: 0, outputs: 0, invalid: 0, invalidTop1: 0 };
  private readonly reference: Map<string, string>;

  constructor(
    private readonly model: TokenModel,
    readonly index: ToolIndex,
    private readonly options: GenerativeRetrieverOptions = {},
    private readonly batch?: BatchScorer,
  ) {
    this.name = options.constrained === false ? "toolgen-unconstrained" : "toolgen";
    this.trie = options.trie ?? buildIdTrie(model, index, options.chatFormat);
    this.reference = idSequences(model, index, options.chatFormat);
    this.toolTokens = [];
    if (index.kind === "atomic") {
      for (const [id, tokens] of this.trie.entries()) {
        this.toolTokens.push(tokens[0]!);
        this.idOfToken.set(tokens[0]!, id);
        const offset = options.offsets?.[id];
        if (offset) this.tokenOffsets.push([tokens[0]!, offset]);
      }
    } else if (options.offsets && Object.values(options.offsets).some((x) => x !== 0)) {
      throw new ToolgenError("invalid_option", "logit offsets apply to atomic ids only");
    }
  }

  /** The prompt ids: the query as a user turn, then the assistant header. */
  prompt(query: string): number[] {
    const tokenizer = {
      encode: (t: string) => this.model.tokenize(t),
      tokenToId: (t: string) => this.model.tokenId(t),
    };
    return encodeChat(tokenizer, [{ role: "user", content: query }], {
      format: this.options.chatFormat,
      generationPrompt: true,
      maxContentTokens: this.options.maxContentTokens ?? 96,
    }).ids;
  }

  /** Counts one decoding's raw outputs (best first) against the reference, before anything is dropped. */
  private countRaw(outputs: ReadonlyArray<{ tokens: readonly number[]; id: string | undefined }>): void {
    this.rawOutputs.generations++;
    outputs.forEach(({ tokens, id }, i) => {
      this.rawOutputs.outputs++;
      const ref = this.reference.get(tokens.join(","));
      if (ref === undefined || ref !== id) {
        this.rawOutputs.invalid++;
        if (i === 0) this.rawOutputs.invalidTop1++;
      }
    });
    if (outputs.length === 0) this.rawOutputs.invalidTop1++;
  }

  private rankAtomic(raw: Float32Array, k: number): RetrievalHit[] {
    let logits = raw;
    if (this.tokenOffsets.length > 0) {
      logits = raw.slice(); // the caller's array stays the model's
      for (const [token, offset] of this.tokenOffsets) logits[token] = logits[token]! + offset;
    }
    const constrained = this.options.constrained !== false;
    const ranked = topTokens(logits, k, constrained ? this.toolTokens : undefined);
    this.countRaw(ranked.map((t) => ({ tokens: [t], id: this.idOfToken.get(t) })));
    if (!constrained) {
      this.hallucinations.generations++;
      if (!this.idOfToken.has(ranked[0]!)) this.hallucinations.invalid++;
    }
    return ranked
      .filter((t) => this.idOfToken.has(t))
      .map((t) => ({ id: this.idOfToken.get(t)!, score: logits[t]! }));
  }

  async search(query: string, options: SearchOptions = {}): Promise<RetrievalHit[]> {
    const k = options.k ?? 10;
    const prompt = this.prompt(query);
    if (this.index.kind === "atomic") return this.rankAtomic(await this.model.logits(prompt), k);
    const session = await this.model.session();
    try {
      const logits = await session.append(prompt);
      const constrained = this.options.constrained !== false;
      const hyps = await constrainedBeamSearch(session, logits, this.trie, {
        beams: Math.max(k, this.options.beams ?? 5),
        constrained,
        endToken: this.model.tokenId(turnEnd(this.options.chatFormat)),
      });
      this.countRaw(hyps);
      if (!constrained) {
        this.hallucinations.generations++;
        if (hyps[0]?.id === undefined) this.hallucinations.invalid++;
      }
      const seen = new Set<string>();
      const hits: RetrievalHit[] = [];
      for (const h of hyps) {
        if (h.id === undefined || seen.has(h.id)) continue;
        seen.add(h.id);
        hits.push({ id: h.id, score: h.logProb });
      }
      return hits.slice(0, k);
    } finally {
      session.dispose();
    }
  }

  /** Many queries at once: batched forward passes for atomic ids, one search per query otherwise. */
  async searchMany(
    queries: readonly string[],
    options: SearchOptions = {},
    batchSize = 64,
  ): Promise<RetrievalHit[][]> {
    if (this.index.kind !== "atomic" || !this.batch)
      return Promise.all(queries.map((q) => this.search(q, options)));
    const out: RetrievalHit[][] = [];
    for (let i = 0; i < queries.length; i += batchSize) {
      const prompts = queries.slice(i, i + batchSize).map((q) => this.prompt(q));
      for (const logits of await this.batch.nextTokenLogits(prompts))
        out.push(this.rankAtomic(logits, options.k ?? 10));
    }
    return out;
  }
}

/** The token ids an action step may produce under atomic indexing: every tool token and `<<Finish>>`. */
export function actionTokenIds(model: Pick<TokenModel, "tokenId">, index: ToolIndex): number[] {
  const ids = [...Object.values(index.texts), FINISH_TOKEN].map((t) => model.tokenId(t));
  if (index.kind !== "atomic")
    throw new ToolgenError(
      "invalid_option",
      "actionTokenIds: only atomic ids are single tokens; use buildIdTrie",
    );
  return ids.filter((id): id is number => id !== undefined);
}
