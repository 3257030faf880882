/**
 * Pseudo-labels for the argument scorer from real questions that have no argument answers (issue 38, h38t): the
 * trained callers (the teachers: scorer and decoding rules) decode each question offered exactly the functions that
 * serve it, and where every teacher gives a function's parameter the same value (or leaves it out alike) with a
 * chance of at least `minChance`, that choice becomes the parameter's gold in an argument-scorer group over the
 * whole question, the other called functions' values among its wrong spans. Synth writes values at clause ends, one
 * request at a time; people write several requests in one question, values mid-sentence among the others' words.
 */
import type { FactoredModelFile } from "../models/caller-factored.ts";
import { decide, scoreFunctions, type FactoredWeights, type ScoredParam } from "../models/factored/decide.ts";
import { functionView, questionView, type WordStats } from "../models/factored/features.ts";
import type { SoftmaxGroup } from "../models/factored/linear.ts";
import type { Rng } from "../nn/rng.ts";
import type { ToolJson } from "../tools/types.ts";
import { sameValue } from "./factored-train.ts";
import { candidateRanges, labelledGroup, overlapsAny } from "./labelled-groups.ts";

/** A question people wrote and the functions that serve it (no calls known). */
export interface UnlabelledQuestion {
  id: string;
  question: string;
  tools: ToolJson[];
}

/** One parameter's pseudo-gold: a value, or undefined for "leave it out". */
export interface PseudoLabel {
  name: string;
  param: string;
  value: unknown;
  /** The least chance any teacher gave that choice (see choiceChance). */
  chance: number;
}

export interface PseudoLabelled {
  question: string;
  tools: ToolJson[];
  labels: PseudoLabel[];
}

/** A trained caller as a teacher: its weights and the word rarity and joiners it decodes with. */
export interface Teacher {
  weights: FactoredWeights;
  stats: WordStats;
  joiners: ReadonlySet<string>;
}

export function teacherOf(file: FactoredModelFile): Teacher {
  return {
    weights: file.weights,
    stats: new Map(Object.entries(file.words)),
    joiners: new Set(file.joiners),
  };
}

/**
 * A teacher's chance for its choice of `value` (undefined: left out) for parameter `p`: the scorer's probability of
 * the candidates that write it, against every candidate not over a span another call's values take (decoding spends
 * those) and leaving it out. Over the whole question, as the student's groups read it.
 */
export function choiceChance(p: ScoredParam, value: unknown, spent: readonly [number, number][]): number {
  let mine = value === undefined ? p.pNull : 0;
  let total = p.pNull;
  p.info.candidates.forEach((c, i) => {
    const own = value !== undefined && sameValue(c.value, value);
    if (!own && overlapsAny(c, spent)) return;
    total += p.probs[i]!;
    if (own) mine += p.probs[i]!;
  });
  return total > 0 ? mine / total : 0;
}

/** What one teacher says: per function called exactly once, its arguments and each parameter's chance. */
function teacherReading(
  t: Teacher,
  q: UnlabelledQuestion,
): Map<string, Map<string, { value: unknown; chance: number }>> {
  const names = q.tools.map((x) => x.function.name);
  const calls = decide(q.tools, q.question, t.weights, t.stats, t.joiners, { onlyFunctions: names });
  const scored = scoreFunctions(q.tools, q.question, t.weights, t.stats, t.joiners, {});
  const out = new Map<string, Map<string, { value: unknown; chance: number }>>();
  for (const s of scored) {
    const name = s.view.tool.function.name;
    const own = calls.filter((c) => c.name === name);
    if (own.length !== 1) continue;
    // the spans the other functions' values stand on
    const spent = scored
      .filter((o) => o !== s)
      .flatMap((o) => {
        const args = calls.find((c) => c.name === o.view.tool.function.name)?.arguments ?? {};
        return o.params.flatMap((p) =>
          p.info.candidates
            .filter((c) => args[p.info.name] !== undefined && sameValue(c.value, args[p.info.name]))
            .flatMap(candidateRanges),
        );
      });
    const params = new Map<string, { value: unknown; chance: number }>();
    for (const p of s.params) {
      const value = own[0]!.arguments[p.info.name];
      params.set(p.info.name, { value, chance: choiceChance(p, value, spent) });
    }
    out.set(name, params);
  }
  return out;
}

/** The labels every teacher agrees on, each with a chance of at least `minChance` from all of them. */
export function pseudoLabels(
  questions: readonly UnlabelledQuestion[],
  teachers: readonly Teacher[],
  minChance: number,
): PseudoLabelled[] {
  const out: PseudoLabelled[] = [];
  for (const q of questions) {
    const readings = teachers.map((t) => teacherReading(t, q));
    const labels: PseudoLabel[] = [];
    for (const [name, params] of readings[0] ?? []) {
      for (const [param, first] of params) {
        const all = readings.map((r) => r.get(name)?.get(param));
        const agree = all.every(
          (a) =>
            a !== undefined &&
            (a.value === undefined
              ? first.value === undefined
              : first.value !== undefined && sameValue(a.value, first.value)),
        );
        if (!agree) continue;
        const chance = Math.min(...all.map((a) => a!.chance));
        if (chance >= minChance) labels.push({ name, param, value: first.value, chance });
      }
    }
    if (labels.length > 0) out.push({ question: q.question, tools: q.tools, labels });
  }
  return out;
}

export interface PseudoGroupOptions {
  /** Most wrong candidates kept per parameter beside the other functions' values. */
  negatives: number;
  rng: Rng;
  kin?: boolean;
  /** Pair features zeroed (FactoredTrainOptions.dropPairFeatures). */
  drop?: readonly number[];
  /**
   * The candidates over another labelled function's value: kept as wrong spans (true, the default), or left out of
   * the group (false), as decoding leaves them out (segments, spans spent): the group then contrasts the gold only
   * with what decoding would weigh it against.
   */
  otherValues?: boolean;
}

/**
 * The argument scorer's groups from pseudo-labelled questions, read as its one-call groups are (the whole question,
 * the student's word rarity and joiners): the labelled value's candidates the gold (or leaving it out), every
 * candidate over another labelled function's value kept as a wrong one, and up to `negatives` others.
 */
export function pseudoLabelGroups(
  labelled: readonly PseudoLabelled[],
  stats: WordStats,
  joiners: ReadonlySet<string>,
  o: PseudoGroupOptions,
): SoftmaxGroup[] {
  const groups: SoftmaxGroup[] = [];
  for (const e of labelled) {
    const view = questionView(e.question, joiners, true, true, o.kin ?? false);
    const views = new Map(e.tools.map((t) => [t.function.name, functionView(t, view, stats)]));
    const valueSpans = (name: string): [number, number][] => {
      const f = views.get(name)!;
      return e.labels
        .filter((l) => l.name === name && l.value !== undefined)
        .flatMap(
          (l) =>
            f.params.find((p) => p.name === l.param)?.candidates.filter((c) => sameValue(c.value, l.value)) ??
            [],
        )
        .flatMap(candidateRanges);
    };
    for (const label of e.labels) {
      const f = views.get(label.name);
      const p = f?.params.find((x) => x.name === label.param);
      if (!f || !p) continue;
      const gold =
        label.value === undefined
          ? []
          : p.candidates.flatMap((c, k) => (sameValue(c.value, label.value) ? [k] : []));
      if (label.value !== undefined && gold.length === 0) continue;
      const others = [...views.keys()].filter((n) => n !== label.name).flatMap(valueSpans);
      const rest = p.candidates.map((_, k) => k).filter((k) => !gold.includes(k));
      groups.push(labelledGroup(f, p, gold, rest, others, o));
    }
  }
  return groups;
}
