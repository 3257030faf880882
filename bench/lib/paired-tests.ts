/**
 * The paired tests bench/retrieval.ts and bench/ranker-generated-test.ts report on a tool-disjoint test split:
 * each system against each baseline by a randomisation test on NDCG@5 and against the last baseline (BM25 tuned on
 * dev) by McNemar on top-1, collected over every set so that Holm's correction covers the whole family.
 */
import { holm, pairedTop1 } from "../../src/eval/paired.ts";
import { pairedRandomization } from "../../src/eval/paired-randomization.ts";
import { SPLIT_SEED } from "./tool-disjoint.ts";

/** One system's per-query NDCG on one set: ndcg[k index][query], k = 1, 3, 5. */
export interface SystemScores {
  name: string;
  ndcg: number[][];
}

const pct = (x: number): number => Math.round(x * 10000) / 100;

/** The tests of one family, in the order they were added; `correct()` adds p_holm to each. */
export class PairedTests {
  readonly tests: Record<string, unknown>[] = [];

  /** Randomisation test on NDCG@5 (20,000 rounds, the split's seed). */
  randomisation(set: string, system: SystemScores, baseline: SystemScores): void {
    const r = pairedRandomization(system.ndcg[2]!, baseline.ndcg[2]!, { seed: SPLIT_SEED, rounds: 20_000 });
    this.tests.push({
      set,
      test: "randomisation, NDCG@5",
      system: system.name,
      baseline: baseline.name,
      difference_points: pct(r.difference),
      p: r.p,
    });
  }

  /** McNemar's test on top-1 hits (NDCG@1 = 1). */
  mcnemar(set: string, system: SystemScores, baseline: SystemScores): void {
    const top1 = pairedTop1(
      system.ndcg[0]!.map((x) => x === 1),
      baseline.ndcg[0]!.map((x) => x === 1),
    );
    this.tests.push({
      set,
      test: "McNemar, top-1",
      system: system.name,
      baseline: baseline.name,
      only_system: top1.onlyA,
      only_baseline: top1.onlyB,
      p: top1.p,
    });
  }

  /** Each system against every baseline (randomisation), then against the last baseline (McNemar). */
  againstBaselines(set: string, systems: readonly SystemScores[], baselines: readonly SystemScores[]): void {
    for (const system of systems) {
      for (const baseline of baselines) this.randomisation(set, system, baseline);
      this.mcnemar(set, system, baselines[baselines.length - 1]!);
    }
  }

  /** Holm's correction over every test added so far, written into each as p_holm. */
  correct(): void {
    holm(this.tests.map((t) => t.p as number)).forEach((p, i) => (this.tests[i]!.p_holm = p));
  }
}
