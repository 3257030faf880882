import type { LabelledQuery } from "../catalog/catalog.ts";
import { Rng } from "../nn/rng.ts";
import { executeToolCall } from "../tools/execute.ts";
import type { Tool } from "../tools/types.ts";
import type { Trajectory } from "../train/datasets.ts";
import { normalizeQuestion, offTopicQuestions } from "./off-topic.ts";
import { drawSlots } from "./slots.ts";
import { pickOne } from "./surface.ts";
import { TEMPLATES } from "./templates.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The demo's query generator: every template of every tool, styled as people type (case, politeness, typos)
 * and filled with drawn values written as people write them (numbers as words, unit names, date formats). A
 * question's drawn values are its call's arguments, so each sample is a labelled query (retrieval stage) and,
 * once the tool has really run, a full trajectory (agent stage: thought, action token, JSON arguments, result,
 * <<Finish>>). Off-topic questions get a trajectory that declines: <<Finish>> with give_up_and_restart.
 */
export interface DemoSample {
  query: string;
  /** The tool that answers it, or null for a question no tool answers (the model declines it). */
  tool: string | null;
  arguments: Record<string, unknown>;
}

/** The agent's thoughts in the generated trajectories (short, so a tiny model learns them quickly). */
export const FIRST_THOUGHT = "I will call the tool that answers this.";
export const FINAL_THOUGHT = "The tool answered, so I can give the final answer.";
/** Before declining. (Not "give up" or "sorry": the agent re-asks a thought with those words.) */
export const DECLINE_THOUGHT = "None of these tools can answer this question.";

export interface SampleOptions {
  /** Questions per tool (templates are used in turn). */
  perTool: number;
  seed: number;
  /** Questions never to produce, compared by normalizeQuestion (e.g. the hand-written set, another split). */
  exclude?: ReadonlySet<string>;
}

export function fillTemplate(template: string, slots: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in slots ? String(slots[name]) : whole,
  );
}

const IMPERATIVE_PREFIXES = [
  "please ",
  "can you ",
  "could you ",
  "pls ",
  "hey, ",
  "I need you to ",
  "kindly ",
];
const IMPERATIVE_SUFFIXES = [" please", " for me", " thanks", " pls", ", thank you"];
const QUESTION_PREFIXES = ["hey, ", "quick question: ", "hi! ", "ok so ", "I wonder, "];

/** One typing slip in a word of four or more letters: a letter dropped, doubled or swapped with the next. */
function typo(word: string, rng: Rng): string {
  const i = 1 + rng.int(word.length - 2);
  const kind = rng.int(3);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1);
  if (kind === 1) return word.slice(0, i) + word[i] + word.slice(i);
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

/**
 * The template as someone might type it: sometimes all lower case, polite or curt additions, a missing
 * question mark, one typo in a word (slots are never touched).
 */
export function styleTemplate(template: string, rng: Rng): string {
  let t = template;
  if (rng.next() < 0.3) t = t.replace(/(^|\})([^{]*)/g, (_, b: string, lit: string) => b + lit.toLowerCase());
  if (rng.next() < 0.15) {
    const parts = t.split(/(\{\w+\})/);
    const words = parts.flatMap((p, i) =>
      p.startsWith("{") ? [] : [...p.matchAll(/\p{L}{4,}/gu)].map((m) => ({ part: i, at: m.index, w: m[0] })),
    );
    if (words.length > 0) {
      const { part, at, w } = words[rng.int(words.length)]!;
      const p = parts[part]!;
      parts[part] = p.slice(0, at) + typo(w, rng) + p.slice(at + w.length);
      t = parts.join("");
    }
  }
  const question = t.endsWith("?");
  const lowerFirst = (x: string) =>
    x.startsWith("{") || x.startsWith("I ") ? x : x[0]!.toLowerCase() + x.slice(1);
  if (question) {
    if (rng.next() < 0.2) t = t.slice(0, -1);
    if (rng.next() < 0.1) t = pickOne(rng, QUESTION_PREFIXES) + lowerFirst(t);
  } else {
    if (rng.next() < 0.2) t = pickOne(rng, IMPERATIVE_PREFIXES) + lowerFirst(t);
    else if (rng.next() < 0.15) t += pickOne(rng, IMPERATIVE_SUFFIXES);
  }
  return t;
}

/** One question for `tool`: a styled template filled with drawn values, and the call that answers it. */
export function sampleFor(tool: Tool, templates: readonly string[], index: number, rng: Rng): DemoSample {
  const { arguments: args, text } = drawSlots(tool, rng);
  const template = styleTemplate(templates[(index + rng.int(templates.length)) % templates.length]!, rng);
  if (template.includes("{ago}")) {
    text.ago = text.days!;
    args.days = -args.days!;
  }
  return { query: fillTemplate(template, text), tool: tool.name, arguments: args };
}

export function generateSamples(tools: readonly Tool[], o: SampleOptions): DemoSample[] {
  const rng = new Rng(o.seed);
  const out: DemoSample[] = [];
  const seen = new Set(o.exclude);
  for (const tool of tools) {
    const templates = TEMPLATES[tool.name];
    if (!templates)
      throw new ToolgenError(
        "invalid_input",
        `the demo query generator has no templates for tool ${tool.name}`,
      );
    for (let i = 0, tries = 0; i < o.perTool && tries < o.perTool * 20; tries++) {
      const sample = sampleFor(tool, templates, i, rng);
      const key = normalizeQuestion(sample.query);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(sample);
      i++;
    }
  }
  return out;
}

/** Off-topic questions as samples (no tool: the model declines them). */
export function offTopicSamples(count: number, seed: number, exclude: ReadonlySet<string>): DemoSample[] {
  const rng = new Rng(seed);
  return offTopicQuestions(count, rng, exclude).map((q) => ({
    query: styleTemplate(q, rng),
    tool: null,
    arguments: {},
  }));
}

/** The retrieval stage's labels: each tool question and its tool (off-topic questions have none). */
export function labelledQueries(samples: readonly DemoSample[]): LabelledQuery[] {
  return samples.flatMap((s, i) => (s.tool ? [{ id: String(i), query: s.query, relevant: [s.tool] }] : []));
}

/** The function turn's content exactly as the ToolGen agent writes it: {"error", "response"}. */
export function functionTurn(error: string, response: string): string {
  return JSON.stringify({ error, response });
}

/**
 * Runs each sample's call for real and writes its trajectory. Calls that fail (a generated question the tool
 * rejects) are dropped and counted, so the agent is only taught calls that work.
 */
export async function trajectoriesFor(
  samples: readonly DemoSample[],
  tools: readonly Tool[],
  /** Which samples get the whole trajectory; the others stop after the tool's result (cheaper to train on). */
  full: (sample: DemoSample, index: number) => boolean = () => true,
): Promise<{ trajectories: Trajectory[]; failed: DemoSample[] }> {
  const trajectories: Trajectory[] = [];
  const failed: DemoSample[] = [];
  for (const [i, s] of samples.entries()) {
    if (s.tool === null) {
      const decline = {
        thought: DECLINE_THOUGHT,
        action: "Finish",
        arguments: { return_type: "give_up_and_restart" },
      };
      trajectories.push({ query: s.query, steps: [decline] });
      continue;
    }
    const call = {
      id: `gen_${i}`,
      type: "function" as const,
      function: { name: s.tool, arguments: s.arguments },
    };
    const result = await executeToolCall(call, tools);
    if (!result.ok) {
      failed.push(s);
      continue;
    }
    const first = {
      thought: FIRST_THOUGHT,
      action: s.tool,
      arguments: s.arguments,
      observation: functionTurn("", result.content),
    };
    const finish = {
      thought: FINAL_THOUGHT,
      action: "Finish",
      arguments: { return_type: "give_answer", final_answer: result.content },
    };
    trajectories.push({ query: s.query, steps: full(s, i) ? [first, finish] : [first] });
  }
  return { trajectories, failed };
}
