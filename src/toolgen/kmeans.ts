import { Rng } from "../nn/rng.ts";

/** A sparse vector: parallel arrays of dimension indices and values. */
export interface SparseVector {
  indices: Uint32Array;
  values: Float32Array;
}

function dot(v: SparseVector, centroid: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.indices.length; i++) s += v.values[i]! * centroid[v.indices[i]!]!;
  return s;
}

function normalize(c: Float64Array): void {
  let n = 0;
  for (let i = 0; i < c.length; i++) n += c[i]! * c[i]!;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < c.length; i++) c[i]! /= n;
}

/**
 * Spherical k-means (cosine similarity) over L2-normalised sparse vectors, seeded k-means++ initialisation.
 * Returns the cluster of each point, clusters numbered 0..m-1 by first appearance with empty ones dropped.
 */
export function sphericalKMeans(
  points: readonly SparseVector[],
  dims: number,
  k: number,
  seed: number,
  iterations = 20,
): number[] {
  const n = points.length;
  const rng = new Rng(seed);
  const centroids: Float64Array[] = [];
  const toCentroid = (p: SparseVector): Float64Array => {
    const c = new Float64Array(dims);
    for (let i = 0; i < p.indices.length; i++) c[p.indices[i]!] = p.values[i]!;
    return c;
  };
  // k-means++: each next seed drawn with probability ∝ distance² to the nearest chosen seed (1 − cos ≥ 0).
  centroids.push(toCentroid(points[rng.int(n)]!));
  const nearest = points.map((p) => 1 - dot(p, centroids[0]!));
  while (centroids.length < Math.min(k, n)) {
    const total = nearest.reduce((a, d) => a + Math.max(d, 0) ** 2, 0);
    if (total <= 1e-12) break; // every point coincides with a seed
    let r = rng.next() * total;
    let pick = 0;
    for (; pick < n - 1; pick++) {
      r -= Math.max(nearest[pick]!, 0) ** 2;
      if (r <= 0) break;
    }
    const c = toCentroid(points[pick]!);
    centroids.push(c);
    points.forEach((p, i) => (nearest[i] = Math.min(nearest[i]!, 1 - dot(p, c))));
  }
  let assign = new Array<number>(n).fill(-1);
  for (let it = 0; it < iterations; it++) {
    const next = points.map((p) => {
      let best = 0;
      let bestSim = -Infinity;
      centroids.forEach((c, j) => {
        const sim = dot(p, c);
        if (sim > bestSim + 1e-12) [best, bestSim] = [j, sim];
      });
      return best;
    });
    const changed = next.some((a, i) => a !== assign[i]);
    assign = next;
    if (!changed) break;
    centroids.forEach((c, j) => {
      c.fill(0);
      points.forEach((p, i) => {
        if (assign[i] !== j) return;
        for (let t = 0; t < p.indices.length; t++) c[p.indices[t]!]! += p.values[t]!;
      });
      normalize(c);
    });
  }
  const renumber = new Map<number, number>();
  return assign.map((a) => {
    if (!renumber.has(a)) renumber.set(a, renumber.size);
    return renumber.get(a)!;
  });
}
