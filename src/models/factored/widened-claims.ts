/**
 * Widened claims: with several functions called, a parameter may look outside its function's segment (a required
 * one left without a value there, or one whose value there is far weaker than one outside: decide.ts widenWeak).
 * A span that another called function takes as a first value in its own segment, later in the question than this
 * function's segment begins, is that function's: the parameter looking outside does not take it ("book a flight
 * from 'Los Angeles' to 'New York' … the stats on the 'PlayStation' platform" gave the flight's destination the
 * platform the game's call takes). One said before the segment still serves: a value several functions share is
 * said once, in the first one's part ("the sales growth for company XYZ and the interest coverage for the same
 * years"). Reads only the segments and the first values the joint assignment gives each function there.
 */
import type { Candidate } from "./candidates.ts";

/** Does `c`'s place overlap a span another function takes first (`reserved`)? */
export function widenedClaim(c: Candidate, reserved: readonly [number, number][] | undefined): boolean {
  if (reserved === undefined || c.start < 0) return false;
  const ranges = c.items ?? [[c.start, c.end]];
  return ranges.some(([a, b]) => reserved.some(([x, y]) => a < y && x < b));
}
