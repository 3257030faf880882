import type { CatalogEntry } from "../catalog/catalog.ts";
import type { JsonSchema } from "../tools/types.ts";

/**
 * The ToolGen agent protocol (paper Fig. 8): every ReAct step is three rounds — the assistant's thought, then
 * "Generate the action." answered by an action token, then the tool's documentation answered by JSON arguments —
 * followed by the tool's result. The same strings are used to build training data and to run the agent.
 */
export const TOOLGEN_AGENT_SYSTEM = [
  "You are an AutoGPT, capable of utilizing numerous tools and functions to complete the given task.",
  "1.First, I will provide you with the task description, and your task will commence.",
  "2.At each step, you need to determine the next course of action by generating an action token.",
  "3.Following the token, you will receive the documentation of the action corresponding to the token. You need to generate the input of the action, transitioning you to a new state. Subsequently, you will make decisions about the next steps, and repeat this process.",
  "4.After several iterations of generating actions and inputs, you will ultimately complete the task and provide your final answer.",
  "Remember:",
  "1.The state changes are irreversible, and you cannot return to a previous state.",
  "2.Keep your actions concise, limiting them to best suit the current query.",
  "3.You can make multiple attempts. If you plan to try different conditions continuously, perform one condition per try.",
  '4.If you believe you have gathered enough information, generate the action "<<Finish>> with argument give_answer" to provide your answer for the task.',
  '5.If you feel unable to handle the task from this step, generate the action "<<Finish>> with argument give_up_and_restart".',
  "Let's Begin!",
  "Task description: You should use actions to help handle the real time user querys. Remember:",
  '1.ALWAYS generate "<<Finish>>" at the end of the task. And the final answer should contain enough information to show to the user. If you can\'t handle the task, or you find that actions always fail(the function is not valid now), use action <<Finish>> with give_up_and_restart.',
  "2.Only generate actions and inputs.",
].join("\n");

export const GENERATE_ACTION = "Generate the action.";

/** The user turn that asks for a query's first step. */
export function agentTask(query: string): string {
  return `${query}\nBegin!`;
}

/** The documentation shown after an action token: name (its written id), description, parameters. */
export function actionDocumentation(name: string, entry: CatalogEntry | undefined): string {
  if (!entry) {
    return JSON.stringify({
      name,
      description: "Finish the task: give the final answer, or give up and restart.",
      required: [{ name: "return_type", type: "string", enum: ["give_answer", "give_up_and_restart"] }],
      optional: [{ name: "final_answer", type: "string" }],
    });
  }
  const properties = entry.parameters.properties ?? {};
  const required = entry.parameters.required ?? [];
  const param = (p: string) => ({ name: p, ...properties[p] });
  return JSON.stringify({
    name,
    description: entry.description,
    required: required.map(param),
    optional: Object.keys(properties)
      .filter((p) => !required.includes(p))
      .map(param),
  });
}

/** The user turn that asks for the arguments of the chosen action. */
export function inputRequest(documentation: string): string {
  return `Please give the input. Here is the documentation: ${documentation}`;
}

/**
 * What the arguments turn after <<Finish>> may be: a final answer, or giving up (ToolBench's Finish function;
 * the documentation the model is shown is `actionDocumentation(FINISH_TOKEN)`). Written compactly in this
 * order, a give_answer reads `{"return_type":"give_answer","final_answer":"…"}`.
 */
export const FINISH_ARGUMENTS_SCHEMA: JsonSchema = {
  anyOf: [
    {
      type: "object",
      properties: { return_type: { const: "give_answer" }, final_answer: { type: "string" } },
      required: ["return_type", "final_answer"],
    },
    {
      type: "object",
      properties: { return_type: { const: "give_up_and_restart" } },
      required: ["return_type"],
    },
  ],
};

/** <<Finish>>'s declining branch alone: what an answer copied from a tool's result may be when there is none. */
export const FINISH_DECLINE_SCHEMA: JsonSchema = (FINISH_ARGUMENTS_SCHEMA.anyOf as JsonSchema[])[1]!;
