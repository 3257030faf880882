import { ToolgenError } from "../errors.ts";

/**
 * Paired comparison of two systems on the same queries: McNemar's test on top-1 correctness. What decides
 * whether "A beats B by 0.7 NDCG@1 points" means anything: only the queries where exactly one of them is right
 * count, and the statistic (|b − c| − 1)² / (b + c) is χ² with one degree of freedom under "no difference".
 */
export interface PairedTop1 {
  /** Queries both get right, only A, only B, neither. */
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
  /** McNemar's χ² with continuity correction, and its two-sided p-value. */
  chi2: number;
  p: number;
}

export function pairedTop1(correctA: readonly boolean[], correctB: readonly boolean[]): PairedTop1 {
  if (correctA.length !== correctB.length)
    throw new ToolgenError(
      "invalid_option",
      `pairedTop1: ${correctA.length} outcomes for A but ${correctB.length} for B`,
    );
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  correctA.forEach((a, i) => {
    const b = correctB[i];
    if (a && b) both++;
    else if (a) onlyA++;
    else if (b) onlyB++;
    else neither++;
  });
  const discordant = onlyA + onlyB;
  const chi2 = discordant === 0 ? 0 : Math.max(0, Math.abs(onlyA - onlyB) - 1) ** 2 / discordant;
  return { both, onlyA, onlyB, neither, chi2, p: chi2 === 0 ? 1 : Math.min(1, erfc(Math.sqrt(chi2 / 2))) };
}

/** The complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/**
 * Holm's step-down correction for m tests at once (Holm 1979): sort the p-values ascending; the i-th smallest
 * (0-based) becomes max over j ≤ i of min(1, (m − j) · p_(j)). Controls the family-wise error rate without
 * assuming independence, and is never more conservative than Bonferroni. Returns the adjusted p-values in the
 * input's order.
 */
export function holm(pValues: readonly number[]): number[] {
  for (const p of pValues)
    if (!(p >= 0 && p <= 1))
      throw new ToolgenError("invalid_option", `holm: p-values must be in [0, 1], got ${p}`);
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
