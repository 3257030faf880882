import { SynthRng } from "./rng.ts";
import type { SynthItem } from "./types.ts";

/**
 * Items split into training and held-out ones by a seeded draw (`share` of them held out). Questions are
 * unique across all items (synthesize drops repeats, compared lower-cased without punctuation), so no held-out
 * question is a training one.
 */
export function splitHeldOut(
  items: readonly SynthItem[],
  share: number,
  seed: number,
): { train: SynthItem[]; heldOut: SynthItem[] } {
  const rng = new SynthRng(seed ^ 0x5f3759df);
  const train: SynthItem[] = [];
  const heldOut: SynthItem[] = [];
  for (const item of items) (rng.chance(share) ? heldOut : train).push(item);
  return { train, heldOut };
}
