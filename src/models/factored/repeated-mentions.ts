/**
 * Repeated mentions: with several functions called, decide.ts cuts the question into one segment per function, each
 * from the function's first mention to the next function's. A question that asks for A, then B, then A again, then B
 * again ("the structure of building B1234 … the statistics for Michael Jordan … another building B5678 … LeBron
 * James") gives A's second request to B's segment, and B's second to nobody. Here each place where a function's own
 * name words stand together as much as they anywhere do, after another function's mention, starts a segment of its
 * own; a segment whose text holds every required value of its function (none another segment's first value) asks
 * for a call, one that does not (an introduction, "you have a triangle and a circle"; a summary, "calculate the area
 * and plot the wave") joins the segment before it. Where some function would keep no segment holding its values, or
 * no function keeps two, the segments stay one per function. Reads only the functions' names and the question's
 * written form; no word list.
 */
import { CLUSTER_WIDTH } from "./segment-shape.ts";
import type { QToken } from "./text.ts";

/** A function's mention: where (token index) and which function (index into the called functions). */
export interface MentionEvent {
  at: number;
  fn: number;
}

/**
 * Each function's mentions in question order: tokens holding one of its own name words (`own`, stems no other
 * called function's name has) with as many of them within CLUSTER_WIDTH as anywhere in the question ("largest city",
 * not the "city" of "capital city"); consecutive mentions of one function are one.
 */
export function mentionEvents(tokens: readonly QToken[], own: readonly ReadonlySet<string>[]): MentionEvent[] {
  const near = (i: number, k: number) =>
    new Set(tokens.slice(Math.max(0, k - CLUSTER_WIDTH), k + CLUSTER_WIDTH + 1).flatMap((u) => (own[i]!.has(u.stem) ? [u.stem] : []))).size;
  const most = own.map((o, i) => Math.max(0, ...tokens.map((t, k) => (o.has(t.stem) ? near(i, k) : 0))));
  const events: MentionEvent[] = [];
  tokens.forEach((t, k) => {
    const fns = own.flatMap((o, i) => (o.has(t.stem) && near(i, k) === most[i] ? [i] : []));
    if (fns.length !== 1 || events.at(-1)?.fn === fns[0]) return;
    events.push({ at: k, fn: fns[0]! });
  });
  return events;
}

/** The segment of each of `length` tokens, segment j starting at starts[j] (tokens before all starts: the first's). */
export function segmentOwners(length: number, starts: readonly number[]): number[] {
  const order = starts.map((at, j) => ({ at, j })).sort((a, b) => a.at - b.at);
  return Array.from({ length }, (_, k) => {
    let seg = order[0]!.j;
    for (const x of order) if (x.at <= k) seg = x.j;
    return seg;
  });
}

/**
 * The mentions to read calls from, with whether each segment holds its function's values (`holds`, asked of the
 * segments the given mentions cut); undefined where the segments stay one per function: some function of
 * `functions` unmentioned, none mentioned twice apart, or, once the mentions that hold nothing join the segment
 * before them, some function without a segment that holds its values or none with two.
 */
export function repeatedSegments(
  events: readonly MentionEvent[],
  functions: number,
  holds: (events: readonly MentionEvent[]) => boolean[],
): { events: MentionEvent[]; holds: boolean[] } | undefined {
  const every = (evs: readonly MentionEvent[]) => Array.from({ length: functions }, (_, i) => evs.some((e) => e.fn === i)).every(Boolean);
  if (!every(events) || events.length <= functions) return undefined;
  let kept = [...events];
  let held = holds(kept);
  if (held.includes(false)) {
    kept = kept.filter((_, j) => held[j]);
    if (kept.length === 0) return undefined;
    held = holds(kept);
  }
  const holding = kept.filter((_, j) => held[j]);
  return every(holding) && holding.length > functions ? { events: kept, holds: held } : undefined;
}
