import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HandwrittenSet } from "../../src/demo/grading.ts";
import { writtenSplit } from "../../src/train/written-questions.ts";
import { sharedData } from "../helpers/shared-data.ts";
import { normaliseQuestion } from "../helpers/normalise-question.ts";

/**
 * Held-out hygiene of the written questions (data/written-questions, the caller's natural training questions): no
 * training question (normalised) is a BFCL dev question, a held-out written question or a demo held-out question.
 * The files are read as raw lines, so the check needs no catalog.
 */
const WRITTEN = "data/written-questions";

interface Written {
  file: string;
  id: string;
  question: string;
}

function written(): Written[] {
  return readdirSync(WRITTEN)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((file) =>
      readFileSync(join(WRITTEN, file), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => ({ file, ...(JSON.parse(l) as { id: string; question: string }) })),
    );
}

/** The training questions whose normalised text is among `others`, as readable lines. */
function clashes(train: readonly Written[], others: readonly { set: string; question: string }[]): string[] {
  const keys = new Map(others.map((o) => [normaliseQuestion(o.question), o.set]));
  return train.flatMap((t) => {
    const set = keys.get(normaliseQuestion(t.question));
    return set === undefined ? [] : [`${t.file} ${t.id} (training) = ${set}: ${t.question}`];
  });
}

function demoHeldOut(): { set: string; question: string }[] {
  const dir = "src/demo/held-out";
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .flatMap((name) => {
      const set = JSON.parse(readFileSync(join(dir, name), "utf8")) as Partial<HandwrittenSet>;
      return [...(set.questions ?? []).map((q) => q.question), ...(set.offTopic ?? [])].map((question) => ({
        set: name,
        question,
      }));
    });
}

/** BFCL's user turns, every category of the dev set. */
function bfclQuestions(dir: string): { set: string; question: string }[] {
  return readdirSync(dir)
    .filter((f) => /^BFCL_v\d+_.+\.json$/.test(f))
    .flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .flatMap((l) => {
          const item = JSON.parse(l) as { question: { role: string; content: string }[][] };
          return item.question
            .flat()
            .filter((m) => m.role === "user")
            .map((m) => ({ set: `BFCL ${f}`, question: m.content }));
        }),
    );
}

describe("held-out hygiene of the written questions", () => {
  const all = written();
  const train = all.filter((q) => writtenSplit(q.id) === "train");
  const heldOut = all.filter((q) => writtenSplit(q.id) === "held-out");

  it("has questions in both parts of the split", () => {
    expect(train.length).toBeGreaterThan(0);
    expect(heldOut.length).toBeGreaterThan(0);
  });

  it("trains on no held-out written question and no demo held-out question", () => {
    expect(
      clashes(
        train,
        heldOut.map((q) => ({ set: `${q.file} ${q.id} (held out)`, question: q.question })),
      ),
    ).toEqual([]);
    expect(clashes(train, demoHeldOut())).toEqual([]);
  });

  const bfcl = sharedData("bfcl");
  it.skipIf(!bfcl)("trains on no BFCL dev question", () => {
    expect(clashes(train, bfclQuestions(bfcl!))).toEqual([]);
  });
});
