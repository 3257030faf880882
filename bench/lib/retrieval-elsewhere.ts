import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { retimeSummary, ruleDSummary } from "./add-tools-summary.ts";

/**
 * What bench:retrieval cannot measure in its own 14 minutes but issue 41 asks its result to report: ToolGen and
 * the hybrid through the CLI (a ToolGen model takes 16+ minutes to train) and the add-tools experiment (about
 * 45). Each is copied here from the result file its own bench wrote, with that file's date and git revision, so
 * that retrieval.json says where each figure comes from and how old it is; a file that is absent is said to be.
 * ToolGen and the hybrid on MetaTool split by tool come from bench/toolgen-disjoint.ts (a model trained on the
 * split's train part: 16+ minutes), once per gate.
 */
export const ELSEWHERE = {
  toolgen_and_hybrid_in_domain: "hybrid-cli-metatool-default.json",
  toolgen_and_hybrid_g2_unseen_tools: "hybrid-cli-g2-reduced.json",
  // The same two runs through the CLI with the gate toolgen train chooses against the ranker since f02bffa.
  toolgen_and_hybrid_in_domain_ranker_gate: "hybrid-cli-metatool-ranker-gate.json",
  toolgen_and_hybrid_g2_unseen_tools_ranker_gate: "hybrid-cli-g2-ranker-gate.json",
  add_tools: "add-tools.json",
  // Rule D's picks on fresh seeds (bench/add-tools-rebuild.ts) and their CPU timed beside a whole retraining.
  add_tools_rule_d: "add-tools-rebuild.json",
  add_tools_cpu: "add-tools-retime.json",
  toolgen_and_hybrid_metatool_tool_disjoint: "toolgen-disjoint-metatool.json",
  // The same model with its gate re-chosen against the shipped ranker (the rule toolgen train follows since f02bffa).
  toolgen_and_hybrid_metatool_tool_disjoint_ranker_gate: "toolgen-disjoint-metatool-ranker-gate.json",
  // The three folders again with the pinned hybrid (385265e: tools without training queries keep the lexical
  // part's ranks), gates refit on each folder's own dev.
  toolgen_and_hybrid_in_domain_safe_gate: "hybrid-cli-metatool-safe-gate.json",
  toolgen_and_hybrid_g2_unseen_tools_safe_gate: "hybrid-cli-g2-safe-gate.json",
  toolgen_and_hybrid_metatool_tool_disjoint_safe_gate: "toolgen-disjoint-metatool-safe-gate.json",
  // The same three with the LambdaRank ranker (2f09876) as the lexical part, gates refit against it.
  toolgen_and_hybrid_in_domain_lambdarank: "hybrid-cli-metatool-lambdarank.json",
  toolgen_and_hybrid_g2_unseen_tools_lambdarank: "hybrid-cli-g2-lambdarank.json",
  toolgen_and_hybrid_metatool_tool_disjoint_lambdarank: "toolgen-disjoint-metatool-lambdarank.json",
} as const;

type Json = Record<string, unknown>;

function summary(file: string, data: Json): Json {
  const head = { file: `bench/results/${file}`, date: data.date, git_revision: data.git_revision };
  if (data.name === "add-tools") {
    const protocol = (data.protocol ?? {}) as Json;
    return {
      ...head,
      epochs: protocol.epochs,
      model: protocol.model,
      selected: data.selected,
      selection_note: data.selection_note,
      goals: data.goals,
    };
  }
  if (data.name === "add-tools-rebuild") return { ...head, ...ruleDSummary(data) };
  if (data.name === "add-tools-retime") return { ...head, ...retimeSummary(data) };
  if (typeof data.name === "string" && data.name.startsWith("toolgen-disjoint-metatool")) {
    const part = (p: unknown) => {
      const { figures, hybrid_lexical_part, hybrid_minus_better_part, paired_tests } = (p ?? {}) as Json;
      return { figures, hybrid_lexical_part, hybrid_minus_better_part, paired_tests };
    };
    return { ...head, train_command: data.train_command, dev: part(data.dev), test: part(data.test) };
  }
  return {
    ...head,
    label: data.label,
    train_command: data.train_command,
    figures: data.figures,
    hybrid_lexical_part: data.hybrid_lexical_part,
    hybrid_minus_better_part: data.hybrid_minus_better_part,
  };
}

/** The summaries of ELSEWHERE's files under `resultsDir` (bench/results). */
export function measuredElsewhere(resultsDir: string): Record<keyof typeof ELSEWHERE, Json> {
  const out = {} as Record<keyof typeof ELSEWHERE, Json>;
  for (const [key, file] of Object.entries(ELSEWHERE) as [keyof typeof ELSEWHERE, string][]) {
    const path = join(resultsDir, file);
    out[key] = existsSync(path)
      ? summary(file, JSON.parse(readFileSync(path, "utf8")) as Json)
      : { file: `bench/results/${file}`, absent: true };
  }
  return out;
}
