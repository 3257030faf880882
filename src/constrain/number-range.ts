/**
 * minimum / maximum / exclusiveMinimum / exclusiveMaximum for numbers written digit by digit. A number is a
 * sign, an integer part v (at most MAX_INTEGER_DIGITS digits, no leading zeros) and, for type number, an
 * optional fraction. Integer values ±v are allowed exactly when they lie in the bounds; a fraction is allowed
 * only after an integer part whose every continuation (v.000… to v.999…) lies in the bounds, which is exact
 * for integers and conservative for fractions (a number in [0.2, 0.7] cannot be written; see README). A digit
 * is allowed only while some allowed value can still be reached from it, so decoding never gets stuck.
 * The integer parts that may take a fraction are a subset of those that may stand alone, so the shortest
 * completion is always a whole number.
 */
import { MAX_INTEGER_DIGITS, type NumberBounds } from "./schema-node.ts";

/** Integer interval [lo, hi] (empty when lo > hi). */
type Interval = readonly [number, number];

const TOP = 10 ** MAX_INTEGER_DIGITS - 1;
const POS = 0;
const NEG = 1;

export class NumberRange {
  /** By sign (0: +, 1: −): the integer parts v that may stand alone, and those that may take a fraction. */
  private readonly whole: [Interval, Interval];
  private readonly fraction: [Interval, Interval];
  /** True when no bound is given (the common case: every check passes). */
  readonly free: boolean;

  constructor(
    readonly integer: boolean,
    b: NumberBounds,
  ) {
    const { minimum: min, maximum: max, exclusiveMinimum: exMin, exclusiveMaximum: exMax } = b;
    this.free = min === undefined && max === undefined && exMin === undefined && exMax === undefined;
    // integer values x allowed: [lo, hi]
    const lo = Math.max(
      min !== undefined ? Math.ceil(min) : -Infinity,
      exMin !== undefined ? Math.floor(exMin) + 1 : -Infinity,
    );
    const hi = Math.min(
      max !== undefined ? Math.floor(max) : Infinity,
      exMax !== undefined ? Math.ceil(exMax) - 1 : Infinity,
    );
    const clamp = (a: number, z: number): Interval => [Math.max(0, a), Math.min(TOP, z)];
    this.whole = [clamp(lo, hi), clamp(-hi, -lo)];
    if (integer) this.fraction = [EMPTY, EMPTY];
    else {
      // +v.f lies in [v, v+1); −v.f in (−(v+1), −v]
      const posHi = Math.min(
        max !== undefined ? Math.floor(max) - 1 : Infinity,
        exMax !== undefined ? Math.floor(exMax) - 1 : Infinity,
      );
      const negLo = Math.max(
        max !== undefined ? Math.ceil(-max) : -Infinity,
        exMax !== undefined ? Math.floor(-exMax) + 1 : -Infinity,
      );
      const negHi = Math.min(
        min !== undefined ? Math.floor(-min) - 1 : Infinity,
        exMin !== undefined ? Math.floor(-exMin) - 1 : Infinity,
      );
      this.fraction = [clamp(lo, posHi), clamp(negLo, negHi)];
    }
  }

  /** Can a number with this sign be written at all? */
  signAllowed(negative: boolean): boolean {
    return this.reaches(negative, 0, 0);
  }

  /**
   * Can an allowed value still be reached from integer-part digits `p` (k of them; k = 0: none yet)? With
   * k = 1 and p = 0 the part is "0" and cannot grow.
   */
  reaches(negative: boolean, p: number, k: number): boolean {
    const s = negative ? NEG : POS;
    return overlaps(p, k, this.whole[s]!) || (!this.integer && overlaps(p, k, this.fraction[s]!));
  }

  /** May the integer part v end the number? */
  wholeAllowed(negative: boolean, v: number): boolean {
    return inside(v, this.whole[negative ? NEG : POS]!);
  }

  /** May a fraction follow the integer part v? */
  fractionAllowed(negative: boolean, v: number): boolean {
    return !this.integer && inside(v, this.fraction[negative ? NEG : POS]!);
  }

  /** Fewest more bytes to a complete number from integer part `p` (k digits, k ≥ 1). */
  bytesToFinish(negative: boolean, p: number, k: number): number {
    const s = negative ? NEG : POS;
    if (inside(p, this.whole[s]!)) return 0;
    for (let j = 1; k + j <= MAX_INTEGER_DIGITS; j++) {
      const scale = 10 ** j;
      if (meets(p * scale, (p + 1) * scale - 1, this.whole[s]!)) return j;
    }
    return Infinity;
  }

  /** Fewest digits of an allowed number with this sign (Infinity when there is none). */
  digitsNeeded(negative: boolean): number {
    const range = this.whole[negative ? NEG : POS]!;
    for (let d = 1; d <= MAX_INTEGER_DIGITS; d++) {
      if (meets(d === 1 ? 0 : 10 ** (d - 1), 10 ** d - 1, range)) return d;
    }
    return Infinity;
  }

  /** Fewest bytes of an allowed number, sign included (fractions are never shorter: see the constructor). */
  shortest(): number {
    return Math.min(this.digitsNeeded(false), 1 + this.digitsNeeded(true));
  }
}

const EMPTY: Interval = [1, 0];

function inside(v: number, [lo, hi]: Interval): boolean {
  return v >= lo && v <= hi;
}

function meets(a: number, b: number, [lo, hi]: Interval): boolean {
  return a <= hi && b >= lo && lo <= hi;
}

/** Do the integer parts reachable from digits `p` (k of them) meet the interval? */
function overlaps(p: number, k: number, range: Interval): boolean {
  if (range[0] > range[1]) return false;
  if (k === 0) return meets(0, TOP, range);
  if (p === 0) return inside(0, range);
  for (let j = 0; k + j <= MAX_INTEGER_DIGITS; j++) {
    const scale = 10 ** j;
    const a = p * scale;
    if (a > range[1]) return false;
    if ((p + 1) * scale - 1 >= range[0]) return true;
  }
  return false;
}

/** True when no real number meets the bounds. */
export function boundsEmpty(b: NumberBounds): boolean {
  const lower = Math.max(b.minimum ?? -Infinity, b.exclusiveMinimum ?? -Infinity);
  const upper = Math.min(b.maximum ?? Infinity, b.exclusiveMaximum ?? Infinity);
  const lowerOpen = b.exclusiveMinimum !== undefined && b.exclusiveMinimum >= (b.minimum ?? -Infinity);
  const upperOpen = b.exclusiveMaximum !== undefined && b.exclusiveMaximum <= (b.maximum ?? Infinity);
  return lower > upper || (lower === upper && (lowerOpen || upperOpen));
}
