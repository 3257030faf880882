import type { CatalogEntry } from "../catalog/catalog.ts";
import { toolToken } from "./tokens.ts";
import { toolDocument } from "./tool-document.ts";
import { sphericalKMeans, type SparseVector } from "./kmeans.ts";
import { ENGLISH_STOPWORDS, tokenize } from "../text/terms.ts";

/**
 * ToolGen's index kinds (paper §4.3, App. B): how a tool is written in the model's output.
 * - atomic: one new token per tool, `<<tool&&api>>`;
 * - semantic: ToolBench's function name, e.g. `get_video_details_for_youtube_hub` (several ordinary tokens);
 * - numeric: the catalog position, zero-padded to 5 digits, digits space-separated ("0 0 1 2 8");
 * - hierarchical: the digit path of the tool in a recursive 10-way k-means tree (until singletons).
 */
export type IndexKind = "atomic" | "semantic" | "numeric" | "hierarchical";
export const INDEX_KINDS: readonly IndexKind[] = ["atomic", "semantic", "numeric", "hierarchical"];

/** The written form of every catalog id under one index kind; saved with a trained model. */
export interface ToolIndex {
  kind: IndexKind;
  /** catalog id → the text the model generates for it. */
  texts: Record<string, string>;
}

export function isIndexKind(value: string): value is IndexKind {
  return (INDEX_KINDS as readonly string[]).includes(value);
}

/** ToolBench-style identifier: non-alphanumerics to "_", runs collapsed, trimmed, lowercase, no leading digit. */
export function standardizeName(name: string): string {
  let s = name
    .replace(/[^\p{L}\p{N}_]/gu, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  if (/^\d/.test(s)) s = `get_${s}`;
  return s === "" ? "tool" : s;
}

/** The semantic name: `api_for_tool` for ToolBench-style entries, the standardized name otherwise (≤ 64 chars). */
export function semanticName(entry: CatalogEntry): string {
  const hasApi = entry.api !== "" && entry.api !== entry.tool;
  const name = hasApi
    ? `${standardizeName(entry.api)}_for_${standardizeName(entry.tool)}`
    : standardizeName(entry.tool);
  return name.slice(0, 64);
}

/** Distinct texts: a repeated text gets `_2`, `_3`, … so every id has its own sequence. */
function dedupe(texts: string[]): string[] {
  const seen = new Map<string, number>();
  return texts.map((t) => {
    const n = (seen.get(t) ?? 0) + 1;
    seen.set(t, n);
    return n === 1 ? t : `${t}_${n}`;
  });
}

export function numericText(position: number, width = 5): string {
  return String(position).padStart(width, "0").split("").join(" ");
}

/**
 * The vectors hierarchical indexing clusters: L2-normalised TF-IDF over the words of each tool's memorisation
 * document (name, descriptions, parameters). The paper clusters embeddings; a tiny model trained from scratch has
 * no useful embeddings before training, so the document's words stand in for them.
 */
export function toolVectors(entries: readonly CatalogEntry[]): { vectors: SparseVector[]; dims: number } {
  const vocab = new Map<string, number>();
  const counts = entries.map((e) => {
    const tf = new Map<number, number>();
    for (const w of tokenize(toolDocument(e), { stopwords: ENGLISH_STOPWORDS })) {
      if (!vocab.has(w)) vocab.set(w, vocab.size);
      const id = vocab.get(w)!;
      tf.set(id, (tf.get(id) ?? 0) + 1);
    }
    return tf;
  });
  const df = new Float64Array(vocab.size);
  for (const tf of counts) for (const id of tf.keys()) df[id]!++;
  const vectors = counts.map((tf) => {
    const indices = Uint32Array.from(tf.keys());
    const values = Float32Array.from(
      indices,
      (id) => (1 + Math.log(tf.get(id)!)) * Math.log(1 + entries.length / df[id]!),
    );
    const norm = Math.hypot(...values) || 1;
    for (let i = 0; i < values.length; i++) values[i]! /= norm;
    return { indices, values };
  });
  return { vectors, dims: vocab.size };
}

/** Digit paths of a recursive 10-way clustering, one per point; a group of ≤ 10 gives each member its own digit. */
export function hierarchicalPaths(vectors: readonly SparseVector[], dims: number, seed: number): string[] {
  const paths = new Array<string>(vectors.length).fill("");
  const split = (members: number[], depth: number): void => {
    if (members.length <= 1) return;
    let groups: number[][];
    if (members.length <= 10) {
      groups = members.map((m) => [m]);
    } else {
      const assign = sphericalKMeans(
        members.map((m) => vectors[m]!),
        dims,
        10,
        seed + depth * 7919 + members[0]!,
      );
      groups = [];
      assign.forEach((g, i) => (groups[g] ??= []).push(members[i]!));
      // Identical vectors cannot be separated by clustering: cut the group in order so the recursion ends.
      if (groups.length === 1) {
        const size = Math.ceil(members.length / 10);
        groups = Array.from({ length: Math.ceil(members.length / size) }, (_, i) =>
          members.slice(i * size, (i + 1) * size),
        );
      }
    }
    groups.forEach((group, digit) => {
      for (const m of group) paths[m] += paths[m] === "" ? `${digit}` : ` ${digit}`;
      split(group, depth + 1);
    });
  };
  split(
    vectors.map((_, i) => i),
    0,
  );
  return paths;
}

/** The written form of every entry under `kind` (deterministic for a catalog order and seed). */
export function buildToolIndex(entries: readonly CatalogEntry[], kind: IndexKind, seed = 1): ToolIndex {
  let texts: string[];
  switch (kind) {
    case "atomic":
      texts = entries.map((e) => toolToken(e.id));
      break;
    case "semantic":
      texts = dedupe(entries.map(semanticName));
      break;
    case "numeric": {
      const width = Math.max(5, String(Math.max(entries.length - 1, 0)).length);
      texts = entries.map((_, i) => numericText(i, width));
      break;
    }
    case "hierarchical": {
      const { vectors, dims } = toolVectors(entries);
      // A one-tool catalog has an empty path; give it a digit so that it has something to generate.
      texts = entries.length === 1 ? ["0"] : hierarchicalPaths(vectors, dims, seed);
      break;
    }
  }
  return { kind, texts: Object.fromEntries(entries.map((e, i) => [e.id, texts[i]!])) };
}
