/**
 * Segment fill: once some parameter holds as many values as there are calls (the anchor), the question is read
 * as one segment per call, cut at the last comma, joiner word or sentence mark between two of the anchor's values
 * ("a house of 3000 sq ft in New York | and 4000 sq ft in Los Angeles"). A parameter with fewer values then takes,
 * for each segment that holds none of its values, its likeliest candidate written there as its first value is
 * written (same family, quoted and capitalised alike); a segment with no such candidate repeats the value of the
 * segment before it (a value said once serves every call after it: "$1000 at 5% for 1, 5 and 10 years").
 * Schema- and language-neutral: separators are punctuation and the joiner words learnt from training questions.
 */
import type { Candidate } from "./candidates.ts";
import type { FunctionView } from "./features.ts";

export interface SegmentPick {
  param: { probs: number[]; info: { candidates: Candidate[] } };
  values: Candidate[];
}

export interface SegmentFillContext {
  f: FunctionView;
  /** Where a value is written (token ranges; an enum member's written name). */
  places: (c: Candidate) => [number, number][];
  /** May this candidate still be taken (no overlap with values taken, allowed in the function's segment)? */
  free: (c: Candidate) => boolean;
  /** Spend a new value's places. */
  take: (c: Candidate) => void;
  /** Are two values written alike (quoted alike, capitalised alike)? */
  alike: (c: Candidate, c0: Candidate) => boolean;
  /** A new value needs at least this share of the parameter's first value's chance. */
  minRatio: number;
}

const SENTENCE_MARKS = new Set([".", ";", "?", "!", ","]);

/** Token indexes where the segments after the first begin, or undefined when the anchor's values have no places. */
export function segmentStarts(f: FunctionView, anchor: readonly Candidate[], places: SegmentFillContext["places"]): number[] | undefined {
  const at = anchor.map((v) => places(v)[0]);
  if (at.some((r) => r === undefined)) return undefined;
  const ranges = (at as [number, number][]).slice().sort((a, b) => a[0] - b[0]);
  const starts: number[] = [];
  for (let i = 0; i + 1 < ranges.length; i++) {
    const [from, to] = [ranges[i]![1], ranges[i + 1]![0]];
    let cut = to;
    for (let k = to - 1; k >= from; k--) {
      const t = f.view.tokens[k]!;
      if (SENTENCE_MARKS.has(t.text) || f.view.joiners.has(t.lower)) {
        cut = k;
        break;
      }
    }
    starts.push(cut);
  }
  return starts;
}

/** Which segment a range lies in whole (-1: across a cut). */
function segmentOf(starts: readonly number[], r: [number, number]): number {
  const seg = (k: number) => starts.filter((s) => s <= k).length;
  const a = seg(r[0]);
  return a === seg(r[1] - 1) ? a : -1;
}

/** Gives each parameter with fewer than `n` values one value per segment (see the file's comment); in place. */
export function segmentFill(picks: SegmentPick[], n: number, ctx: SegmentFillContext): void {
  const anchor = picks.find((pk) => pk.values.length === n && pk.values.every((v) => ctx.places(v).length > 0));
  if (!anchor || n < 2) return;
  const starts = segmentStarts(ctx.f, anchor.values, ctx.places);
  if (!starts) return;
  const chance = (pk: SegmentPick, c: Candidate) => pk.param.probs[pk.param.info.candidates.indexOf(c)] ?? 0;
  for (const pk of picks) {
    if (pk === anchor || pk.values.length >= n) continue;
    const c0 = pk.values.reduce((a, b) => (chance(pk, b) > chance(pk, a) ? b : a));
    if (ctx.places(c0).length === 0) continue;
    const p0 = chance(pk, c0);
    const bySegment: (Candidate | undefined)[] = Array.from({ length: n }, () => undefined);
    for (const v of pk.values) {
      const s = segmentOf(starts, ctx.places(v)[0]!);
      if (s >= 0 && (bySegment[s] === undefined || chance(pk, v) > chance(pk, bySegment[s]!))) bySegment[s] = v;
    }
    const ranked = pk.param.info.candidates
      .map((c, i) => ({ c, pr: pk.param.probs[i]! }))
      .filter((r) => r.pr >= ctx.minRatio * p0 && !pk.values.includes(r.c) && r.c.family === c0.family && ctx.alike(r.c, c0))
      .sort((a, b) => b.pr - a.pr);
    const added: Candidate[] = [];
    for (let s = 0; s < n; s++) {
      if (bySegment[s] !== undefined) continue;
      const found = ranked.find((r) => {
        const at = ctx.places(r.c);
        return at.length > 0 && segmentOf(starts, at[0]!) === s && ctx.free(r.c) && !added.some((a) => overlapsAny(ctx.places(a), at));
      });
      if (found) {
        bySegment[s] = found.c;
        added.push(found.c);
      }
    }
    if (added.length === 0 || bySegment.every((v) => v === undefined)) continue;
    // a segment without a value of its own repeats the one before it (or, before any, the first after it)
    const firstDefined = bySegment.find((v) => v !== undefined)!;
    let last = firstDefined;
    pk.values = bySegment.map((v) => (last = v ?? last));
    for (const c of added) ctx.take(c);
  }
}

const overlapsAny = (a: readonly [number, number][], b: readonly [number, number][]) =>
  a.some((x) => b.some((y) => x[0] < y[1] && y[0] < x[1]));
