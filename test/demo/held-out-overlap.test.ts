import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { HandwrittenSet } from "../../src/demo/grading.ts";
import { demoData } from "../../src/demo/model.ts";
import { FIXED_OFF_TOPIC } from "../../src/demo/off-topic.ts";
import { SHOWN_QUESTIONS } from "../../src/demo/questions.ts";
import { normaliseQuestion } from "../helpers/normalise-question.ts";

/**
 * Held-out hygiene: no question is shared between any two of the training questions, the dev sets and the test
 * sets, on-topic or off-topic; and no dev question is a near copy of a test question (its wording with other
 * values, or its values). Test sets are never edited: an overlap is removed from the dev side.
 */
interface Item {
  set: string;
  question: string;
  tool?: string;
  arguments?: Record<string, unknown>;
}

const TEST_SETS = ["handwritten.json", "handwritten-2.json", "handwritten-3.json"];
const DEV_SETS = [
  "handwritten-dev-questions.json",
  "handwritten-dev.json",
  "handwritten-dev-off-topic-2.json",
];

function load(name: string): Item[] {
  const set = JSON.parse(
    readFileSync(new URL(`../../src/demo/held-out/${name}`, import.meta.url), "utf8"),
  ) as Partial<HandwrittenSet>;
  return [
    ...(set.questions ?? []).map((q) => ({
      set: name,
      question: q.question,
      tool: q.tool,
      arguments: q.arguments,
    })),
    ...(set.offTopic ?? []).map((question) => ({ set: name, question })),
  ];
}

/** Pairs of items of different sets whose normalised questions are equal. */
function shared(items: readonly Item[]): string[] {
  const first = new Map<string, Item>();
  const out: string[] = [];
  for (const item of items) {
    const key = normaliseQuestion(item.question);
    const seen = first.get(key);
    if (seen && seen.set !== item.set)
      out.push(`${seen.set}: ${seen.question} | ${item.set}: ${item.question}`);
    if (!seen) first.set(key, item);
  }
  return out;
}

const numbers = (q: string) => q.match(/\d+(?:[.,:]\d+)*/g) ?? [];
const words = (q: string) => new Set(normaliseQuestion(q).replace(/\d+/g, "#").split(" "));

/**
 * A near copy, the cheap second check (for on-topic questions, the same tool and one of): the same wording once
 * the numbers and the call's text values are masked, four words or more besides the masks ("if it's # in new york on #, what time
 * is it in london"); the same two or more numbers in the same order ("84 and 126"; "98.6" is one number); the same text value
 * of two words or more, no digits, written in both ("quiet please"). Off-topic questions: 80 % of their words (numbers masked) shared.
 */
export function nearCopy(a: Item, b: Item): string | null {
  if (!a.tool || !b.tool) {
    if (a.tool || b.tool) return null;
    const [x, y] = [words(a.question), words(b.question)];
    const both = [...x].filter((w) => y.has(w)).length;
    return both / (x.size + y.size - both) >= 0.8 ? "off-topic wording" : null;
  }
  if (a.tool !== b.tool) return null;
  const texts = (i: Item) =>
    Object.values(i.arguments ?? {})
      .filter((v): v is string => typeof v === "string")
      .map((v) => ({ v: normaliseQuestion(v), words: v.trim().split(/\s+/).length }))
      .filter(({ v }) => v.length > 0);
  const masked = (i: Item) => {
    let t = ` ${normaliseQuestion(i.question)} `;
    for (const { v } of texts(i)) t = t.split(` ${v} `).join(" # ");
    return t
      .replace(/\d+/g, "#")
      .replace(/#( #)+/g, "#")
      .trim();
  };
  const kept = masked(a)
    .split(" ")
    .filter((w) => w !== "#");
  if (masked(a) === masked(b) && kept.length >= 4) return "same wording";
  const [na, nb] = [numbers(a.question), numbers(b.question)];
  if (na.length >= 2 && na.join(" ") === nb.join(" ")) return "same numbers";
  // a text value both questions write, of two words or more and no digits (not a unit, zone or date)
  const written = (i: Item) =>
    texts(i)
      .filter(
        ({ v, words }) =>
          words >= 2 && !/\d/.test(v) && ` ${normaliseQuestion(i.question)} `.includes(` ${v} `),
      )
      .map(({ v }) => v);
  const theirs = written(b);
  if (written(a).some((v) => theirs.includes(v))) return "same text value";
  return null;
}

/** Near copies between the two lists, as readable lines. */
function nearCopies(as: readonly Item[], bs: readonly Item[]): string[] {
  const out: string[] = [];
  for (const a of as)
    for (const b of bs) {
      const why = nearCopy(a, b);
      if (why) out.push(`${why}: ${a.set}: ${a.question} | ${b.set}: ${b.question}`);
    }
  return out;
}

/**
 * Near copies between test sets, known and kept (test sets are not edited once written); listed so that a new
 * one fails. Sets 1 and 2 were written by the person who wrote the generator's templates.
 */
const KNOWN_TEST_NEAR_COPIES = 24;

/**
 * Test questions the committed demo model (i1) was trained on: two fixed off-topic training questions. Dropping
 * them changes the training data and so the model (issue 38: the rebuild, ~25 min alone on 2 cores, did not fit
 * the session that found them). This list must shrink to [] when models/demo is rebuilt without them.
 */
const KNOWN_TRAINED_TEST_QUESTIONS: string[] = [];

describe("held-out hygiene of the demo's question sets", () => {
  const tests = TEST_SETS.flatMap(load);
  const devs = DEV_SETS.flatMap(load);

  it("shares no question between any two held-out sets (dev and test, on-topic and off-topic)", () => {
    expect(shared([...tests, ...devs])).toEqual([]);
  });

  it("has no dev question that is a near copy of a test question", () => {
    expect(nearCopies(devs, tests)).toEqual([]);
  });

  it("finds no new near copy between the test sets", () => {
    const across = TEST_SETS.flatMap((a, i) =>
      TEST_SETS.slice(i + 1).flatMap((b) => nearCopies(load(a), load(b))),
    );
    expect(across.length).toBe(KNOWN_TEST_NEAR_COPIES);
  });

  it("trains on no held-out question but the two known ones: the generated training set and the fixed off-topic list", async () => {
    const data = await demoData();
    const train = data.train.map((s) => ({ set: "training", question: s.query }));
    const fixed = FIXED_OFF_TOPIC.map((question) => ({ set: "fixed off-topic", question }));
    expect(shared([...tests, ...devs, ...train])).toEqual([]);
    expect(shared([...tests, ...devs, ...fixed])).toEqual(KNOWN_TRAINED_TEST_QUESTIONS);
    // the generated held-out questions (dev: generated) are not trained on either
    const heldOut = data.heldOut.map((s) => ({ set: "generated dev", question: s.query }));
    expect(shared([...train, ...heldOut])).toEqual([]);
  });

  it("shows npm start's questions from set 1 only (its test set), none of them a dev question", () => {
    const shown = SHOWN_QUESTIONS.map((q) => ({ set: "shown", question: q.question }));
    expect(shared([...devs, ...shown])).toEqual([]);
  });
});
