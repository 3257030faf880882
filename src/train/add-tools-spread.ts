import { Rng } from "../nn/rng.ts";

/**
 * Spread replay (issue 41): an addition's stage replays `replay` old samples per new one, and with one draw
 * repeated every epoch the old queries left out of it are never seen and are forgotten (hard replay, which
 * narrowed the draw further, lost the most). Spread, each epoch replays other old samples: the stage trains on
 * its new samples repeated once per started epoch and on as many old ones as that many draws, taken through the
 * whole pool before any repeats. The same steps, the same mix of new and old samples; more old queries seen.
 */

/** Seeded Fisher–Yates shuffle of a copy. */
function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * `total` samples of `pool`: `first` (the stage's usual draw, kept so that what reads it — the rows' fit — is
 * unchanged), then the pool's other samples in a seeded order, then seeded passes over the whole pool, until
 * `total` are taken (fewer than `first` never: `total` below its length returns `first`).
 */
export function spreadDraw<T>(pool: readonly T[], first: readonly T[], total: number, seed: number): T[] {
  const out = [...first];
  if (pool.length === 0) return out;
  const rng = new Rng(seed);
  const taken = new Set(first);
  let next = shuffled(
    pool.filter((s) => !taken.has(s)),
    rng,
  );
  while (out.length < total) {
    if (next.length === 0) next = shuffled(pool, rng);
    out.push(...next.slice(0, total - out.length));
    next = [];
  }
  return out;
}

/** The stage's new samples once per started epoch, followed by the spread replay. */
export function spreadSamples<T>(fresh: readonly T[], replayed: readonly T[], epochs: number): T[] {
  const passes = Math.max(1, Math.ceil(epochs - 1e-9));
  return [...Array.from({ length: passes }, () => fresh).flat(), ...replayed];
}

/** How many old samples a spread stage replays: `replay` per new sample, once per started epoch. */
export function spreadTotal(fresh: number, replay: number, epochs: number): number {
  return Math.round(replay * fresh) * Math.max(1, Math.ceil(epochs - 1e-9));
}
