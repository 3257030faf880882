import type { LabelledQuery } from "../catalog/catalog.ts";
import type { SynthItem, SynthTrajectory, SynthTrajectoryStep } from "./types.ts";

/** The agent's thoughts in the trajectories (short, so that a tiny model learns them quickly). */
export const FIRST_THOUGHT = "I will call the tool that answers this.";
export const NEXT_THOUGHT = "I will make the next call the question asks for.";
export const FINAL_THOUGHT = "The tools answered, so I can give the final answer.";
export const DECLINE_THOUGHT = "None of these tools can answer this question.";

/**
 * What a step's tool turn holds. The questions' calls are not run (a catalog's tools need not be runnable here),
 * so the observation says which call was made; the final answer repeats it. The agent stage trains on the
 * assistant turns only (the thought, the action token, the arguments), never on the tool turn.
 */
export function observationFor(name: string): string {
  return JSON.stringify({ error: "", response: `${name} answered.` });
}

/**
 * ToolGen agent-stage trajectories (`toolgen train --trajectories`): each call a step (thought, the tool's id,
 * its arguments, an observation), then <<Finish>> with the answer; a decline item is <<Finish>> with
 * give_up_and_restart.
 */
export function synthTrajectories(items: readonly SynthItem[]): SynthTrajectory[] {
  return items.map((item) => {
    if (item.calls.length === 0) {
      return {
        query: item.question,
        steps: [
          { thought: DECLINE_THOUGHT, action: "Finish", arguments: { return_type: "give_up_and_restart" } },
        ],
      };
    }
    const steps: SynthTrajectoryStep[] = item.calls.map((call, i) => ({
      thought: i === 0 ? FIRST_THOUGHT : NEXT_THOUGHT,
      action: call.name,
      arguments: call.arguments,
      observation: observationFor(call.name),
    }));
    steps.push({
      thought: FINAL_THOUGHT,
      action: "Finish",
      arguments: {
        return_type: "give_answer",
        final_answer: item.calls.map((c) => `${c.name} answered.`).join(" "),
      },
    });
    return { query: item.question, steps };
  });
}

/** The retrieval stage's labelled queries: each answerable item and the tools it calls (declines have none). */
export function synthQueries(items: readonly SynthItem[]): LabelledQuery[] {
  return items.flatMap((item) =>
    item.calls.length === 0
      ? []
      : [{ id: item.id, query: item.question, relevant: [...new Set(item.calls.map((c) => c.name))] }],
  );
}
