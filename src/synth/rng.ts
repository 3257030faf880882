/**
 * A seeded random number generator (mulberry32), so that the same catalog and seed give the same questions.
 * The engine has its own (`nn/rng.ts`); synth sits beside the engine, not above it, so it keeps this one.
 */
export class SynthRng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)]!;
  }
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(values: readonly T[]): T[] {
    const out = [...values];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}
