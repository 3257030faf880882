/**
 * Why the factored caller's values are wrong, against BFCL's possible answers (dev; parallel categories). Each
 * expected call of a failed item is matched to an unused call made of the same function (the one with the most
 * right parameters); each parameter it gets wrong falls in one class, first that fits:
 *  - "uncalled": no call of that function is left to match (call counts: scripts/caller-call-counts.ts);
 *  - "omitted": a value the answer wants is left out; "filled": a value given where the answer wants none;
 *  - "nested": an object parameter (read whole, not classified further);
 *  - "convert": the answer is no candidate, but its text is in the question in another form (a number as text,
 *    other case, a list whose items are all in the question): a type or format conversion;
 *  - "absent": the answer is no candidate at all (arithmetic, knowledge, rewording);
 *  - "shared": a candidate said once in the question that the answer gives to several calls ("both", "the same");
 *  - "boundary": a candidate whose span overlaps the chosen one (a sub- or super-span);
 *  - "swapped": two parameters of one call hold each other's answers;
 *  - "held-expected": the value chosen is one the answer gives another call (a value put in the wrong call);
 *  - "held-made": the value chosen is one another call made holds too, no expected one;
 *  - "outranked": outranked by another span no other call holds.
 * Also per class the items whose every wrong value is of that class (with every function called as often as the
 * answer), i.e. what fixing that class alone could win, the items whose every wrong value is among the candidates
 * ("reachableByRanking": what any ranking or assignment of the candidates could win, counts right), the scorer's rank of the answer among all the question's
 * candidates, and how many wrong values the scorer itself ranks below the answer ("scorerPrefersGold": the value
 * was lost to decoding's segments and claims, not to the scorer's ranking) and how many answers lie wholly outside
 * the function's segment ("answerOutsideSegment", several functions called).
 *
 * Usage: npx tsx scripts/caller-wrong-values.ts --model DIR [--bfcl DIR] [--categories parallel_multiple,parallel]
 *        [--log FILE (one line per wrong value, with the item id)]
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readBfclAnswers, readBfclCategory } from "../src/catalog/import/bfcl.ts";
import { checkBfclItem, checkCall } from "../src/eval/bfcl-checker.ts";
import type { BfclCall } from "../src/eval/bfcl-types.ts";
import { ANALYSIS_OPTIONS, loadCallerForAnalysis } from "./caller-analysis-model.ts";
import {
  chooseFunctions,
  scoreFunctions,
  spanOwners,
  DOC_MENTIONS,
  type ScoredFunction,
} from "../src/models/factored/decide.ts";
import { sentenceOwners, sentenceRanges } from "../src/models/factored/sentence-owners.ts";
import { nameWords, stemOf } from "../src/models/factored/text.ts";
import { flattenTool } from "../src/models/factored/nested.ts";
import type { Candidate } from "../src/models/factored/candidates.ts";

const { values: args } = parseArgs({
  options: {
    ...ANALYSIS_OPTIONS,
    log: { type: "string" },
  },
});

const { model, stats, joiners, w } = loadCallerForAnalysis(args.model!);
const log: string[] = [];

type Doc = Parameters<typeof checkCall>[0];
type Expected = Parameters<typeof checkCall>[2];
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/** Whether `value` passes the checker for one parameter alone. */
function valueOk(doc: Doc, param: string, value: unknown, allowed: unknown): boolean {
  const props = ((doc.parameters ?? {}) as { properties?: Record<string, unknown> }).properties ?? {};
  const one = {
    ...doc,
    parameters: { type: "dict", properties: { [param]: props[param] }, required: [] },
  } as Doc;
  return checkCall(
    one,
    { name: doc.name, arguments: { [param]: value } },
    { [doc.name]: { [param]: allowed } } as Expected,
    "python",
  ).valid;
}

const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}.]+/gu, " ")
    .trim();

/** The answer's texts (each allowed value, list items apart) that the question writes somewhere, any case. */
function written(question: string, allowed: unknown[]): boolean {
  const q = ` ${norm(question)} `;
  return allowed.some((a) => {
    if (a === "" || a === null) return false;
    const parts = Array.isArray(a) ? a : [a];
    return (
      parts.length > 0 &&
      parts.every(
        (p) => typeof p !== "object" && norm(String(p)) !== "" && q.includes(` ${norm(String(p))} `),
      )
    );
  });
}

/** The classes where the answer is among the candidates, so a better ranking or assignment alone could give it. */
const RANKABLE = new Set(["swapped", "shared", "boundary", "held-expected", "held-made", "outranked"]);

/**
 * Which chosen function owns each token, as decoding's segments cut the question (spanOwners, then a sentence that
 * mentions one function alone; decide.ts, default options, repeated mentions left out): undefined with one function.
 */
function segments(scored: readonly ScoredFunction[]): { names: string[]; owner: number[] } | undefined {
  const chosen = chooseFunctions(scored, w);
  if (chosen.length < 2) return undefined;
  let owner = spanOwners(chosen, DOC_MENTIONS, {
    clauses: true,
    clusters: true,
    openers: true,
    written: true,
  });
  if (owner[0] !== -1) {
    const names = chosen.map((c) => new Set(nameWords(c.view.tool.function.name).map(stemOf)));
    const own = names.map(
      (n, i) => new Set([...n].filter((x) => names.every((m, j) => j === i || !m.has(x)))),
    );
    owner = sentenceOwners(
      chosen[0]!.view.view.tokens,
      sentenceRanges(chosen[0]!.view.view.tokens),
      own,
      owner,
    );
  }
  return { names: chosen.map((c) => c.view.tool.function.name), owner };
}

const rangeOf = (c: Candidate): [number, number][] =>
  c.items ? c.items : c.start >= 0 ? [[c.start, c.end]] : [];
const overlaps = (a: Candidate, b: Candidate): boolean =>
  rangeOf(a).some(([s, e]) => rangeOf(b).some(([t, f]) => s < f && t < e));

function classify(
  question: string,
  fn: ScoredFunction | undefined,
  doc: Doc,
  param: string,
  made: unknown,
  allowed: unknown[],
  others: { made: unknown[]; expected: unknown[][]; swapped: (made: unknown) => boolean },
  seg: ReturnType<typeof segments>,
): { kind: string; rank?: number; gap?: number; inSegment?: boolean } {
  const p = fn?.params.find((x) => x.info.name === param);
  if (!p) return { kind: "nested" };
  const cands = p.info.candidates;
  const gold = cands.map((c, i) => i).filter((i) => valueOk(doc, param, cands[i]!.value, allowed));
  if (gold.length === 0) return { kind: written(question, allowed) ? "convert" : "absent" };
  const best = gold.reduce((a, b) => (p.probs[b]! > p.probs[a]! ? b : a));
  const rank = p.probs.filter((x) => x > p.probs[best]!).length;
  const chosenIndex = cands.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(made));
  const gap = chosenIndex >= 0 ? Math.log(p.probs[chosenIndex]! / p.probs[best]!) : undefined;
  // whether some candidate giving the answer lies wholly in this function's segment
  const at = seg?.names.indexOf(doc.name) ?? -1;
  const inSegment =
    at < 0
      ? undefined
      : gold.some((g) =>
          rangeOf(cands[g]!).every(([a, b]) => seg!.owner.slice(a, b).every((o) => o === at || o === -1)),
        );
  // the answer's value is another expected call's too and the question says it once
  const sharedByAnswer = others.expected.some((o) =>
    o.some((v) => v !== "" && allowed.some((a) => JSON.stringify(a) === JSON.stringify(v))),
  );
  const text = String(cands[best]!.value);
  const times = cands[best]!.start >= 0 ? norm(question).split(norm(text)).length - 1 : 2;
  if (sharedByAnswer && times === 1) return { kind: "shared", rank, gap, inSegment };
  if (chosenIndex >= 0 && gold.some((g) => overlaps(cands[g]!, cands[chosenIndex]!)))
    return { kind: "boundary", rank, gap, inSegment };
  if (others.swapped(made)) return { kind: "swapped", rank, gap, inSegment };
  const same = (v: unknown) => JSON.stringify(v) === JSON.stringify(made);
  if (others.expected.some((o) => o.some(same))) return { kind: "held-expected", rank, gap, inSegment };
  return { kind: others.made.some(same) ? "held-made" : "outranked", rank, gap, inSegment };
}

for (const category of args.categories!.split(",")) {
  const answers = readBfclAnswers(args.bfcl!, category);
  const kinds: Record<string, number> = {};
  const onlyKind: Record<string, number> = {};
  const ranks: Record<string, number> = {};
  const scorerPrefersGold: Record<string, number> = {};
  const answerOutsideSegment: Record<string, number> = {};
  let failed = 0;
  let reachable = 0;
  for (const item of readBfclCategory(args.bfcl!, category)) {
    const question = item.question[0]!.map((m) => m.content).join("\n");
    const gold = answers.get(item.id)!;
    const calls: BfclCall[] = model.calls(item.tools, question);
    if (checkBfclItem(category, item.docs, calls, gold).valid) continue;
    failed++;
    const scored = scoreFunctions(item.tools.map(flattenTool), question, w, stats, joiners);
    const seg = segments(scored);
    const used = new Set<number>();
    const itemKinds = new Set<string>();
    const countsRight =
      JSON.stringify(gold.map((c) => Object.keys(c)[0]).sort()) ===
      JSON.stringify(calls.map((c) => c.name).sort());
    for (const [gi, want] of gold.entries()) {
      const name = Object.keys(want)[0]!;
      const allowedBy = want[name] as Record<string, unknown>;
      const doc = item.docs.find((d) => d.name === name)!;
      const right = (c: BfclCall) =>
        Object.entries(allowedBy).filter(([k, a]) =>
          k in c.arguments ? valueOk(doc, k, c.arguments[k], a) : asList(a).includes(""),
        ).length;
      const options = calls.map((c, i) => i).filter((i) => !used.has(i) && calls[i]!.name === name);
      if (options.length === 0) {
        itemKinds.add("uncalled");
        kinds.uncalled = (kinds.uncalled ?? 0) + 1;
        log.push(`${category}\t${item.id}\tuncalled\t${name}`);
        continue;
      }
      const k = options.reduce((a, b) => (right(calls[b]!) > right(calls[a]!) ? b : a));
      used.add(k);
      const call = calls[k]!;
      const fn = scored.find((s) => s.view.tool.function.name === name);
      const otherMade = calls.flatMap((c, i) => (i === k ? [] : Object.values(c.arguments)));
      const otherExpected = gold.flatMap((c, i) =>
        i === gi ? [] : Object.values(Object.values(c)[0] as Record<string, unknown>).map(asList),
      );
      // the value made is another parameter's answer in this call, and that parameter holds this one's answer
      const swappedWith = (param: string, allowed: unknown[]) => (made: unknown) =>
        Object.entries(allowedBy).some(
          ([q, a]) =>
            q !== param &&
            q in call.arguments &&
            asList(a).some((x) => JSON.stringify(x) === JSON.stringify(made)) &&
            allowed.some((x) => JSON.stringify(x) === JSON.stringify(call.arguments[q])),
        );
      for (const param of new Set([...Object.keys(allowedBy), ...Object.keys(call.arguments)])) {
        const allowed = param in allowedBy ? asList(allowedBy[param]) : [""];
        const has = param in call.arguments;
        if (has ? valueOk(doc, param, call.arguments[param], allowed) : allowed.includes("")) continue;
        const r = !has
          ? { kind: "omitted" }
          : allowed.every((a) => a === "")
            ? { kind: "filled" }
            : classify(
                question,
                fn,
                doc,
                param,
                call.arguments[param],
                allowed,
                { made: otherMade, expected: otherExpected, swapped: swappedWith(param, allowed) },
                seg,
              );
        kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
        itemKinds.add(r.kind);
        if ("rank" in r && r.rank !== undefined)
          ranks[r.rank < 3 ? String(r.rank + 1) : "4+"] =
            (ranks[r.rank < 3 ? String(r.rank + 1) : "4+"] ?? 0) + 1;
        if ("gap" in r && r.gap !== undefined && r.gap < 0)
          scorerPrefersGold[r.kind] = (scorerPrefersGold[r.kind] ?? 0) + 1;
        if ("inSegment" in r && r.inSegment === false)
          answerOutsideSegment[r.kind] = (answerOutsideSegment[r.kind] ?? 0) + 1;
        const where =
          "inSegment" in r && r.inSegment !== undefined
            ? r.inSegment
              ? "\tin segment"
              : "\toutside segment"
            : "";
        const gap = "gap" in r && r.gap !== undefined ? r.gap.toFixed(2) : "";
        log.push(
          `${category}\t${item.id}\t${r.kind}\t${name}.${param}\tmade ${JSON.stringify(call.arguments[param])}\twant ${JSON.stringify(allowed)}\tgap ${gap}${where}`,
        );
      }
    }
    log.push(
      `${category}\t${item.id}\titem\t${countsRight ? "counts-right" : "counts-wrong"}\t${[...itemKinds].sort().join(",")}`,
    );
    // every wrong value one the scorer ranks among the question's candidates: a ranking or assignment could fix it
    if (countsRight && [...itemKinds].every((k) => RANKABLE.has(k))) reachable++;
    if (countsRight && itemKinds.size === 1) {
      const only = [...itemKinds][0]!;
      onlyKind[only] = (onlyKind[only] ?? 0) + 1;
    }
  }
  console.log(
    JSON.stringify({
      category,
      failed,
      reachableByRanking: reachable,
      wrongValues: kinds,
      itemsOnlyThisClass: onlyKind,
      goldRankAmongCandidates: ranks,
      scorerPrefersGold,
      answerOutsideSegment,
    }),
  );
}
if (args.log) writeFileSync(args.log, log.join("\n") + "\n");
