/**
 * With several functions called, a later function's segment starts at the opening of the sentence that a word set
 * off by a comma opens ("Second, I'm currently in Boston, MA and craving sushi. Could you find the closest sushi
 * restaurant …"), where that sentence comes after the previous function's mention and before this function's own:
 * such an opening starts a new part of the question, and what it says before the function is named belongs to that
 * function, not to the one before. Reads punctuation and capitals only (sentence-openers.ts), no word of any language.
 */
import { sentenceOpener } from "./sentence-openers.ts";
import type { QToken } from "./text.ts";

/**
 * `starts` (each function's segment start, from clauseStarts) with each later function's start moved back to the
 * last sentence opener between the mention before it (`places`) and its start.
 */
export function openerStarts(tokens: readonly QToken[], places: readonly number[], starts: readonly number[]): number[] {
  const order = places.map((at, i) => ({ at, i })).sort((a, b) => a.at - b.at);
  const out = [...starts];
  for (let j = 1; j < order.length; j++) {
    const prev = order[j - 1]!.at;
    const i = order[j]!.i;
    for (let k = out[i]! - 1; k > prev; k--)
      if (sentenceOpener(tokens, k)) {
        out[i] = k;
        break;
      }
  }
  return out;
}
