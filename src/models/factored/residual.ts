/**
 * A small non-linear part added to the argument scorer's linear pair score: score = w·x + v·relu(U x + b). The linear
 * weights give one weight per feature for every question; a few hidden units let a feature count differently where
 * others are on (a mark after the span is good evidence at a clause's end, bad after "finally,"). Learnt after the
 * linear scorer, its weights frozen (src/train/residual-train.ts); a model file without it scores as before.
 */
export interface Residual {
  hidden: number;
  /** Input width (the pair features it reads, PAIR_DIM when learnt). */
  dim: number;
  /** hidden × dim, row by row. */
  u: number[];
  b: number[];
  v: number[];
}

/** v·relu(U x + b); features past `dim` (added after the residual was learnt) are not read. */
export function residualScore(r: Residual, x: ArrayLike<number>): number {
  let s = 0;
  const n = Math.min(r.dim, x.length);
  for (let j = 0; j < r.hidden; j++) {
    let a = r.b[j]!;
    const row = j * r.dim;
    for (let d = 0; d < n; d++) {
      const xd = x[d]!;
      if (xd !== 0) a += r.u[row + d]! * xd;
    }
    if (a > 0) s += r.v[j]! * a;
  }
  return s;
}
