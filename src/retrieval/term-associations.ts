/**
 * Learned document expansion: which query words the users of a tool say when its document holds a word ("recipe"
 * in a description → "cook", "dinner", "meal" in queries). Learnt from the queries of training tools, word to
 * word, so it names no tool and expands the document of a tool no query ever named (doc2query's idea, with a
 * co-occurrence table instead of a generator). Small enough to ship: pruned to each document word's strongest
 * query words.
 */

/** Document term → [query term, strength] pairs, strongest first. */
export interface TermAssociations {
  header: Record<string, unknown>;
  /** Query words kept per expanded document (chosen on dev with the table). */
  keep?: number;
  table: Record<string, [string, number][]>;
}

export interface AssociationUnit {
  /** The distinct terms of one tool's document (all fields). */
  documentTerms: readonly string[];
  /** The tokenized queries that name the tool. */
  queries: readonly (readonly string[])[];
}

export interface LearnAssociationsOptions {
  /** A document term must occur in at least this many training tools (else it would learn one tool's queries). */
  minTools: number;
  /** Query words kept per document term. */
  perTerm: number;
  /** Least strength kept (share of a tool's queries above the background share). */
  minStrength: number;
  /** A tool counts at most this many queries (a tool with hundreds of queries does not speak for the word). */
  queriesPerTool: number;
  /** Pseudo-queries that say nothing, added per document term: shrinks what few queries suggest toward 0. */
  prior: number;
}

/**
 * For a document term v and a query word w: strength(v, w) = the share of the queries of the training tools whose
 * document holds v that say w (each tool counting at most `queriesPerTool` queries, `prior` silent pseudo-queries
 * added), minus the same share over all training tools' queries (the background), so that words every query says
 * ("find", "help") gain nothing and a word seen with one or two queries gains little.
 */
export function learnAssociations(
  units: readonly AssociationUnit[],
  o: LearnAssociationsOptions,
  header: Record<string, unknown> = {},
): TermAssociations {
  // Per tool: query-word counts and the query count, scaled down to at most queriesPerTool queries.
  const counts = units.map((u) => {
    const c = new Map<string, number>();
    const scale = Math.min(1, o.queriesPerTool / Math.max(1, u.queries.length));
    for (const q of u.queries) for (const w of new Set(q)) c.set(w, (c.get(w) ?? 0) + scale);
    return { c, n: u.queries.length * scale };
  });
  const totalQueries = counts.reduce((a, x) => a + x.n, 0) || 1;
  const background = new Map<string, number>();
  for (const { c } of counts) for (const [w, x] of c) background.set(w, (background.get(w) ?? 0) + x);
  const byTerm = new Map<string, number[]>();
  units.forEach((u, i) => {
    for (const v of new Set(u.documentTerms)) {
      const list = byTerm.get(v) ?? [];
      list.push(i);
      byTerm.set(v, list);
    }
  });
  const table: Record<string, [string, number][]> = {};
  for (const [v, tools] of [...byTerm].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (tools.length < o.minTools) continue;
    const sum = new Map<string, number>();
    let n = o.prior;
    for (const t of tools) {
      n += counts[t].n;
      for (const [w, x] of counts[t].c) sum.set(w, (sum.get(w) ?? 0) + x);
    }
    const kept = [...sum]
      .map(([w, x]): [string, number] => [w, x / n - (background.get(w) ?? 0) / totalQueries])
      .filter(([, s]) => s >= o.minStrength)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, o.perTerm)
      .map(([w, s]): [string, number] => [w, Math.round(s * 1000) / 1000]);
    if (kept.length > 0) table[v] = kept;
  }
  return { header, table };
}

/**
 * The expansion of one document: each query word's summed strength over the document's distinct terms, the `keep`
 * strongest (ties in word order). The sums are the expansion field's term frequencies in BM25F.
 */
export function expandDocument(
  associations: TermAssociations,
  documentTerms: Iterable<string>,
  keep = 20,
): Map<string, number> {
  const { words, strengths } = DocumentExpander.for(associations).expand([...new Set(documentTerms)], keep);
  return new Map(words.map((w, i) => [w, strengths[i]]));
}

/** One document term's associations with the query words as numbers (their rank in string order). */
export interface PreparedTerm {
  words: Int32Array;
  strengths: Float64Array;
}

const expanders = new WeakMap<TermAssociations, DocumentExpander>();

/**
 * `expandDocument` for every document of a catalog without a Map per document: query words are numbered in string
 * order (so a tie in strength breaks on the number), sums accumulate in a typed array in the same order as a Map
 * would, and the `keep` strongest are picked by insertion into a short sorted list instead of sorting every sum.
 */
export class DocumentExpander {
  /** The query words, in string order. */
  private readonly words: string[];
  private readonly table = new Map<string, PreparedTerm>();
  private readonly sums: Float64Array;
  /** Which document last touched each word (its number + 1), so sums need no clearing. */
  private readonly stamps: Int32Array;
  private readonly touched: Int32Array;
  private stamp = 0;

  /** The expander of a table, prepared once (the table is read-only once shipped or learnt). */
  static for(associations: TermAssociations): DocumentExpander {
    let expander = expanders.get(associations);
    if (expander === undefined) expanders.set(associations, (expander = new DocumentExpander(associations)));
    return expander;
  }

  private constructor(associations: TermAssociations) {
    const { table } = associations;
    const entries = Object.keys(table).map((v) => [v, table[v]] as const);
    const all = new Set<string>();
    for (const [, pairs] of entries) for (const [w] of pairs) all.add(w);
    this.words = [...all].sort((a, c) => (a < c ? -1 : a > c ? 1 : 0));
    const number = new Map(this.words.map((w, i) => [w, i]));
    for (const [v, pairs] of entries)
      this.table.set(v, {
        words: Int32Array.from(pairs, ([w]) => number.get(w)!),
        strengths: Float64Array.from(pairs, ([, s]) => s),
      });
    this.sums = new Float64Array(this.words.length);
    this.stamps = new Int32Array(this.words.length);
    this.touched = new Int32Array(this.words.length);
  }

  /**
   * The expansion of a document given its distinct terms (in the order a Map would have summed them): the `keep`
   * strongest query words, strongest first, with their strengths.
   */
  expand(distinctTerms: readonly string[], keep: number): { words: string[]; strengths: number[] } {
    const prepared: PreparedTerm[] = [];
    for (const v of distinctTerms) {
      const entry = this.table.get(v);
      if (entry !== undefined) prepared.push(entry);
    }
    return this.expandPrepared(prepared, keep);
  }

  /** A document term's associations (undefined when the table has none), for callers that cache them by term. */
  prepared(term: string): PreparedTerm | undefined {
    return this.table.get(term);
  }

  /** `expand` over the document terms' prepared associations (same order), looked up once by the caller. */
  expandPrepared(prepared: readonly PreparedTerm[], keep: number): { words: string[]; strengths: number[] } {
    const { sums, stamps, touched } = this;
    const stamp = ++this.stamp;
    let count = 0;
    for (const { words, strengths } of prepared) {
      for (let j = 0; j < words.length; j++) {
        const w = words[j];
        if (stamps[w] !== stamp) {
          stamps[w] = stamp;
          sums[w] = 0;
          touched[count++] = w;
        }
        sums[w] += strengths[j];
      }
    }
    // The best `keep`, best first: a word enters only if it beats the current last (most are turned away at once).
    const best: number[] = [];
    const beats = (a: number, c: number): boolean => sums[a] > sums[c] || (sums[a] === sums[c] && a < c);
    const limit = Math.max(0, Math.floor(keep));
    for (let t = 0; t < count && limit > 0; t++) {
      const w = touched[t];
      if (best.length === limit && !beats(w, best[limit - 1])) continue;
      let at = best.length === limit ? limit - 1 : best.length;
      while (at > 0 && beats(w, best[at - 1])) {
        best[at] = best[at - 1];
        at--;
      }
      best[at] = w;
    }
    return { words: best.map((w) => this.words[w]), strengths: best.map((w) => sums[w]) };
  }
}
