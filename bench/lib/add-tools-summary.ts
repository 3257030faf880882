/**
 * What bench:retrieval copies of the add-tools experiment's last word (issue 41): rule D's picks on test from
 * bench/add-tools-rebuild.ts and the CPU shares bench/add-tools-retime.ts measured beside a whole retraining.
 */
type Json = Record<string, unknown>;

const ndcg1 = (part: unknown): number | undefined => (part as { "ndcg@1"?: number } | undefined)?.["ndcg@1"];

/** The rebuilt retraining and, per addition declared with rule D, its D offset's test figures and their means. */
export function ruleDSummary(data: Json): Json {
  const checks = (data.checks ?? {}) as Record<string, Json>;
  const full = checks.full ?? {};
  const fullTest = ((full.test ?? {}) as Record<string, Json>)["0"];
  const picks: Record<string, { offset: number; old_test: number; new_test: number }> = {};
  for (const [key, check] of Object.entries(checks)) {
    if (!key.startsWith("add ")) continue;
    const d = ((check.calibration as Json | undefined)?.chosen as Json | undefined)?.D as
      { offset: number } | null | undefined;
    const test = d ? ((check.test ?? {}) as Record<string, Json>)[String(d.offset)] : undefined;
    const old = ndcg1(test?.old_test);
    const fresh = ndcg1(test?.new_test);
    if (d && old !== undefined && fresh !== undefined)
      picks[key.slice(4)] = { offset: d.offset, old_test: old, new_test: fresh };
  }
  // The seeds of one configuration share its name but for the `-seed-N` ending.
  const groups = new Map<string, Array<{ old_test: number; new_test: number }>>();
  for (const [name, p] of Object.entries(picks)) {
    const config = name.replace(/-seed-\d+$/, "");
    groups.set(config, [...(groups.get(config) ?? []), p]);
  }
  const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100;
  return {
    rebuilt_retraining: {
      dev_old: ndcg1((full.dev as Json | undefined)?.old_dev),
      floor_D: full.floor_D,
      test_old: ndcg1(fullTest?.old_test),
      test_new: ndcg1(fullTest?.new_test),
      goal_lines_old_test: full.goal_lines_old_test,
    },
    at_rule_D: picks,
    means_at_rule_D: Object.fromEntries(
      [...groups].map(([config, ps]) => [
        config,
        {
          seeds: ps.length,
          old_test: mean(ps.map((p) => p.old_test)),
          new_test: mean(ps.map((p) => p.new_test)),
        },
      ]),
    ),
  };
}

/** Each timed run with a whole retraining in it: the retraining's CPU and every addition's share of it. */
export function retimeSummary(data: Json): Json {
  const runs = (data.runs ?? []) as Array<{ started: string; threads: string; items: Json[] }>;
  return {
    beside_whole_retraining: runs
      .filter((r) => r.items.some((i) => i.item === "full"))
      .map((r) => ({
        started: r.started,
        threads: r.threads,
        items: r.items.map((i) => ({
          item: i.item,
          cpu_s: (i.timing as Json).cpu_s,
          wall_s: (i.timing as Json).wall_s,
          ...(i.cpu_share_of_measured_full !== undefined
            ? { cpu_share_of_measured_full: i.cpu_share_of_measured_full }
            : {}),
        })),
      })),
  };
}
