import type { LabelledQuery } from "../catalog/catalog.ts";
import { Rng } from "../nn/rng.ts";
import { executeToolCall } from "../tools/execute.ts";
import type { Tool } from "../tools/types.ts";
import type { Trajectory } from "../train/datasets.ts";
import { drawSlots } from "./slots.ts";
import { TEMPLATES } from "./templates.ts";

/**
 * The demo's query generator: every template of every tool filled with drawn slot values. A question's slot
 * values are its call's arguments, so each sample is a labelled query (retrieval stage) and, once the tool has
 * really run, a full trajectory (agent stage: thought, action token, JSON arguments, result, <<Finish>>).
 */
export interface DemoSample {
  query: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** The agent's thoughts in the generated trajectories (short, so a tiny model learns them quickly). */
export const FIRST_THOUGHT = "I will call the tool that answers this.";
export const FINAL_THOUGHT = "The tool answered, so I can give the final answer.";

export interface SampleOptions {
  /** Questions per tool (templates are used in turn). */
  perTool: number;
  seed: number;
  /** Questions never to produce (e.g. the demo's own questions, or another split's). */
  exclude?: ReadonlySet<string>;
}

export function fillTemplate(template: string, slots: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in slots ? String(slots[name]) : whole,
  );
}

export function generateSamples(tools: readonly Tool[], o: SampleOptions): DemoSample[] {
  const rng = new Rng(o.seed);
  const out: DemoSample[] = [];
  const seen = new Set(o.exclude);
  for (const tool of tools) {
    const templates = TEMPLATES[tool.name];
    if (!templates) throw new Error(`the demo query generator has no templates for tool ${tool.name}`);
    for (let i = 0, tries = 0; i < o.perTool && tries < o.perTool * 20; tries++) {
      const slots = drawSlots(tool, rng);
      const query = fillTemplate(templates[(i + rng.int(templates.length)) % templates.length]!, slots);
      if (seen.has(query)) continue;
      seen.add(query);
      out.push({ query, tool: tool.name, arguments: slots });
      i++;
    }
  }
  return out;
}

export function labelledQueries(samples: readonly DemoSample[]): LabelledQuery[] {
  return samples.map((s, i) => ({ id: String(i), query: s.query, relevant: [s.tool] }));
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
