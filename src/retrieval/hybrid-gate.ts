import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomic.ts";
import { topShare } from "./hybrid.ts";
import { pinUnqueried } from "./hybrid-pin.ts";
import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";
import { ToolgenError } from "../errors.ts";

/**
 * A gated hybrid of ToolGen and BM25: how sure the model is about a query decides how much its ranking counts.
 * Where the model saw queries for the tools in question it is confident and usually right; where it never did
 * (StableToolBench G2) its mass spreads and BM25 should lead. The gate is chosen on dev queries (`chooseGate`)
 * from a grid that includes "always ToolGen" and "always BM25", so on dev the chosen fusion is never below the
 * better of its two parts; a fused gate is kept only when it beats that part on dev by more than chance (a
 * one-sided sign test over the queries where they differ), else the part alone is the gate, and then the hybrid
 * equals it on every query of every split.
 */
export const GATE_FEATURES = ["top-prob", "margin"] as const;
export type GateFeature = (typeof GATE_FEATURES)[number];

export interface GateOptions {
  /** `top-prob`: softmax share of ToolGen's first hit among its hits; `margin`: its score minus the second's. */
  feature: GateFeature;
  /** At or above: ToolGen's ranking alone (weight 1); below: its votes weigh `lowWeight` against BM25's. */
  threshold: number;
  /** ToolGen's share of the RRF votes under the threshold (0 = BM25 alone). */
  lowWeight: number;
  /** RRF's rank offset (default 60). */
  k0?: number;
  /**
   * The lexical part the gate was chosen with and must be used with: "bm25" (absent: gates written before the
   * ranker was a choice) or "ranker" (the default retriever; what `toolgen train` chooses against now).
   */
  lexical?: LexicalPart;
  /**
   * ToolGen's ranking counts only where the lexical part agrees enough: its score for ToolGen's first hit is at most
   * this far below its own first hit's (a hit it does not list fails). A query about a tool no training query named
   * is one where ToolGen, which can only name tools it was asked for, is sure of the wrong tool while the lexical
   * part puts another tool well ahead; its top-hit share alone does not tell them apart. Absent: no such condition.
   */
  maxLexicalGap?: number;
  /**
   * What ToolGen gives where the gate opens: "ranking" (absent: its whole ranking, the lexical part's topping it up)
   * or "top" (its first hit, then the lexical part's ranking without it), so one wrong trust costs one rank.
   */
  head?: GateHead;
}

export const LEXICAL_PARTS = ["bm25", "ranker"] as const;
export const GATE_HEADS = ["ranking", "top"] as const;
export type GateHead = (typeof GATE_HEADS)[number];
export type LexicalPart = (typeof LEXICAL_PARTS)[number];

/** The model's confidence on one query from its ranked hits (scores as logits or log-probabilities). */
export function gateConfidence(hits: readonly RetrievalHit[], feature: GateFeature): number {
  if (hits.length === 0) return -Infinity;
  if (feature === "top-prob") return topShare(hits);
  return hits.length === 1 ? Infinity : hits[0]!.score - hits[1]!.score;
}

/**
 * One part's ranking, topped up to k from the other's where it has fewer hits (BM25 lists only the tools that share
 * a word with the query): the added hits come after, in the other part's order, with scores below the last.
 */
function filled(first: readonly RetrievalHit[], second: readonly RetrievalHit[], k: number): RetrievalHit[] {
  const out = first.slice(0, k).map((h) => ({ ...h }));
  const seen = new Set(out.map((h) => h.id));
  const floor = out.length > 0 ? out[out.length - 1]!.score : 0;
  for (const h of second) {
    if (out.length >= k) break;
    if (seen.has(h.id)) continue;
    seen.add(h.id);
    out.push({ id: h.id, score: floor - out.length });
  }
  return out;
}

/** True when no query can give ToolGen's ranking weight: its top-hit share is at most 1, the threshold above it. */
export function neverToolGen(o: GateOptions): boolean {
  return o.feature === "top-prob" && o.threshold > 1 && o.lowWeight === 0;
}

/**
 * How far below its own first hit the lexical part scores ToolGen's first hit (0 where they agree; Infinity where
 * the lexical part does not list it or ToolGen has no hit).
 */
export function lexicalGap(toolgen: readonly RetrievalHit[], lexical: readonly RetrievalHit[]): number {
  const first = toolgen[0];
  const at = first === undefined ? -1 : lexical.findIndex((h) => h.id === first.id);
  return at < 0 ? Infinity : lexical[0]!.score - lexical[at]!.score;
}

/** Whether the gate gives ToolGen's ranking weight 1 on this query. */
function opens(toolgen: readonly RetrievalHit[], lexical: readonly RetrievalHit[], o: GateOptions): boolean {
  if (gateConfidence(toolgen, o.feature) < o.threshold) return false;
  return o.maxLexicalGap === undefined || lexicalGap(toolgen, lexical) <= o.maxLexicalGap;
}

/**
 * Fuses one query's rankings: weighted reciprocal-rank fusion with ToolGen's weight set by the gate. With `queried`
 * (the tools ToolGen was trained on queries for; absent for folders written before it was recorded), the tools
 * outside it keep the lexical part's ranks (`pinUnqueried`).
 */
export function gatedFuse(
  toolgen: readonly RetrievalHit[],
  bm25: readonly RetrievalHit[],
  o: GateOptions,
  k: number,
  queried?: ReadonlySet<string>,
): RetrievalHit[] {
  if (queried === undefined) return fuse(toolgen, bm25, o, k);
  // Deep enough that the pinned places cannot leave the list short of queried tools the parts hold.
  return pinUnqueried(fuse(toolgen, bm25, o, Math.max(k, toolgen.length + bm25.length)), bm25, k, queried);
}

function fuse(
  toolgen: readonly RetrievalHit[],
  bm25: readonly RetrievalHit[],
  o: GateOptions,
  k: number,
): RetrievalHit[] {
  const w = opens(toolgen, bm25, o) ? 1 : o.lowWeight;
  if (w === 1 && o.head === "top" && toolgen.length > 0) {
    const first = toolgen[0]!;
    const rest = filled(
      bm25.filter((h) => h.id !== first.id),
      toolgen.slice(1),
      k - 1,
    );
    return [{ id: first.id, score: (rest[0]?.score ?? first.score) + 1 }, ...rest];
  }
  if (w === 1) return filled(toolgen, bm25, k);
  if (w === 0) return filled(bm25, toolgen, k);
  const k0 = o.k0 ?? 60;
  const scores = new Map<string, number>();
  toolgen.forEach((h, r) => scores.set(h.id, (scores.get(h.id) ?? 0) + w / (k0 + r + 1)));
  bm25.forEach((h, r) => scores.set(h.id, (scores.get(h.id) ?? 0) + (1 - w) / (k0 + r + 1)));
  return [...scores.entries()]
    .map(([id, score], order) => ({ id, score, order }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, k)
    .map(({ id, score }) => ({ id, score }));
}

export class GatedHybridRetriever implements Retriever {
  readonly name: string;
  constructor(
    private readonly toolgen: Retriever,
    private readonly bm25: Retriever,
    readonly gate: GateOptions,
    private readonly depth = 100,
    /** The tools ToolGen was trained on queries for (the gate file's `queried`); absent: no pinning. */
    private readonly queried?: ReadonlySet<string>,
  ) {
    this.name = `gated-hybrid(${toolgen.name}+${bm25.name})`;
  }

  async search(query: string, options: SearchOptions = {}): Promise<RetrievalHit[]> {
    const k = options.k ?? 10;
    const depth = Math.max(k, this.depth);
    if (neverToolGen(this.gate)) {
      // The gate chose BM25 alone: ToolGen's hits can only top up a list shorter than k, so they are not
      // computed otherwise (the same result; a beam search costs 100 times a BM25 lookup).
      const b = await this.bm25.search(query, { k: depth });
      if (b.length >= k) return filled(b, [], k);
      return gatedFuse(await this.toolgen.search(query, { k: depth }), b, this.gate, k, this.queried);
    }
    const [a, b] = [
      await this.toolgen.search(query, { k: depth }),
      await this.bm25.search(query, { k: depth }),
    ];
    return gatedFuse(a, b, this.gate, k, this.queried);
  }
}

export interface GateChoice {
  gate: GateOptions;
  /** The criterion on dev for the chosen gate, ToolGen alone and BM25 alone. */
  dev: { chosen: number; toolgen: number; bm25: number };
  /** Every gate tried with its dev criterion (the results JSON lists them). */
  tried: Array<GateOptions & { dev: number }>;
  /**
   * The best fused gate against the better plain part on dev: queries it scores higher, lower, the sign test's
   * one-sided p, and which was kept (absent when a plain part was best outright).
   */
  versusBetterPart?: { gate: GateOptions; wins: number; losses: number; p: number; kept: "gate" | "part" };
}

/** What the gate choosers try, and how each gate is scored on dev. */
export interface GateGrid {
  /** ToolGen's shares of the votes where the gate is shut (default 0, 0.25, 0.5). */
  lowWeights?: number[];
  /** Thresholds at the j/quantiles quantiles of the dev confidences (default 20). */
  quantiles?: number;
  /** The NDCG cutoff the fusion is cut at (default 5). */
  k?: number;
  k0?: number;
  /** The sign test's level for keeping a fused gate over a plain part (default 0.05). */
  alpha?: number;
  /**
   * The tools ToolGen was trained on queries for: every gate is scored with the others pinned to the lexical
   * part's ranks (`pinUnqueried`), as `--retriever hybrid` then runs it. Absent: no pinning.
   */
  queried?: ReadonlySet<string>;
}

/**
 * Chooses the gate on dev: for each feature, thresholds at the quantiles of the dev confidences (plus ±∞:
 * always / never ToolGen) × low weights; the best mean `score` wins, ties going to the earlier (simpler) entry.
 * A fused winner must also beat the better plain part query by query: sign test p < `grid.alpha` (default 0.05),
 * else the plain part is chosen. `score(ranked ids, query index)` is the per-query criterion (e.g. NDCG@5).
 */
export function chooseGate(
  toolgen: readonly (readonly RetrievalHit[])[],
  bm25: readonly (readonly RetrievalHit[])[],
  score: (ranked: string[], query: number) => number,
  grid: GateGrid = {},
): GateChoice {
  if (toolgen.length !== bm25.length || toolgen.length === 0)
    throw new ToolgenError(
      "invalid_option",
      `chooseGate: ${toolgen.length} ToolGen rankings and ${bm25.length} BM25 rankings`,
    );
  const k = grid.k ?? 5;
  const perQuery = (gate: GateOptions, pinned = true): number[] =>
    toolgen.map((hits, i) =>
      score(
        gatedFuse(hits, bm25[i]!, gate, k, pinned ? grid.queried : undefined).map((h) => h.id),
        i,
      ),
    );
  const evaluate = (gate: GateOptions): number => perQuery(gate).reduce((a, b) => a + b, 0) / toolgen.length;
  const tried: GateChoice["tried"] = candidateGates(toolgen, grid).map((gate) => ({
    ...gate,
    dev: evaluate(gate),
  }));
  const best = tried.reduce((a, b) => (b.dev > a.dev ? b : a));
  const part = tried[1]!.dev > tried[0]!.dev ? tried[1]! : tried[0]!;
  // The plain parts as a user runs them alone: ToolGen without pinning (pinning leaves the lexical part as it is).
  const parts = {
    toolgen: grid.queried ? mean(perQuery(tried[0]!, false)) : tried[0]!.dev,
    bm25: tried[1]!.dev,
  };
  const strip = ({ dev: _, ...gate }: GateOptions & { dev: number }): GateOptions => gate;
  if (best === tried[0] || best === tried[1])
    return { gate: strip(best), dev: { chosen: best.dev, ...parts }, tried };
  const [fused, plain] = [perQuery(strip(best)), perQuery(strip(part))];
  const wins = fused.filter((s, i) => s > plain[i]!).length;
  const losses = fused.filter((s, i) => s < plain[i]!).length;
  const p = signTestP(wins, losses);
  const kept = p < (grid.alpha ?? 0.05) ? "gate" : "part";
  const chosen = kept === "gate" ? best : part;
  return {
    gate: strip(chosen),
    dev: { chosen: chosen.dev, ...parts },
    tried,
    versusBetterPart: { gate: strip(best), wins, losses, p, kept },
  };
}

/**
 * The gates `chooseGate` tries: always ToolGen and always BM25 first (so a tie keeps a plain part), a fusion on
 * every query at each low weight, then for each feature thresholds at the quantiles of the dev confidences × low
 * weights.
 */
function candidateGates(
  toolgen: readonly (readonly RetrievalHit[])[],
  grid: { lowWeights?: number[]; quantiles?: number; k0?: number },
  lexical?: readonly (readonly RetrievalHit[])[],
): GateOptions[] {
  const lowWeights = grid.lowWeights ?? [0, 0.25, 0.5];
  const steps = grid.quantiles ?? 20;
  const gates: GateOptions[] = [
    { feature: "top-prob", threshold: -Infinity, lowWeight: 0, k0: grid.k0 },
    { feature: "top-prob", threshold: Infinity, lowWeight: 0, k0: grid.k0 },
    // a fusion on every query (no threshold): where both parts are right on different queries
    ...lowWeights
      .filter((w) => w > 0)
      .map((lowWeight): GateOptions => ({
        feature: "top-prob",
        threshold: Infinity,
        lowWeight,
        k0: grid.k0,
      })),
  ];
  for (const feature of GATE_FEATURES) {
    const values = toolgen.map((h) => gateConfidence(h, feature)).sort((a, b) => a - b);
    const thresholds = [
      ...new Set(
        Array.from({ length: steps - 1 }, (_, j) => values[Math.floor(((j + 1) * values.length) / steps)]!),
      ),
    ];
    for (const threshold of thresholds)
      for (const lowWeight of lowWeights) gates.push({ feature, threshold, lowWeight, k0: grid.k0 });
  }
  if (lexical) gates.push(...agreementGates(toolgen, lexical, steps, grid.k0));
  return gates;
}

/** Quantiles of `values` (finite ones) at j/steps, j = 1..steps-1, without repeats. */
function quantiles(values: readonly number[], steps: number): number[] {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return [];
  return [
    ...new Set(Array.from({ length: steps - 1 }, (_, j) => v[Math.floor(((j + 1) * v.length) / steps)]!)),
  ];
}

/**
 * Gates that also ask the lexical part to agree (`maxLexicalGap`): ToolGen's top-hit share at its dev quantiles (and
 * none) × the lexical gap at its dev quantiles, each with ToolGen's whole ranking or its first hit alone on top.
 */
function agreementGates(
  toolgen: readonly (readonly RetrievalHit[])[],
  lexical: readonly (readonly RetrievalHit[])[],
  steps: number,
  k0: number | undefined,
): GateOptions[] {
  const shares = [
    -Infinity,
    ...quantiles(
      toolgen.map((h) => gateConfidence(h, "top-prob")),
      steps,
    ),
  ];
  const gaps = quantiles(
    toolgen.map((h, i) => lexicalGap(h, lexical[i]!)),
    steps,
  );
  const gates: GateOptions[] = [];
  for (const head of GATE_HEADS)
    for (const threshold of shares)
      for (const maxLexicalGap of gaps)
        gates.push({ feature: "top-prob", threshold, lowWeight: 0, k0, maxLexicalGap, head });
  return gates;
}

/** One dev part's figures: its queries' mean criterion for ToolGen alone, the lexical part alone and the gate. */
export interface GatePartFigures {
  part: string;
  queries: number;
  toolgen: number;
  lexical: number;
  chosen: number;
}

/**
 * Chooses the gate on dev queries of several kinds (`toolgen train`: in-domain queries, and queries of tools that
 * no training query named), so that no kind is given up for another: the gate maximises its worst part's ratio to
 * that part's better plain retriever, min_g mean_g(gate) / max(mean_g(ToolGen), mean_g(lexical)) (a part where
 * both score 0 counts 1), ties going to the higher mean over all queries, then to the earlier (simpler) entry.
 * A ratio, not a difference, so a part where every retriever scores low weighs as much as an easy one. Besides
 * `chooseGate`'s grid, gates that also need the lexical part's agreement (`maxLexicalGap`) are tried: ToolGen's
 * top-hit share alone cannot tell a query about a tool it never saw asked for (it is sure of a wrong tool).
 * With one part this is `chooseGate` (the sign test included). `part[i]` names query i's part.
 */
export function chooseGateByParts(
  toolgen: readonly (readonly RetrievalHit[])[],
  bm25: readonly (readonly RetrievalHit[])[],
  score: (ranked: string[], query: number) => number,
  part: readonly string[],
  grid: GateGrid = {},
): GateChoice & { parts: GatePartFigures[] } {
  if (part.length !== toolgen.length)
    throw new ToolgenError(
      "invalid_option",
      `chooseGateByParts: ${part.length} part labels for ${toolgen.length} queries`,
    );
  const names = [...new Set(part)];
  const k = grid.k ?? 5;
  const perQuery = (gate: GateOptions, pinned = true) =>
    toolgen.map((hits, i) =>
      score(
        gatedFuse(hits, bm25[i]!, gate, k, pinned ? grid.queried : undefined).map((h) => h.id),
        i,
      ),
    );
  const meanOf = (values: number[], name?: string) => {
    const picked = values.filter((_, i) => name === undefined || part[i] === name);
    return picked.reduce((a, b) => a + b, 0) / Math.max(1, picked.length);
  };
  const partFigures = (chosen: number[], plain: [number[], number[]]): GatePartFigures[] =>
    names.map((name) => ({
      part: name,
      queries: part.filter((p) => p === name).length,
      toolgen: meanOf(plain[0], name),
      lexical: meanOf(plain[1], name),
      chosen: meanOf(chosen, name),
    }));
  if (names.length <= 1) {
    const choice = chooseGate(toolgen, bm25, score, grid);
    const gates = candidateGates(toolgen, grid);
    const plain: [number[], number[]] = [perQuery(gates[0]!, false), perQuery(gates[1]!, false)];
    return { ...choice, parts: partFigures(perQuery(choice.gate), plain) };
  }
  const runs = candidateGates(toolgen, grid, bm25).map((gate) => ({ gate, perQuery: perQuery(gate) }));
  // The better plain retriever of each part as a user runs it alone (ToolGen unpinned).
  const plain: [number[], number[]] = grid.queried
    ? [perQuery(runs[0]!.gate, false), perQuery(runs[1]!.gate, false)]
    : [runs[0]!.perQuery, runs[1]!.perQuery];
  const better = names.map((name) => Math.max(meanOf(plain[0], name), meanOf(plain[1], name)));
  const worst = (r: (typeof runs)[number]) =>
    Math.min(...names.map((name, j) => (better[j]! > 0 ? meanOf(r.perQuery, name) / better[j]! : 1)));
  let best = runs[0]!;
  for (const r of runs.slice(1)) {
    const [a, b] = [worst(r), worst(best)];
    if (a > b + 1e-12 || (Math.abs(a - b) <= 1e-12 && meanOf(r.perQuery) > meanOf(best.perQuery) + 1e-12))
      best = r;
  }
  return {
    gate: best.gate,
    dev: {
      chosen: meanOf(best.perQuery),
      toolgen: meanOf(plain[0]),
      bm25: meanOf(plain[1]),
    },
    tried: runs.map((r) => ({ ...r.gate, dev: meanOf(r.perQuery) })),
    parts: partFigures(best.perQuery, plain),
  };
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** One-sided exact sign test: P(at least `wins` of wins + losses fair coin flips), from log-binomial terms. */
export function signTestP(wins: number, losses: number): number {
  const n = wins + losses;
  if (n === 0) return 1;
  const logFact = [0];
  for (let i = 1; i <= n; i++) logFact.push(logFact[i - 1]! + Math.log(i));
  let p = 0;
  for (let x = wins; x <= n; x++) p += Math.exp(logFact[n]! - logFact[x]! - logFact[n - x]! - n * Math.LN2);
  return Math.min(1, p);
}

/**
 * Reliability of the gate's feature: dev queries in `bins` equal-count bins of confidence, each with its mean
 * confidence and ToolGen's top-1 accuracy — the calibration the threshold relies on.
 */
export function gateCalibration(
  toolgen: readonly (readonly RetrievalHit[])[],
  correctTop1: readonly boolean[],
  feature: GateFeature,
  bins = 5,
): Array<{ from: number; to: number; queries: number; meanConfidence: number; top1: number }> {
  const rows = toolgen
    .map((h, i) => ({ c: gateConfidence(h, feature), ok: correctTop1[i]! }))
    .sort((a, b) => a.c - b.c);
  const out = [];
  for (let b = 0; b < bins; b++) {
    const part = rows.slice(Math.floor((b * rows.length) / bins), Math.floor(((b + 1) * rows.length) / bins));
    if (part.length === 0) continue;
    out.push({
      from: part[0]!.c,
      to: part[part.length - 1]!.c,
      queries: part.length,
      meanConfidence: part.reduce((s, r) => s + r.c, 0) / part.length,
      top1: part.filter((r) => r.ok).length / part.length,
    });
  }
  return out;
}

/** A model folder's gate, chosen on dev by whoever trained it (`--retriever hybrid` uses it when present). */
export const GATE_FILE = "toolgen-gate.json";

/** Writes a gate into a model folder (thresholds ±∞ as strings, JSON has no infinity). */
export function writeGate(
  dir: string,
  gate: GateOptions,
  chosenOn: string,
  details: Record<string, unknown> = {},
): void {
  const threshold = Number.isFinite(gate.threshold) ? gate.threshold : String(gate.threshold);
  writeFileAtomic(
    join(dir, GATE_FILE),
    JSON.stringify({ ...gate, threshold, chosenOn, ...details }, null, 2) + "\n",
  );
}

/**
 * A model folder's gate for `--retriever hybrid`; a folder without one is refused with the reason and the way out
 * (a fusion that no dev queries checked can fall below both parts: MetaTool NDCG@1 64.2 against ToolGen's 80.0).
 */
export function requireGate(model: string): GateOptions {
  const gate = readGate(model);
  if (gate) return gate;
  const dir = model.replace(/^builtin:/, "");
  throw new ToolgenError(
    "invalid_option",
    `--retriever hybrid: ${dir} has no gate (${GATE_FILE}); \`toolgen train\` writes one, chosen on the dev ` +
      "queries it holds out of training (--dev-fraction, default 0.05), but this folder was trained without dev " +
      "queries or by an older version. Train it again, or use --retriever toolgen or --retriever bm25",
  );
}

/**
 * The tools a model folder's ToolGen was trained on queries for, as `toolgen train` wrote them beside the gate
 * (`queried` in toolgen-gate.json); the hybrid pins every other tool to the lexical part's rank (`pinUnqueried`).
 * Undefined for a folder without a gate or with a gate written before the list was (then no tool is pinned: the
 * hybrid behaves as it did); a malformed list is an error naming the file.
 */
export function readQueried(dir: string): ReadonlySet<string> | undefined {
  const file = join(dir.replace(/^builtin:/, ""), GATE_FILE);
  if (!existsSync(file)) return undefined;
  const raw = (JSON.parse(readFileSync(file, "utf8")) as { queried?: unknown }).queried;
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || !raw.every((id) => typeof id === "string"))
    throw new ToolgenError("invalid_input", `${file}: queried must be a list of tool ids`);
  return new Set(raw as string[]);
}

/** Reads a model folder's gate, or undefined when it has none; a malformed file is an error naming it. */
export function readGate(dir: string): GateOptions | undefined {
  const file = join(dir.replace(/^builtin:/, ""), GATE_FILE);
  if (!existsSync(file)) return undefined;
  const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const threshold = Number(raw.threshold);
  const lowWeight = Number(raw.lowWeight);
  if (
    !GATE_FEATURES.includes(raw.feature as GateFeature) ||
    Number.isNaN(threshold) ||
    !(lowWeight >= 0 && lowWeight <= 1) ||
    (raw.lexical !== undefined && !LEXICAL_PARTS.includes(raw.lexical as LexicalPart)) ||
    (raw.maxLexicalGap !== undefined && typeof raw.maxLexicalGap !== "number") ||
    (raw.head !== undefined && !GATE_HEADS.includes(raw.head as GateHead))
  )
    throw new ToolgenError(
      "invalid_input",
      `${file}: expected {feature: ${GATE_FEATURES.join(" | ")}, threshold, lowWeight in [0, 1], ` +
        `lexical?: ${LEXICAL_PARTS.join(" | ")}, maxLexicalGap?: number, head?: ${GATE_HEADS.join(" | ")}}`,
    );
  return {
    feature: raw.feature as GateFeature,
    threshold,
    lowWeight,
    ...(typeof raw.k0 === "number" ? { k0: raw.k0 } : {}),
    ...(raw.lexical !== undefined ? { lexical: raw.lexical as LexicalPart } : {}),
    // Older folders have neither: their gate keeps meaning what it meant (top-hit share alone, ToolGen's ranking).
    ...(typeof raw.maxLexicalGap === "number" ? { maxLexicalGap: raw.maxLexicalGap } : {}),
    ...(raw.head !== undefined ? { head: raw.head as GateHead } : {}),
  };
}
