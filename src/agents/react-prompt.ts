import type { JsonSchema, Tool } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The ReAct prompt (after LangChain's hwchase17/react, with a {history} of earlier turns), with its five
 * variables: {tools}, {tool_names}, {history}, {input}, {agent_scratchpad}.
 */
export const REACT_PROMPT = `Answer the following questions as best you can. You have access to the following tools:

{tools}

Use the following format:

Question: the input question you must answer
Thought: you should always think about what to do
Action: the action to take, should be one of [{tool_names}]
Action Input: the input to the action
Observation: the result of the action
... (this Thought/Action/Action Input/Observation can repeat N times)
Thought: I now know the final answer
Final Answer: the final answer to the original input question

Begin!

History:
{history}

Question: {input}
Thought:{agent_scratchpad}`;

export interface ReactPromptValues {
  tools: string;
  tool_names: string;
  history: string;
  input: string;
  agent_scratchpad: string;
}

const VARIABLES = ["tools", "tool_names", "history", "input", "agent_scratchpad"] as const;

/** Checks a custom template up front: every variable it uses must be one of the five. */
export function checkReactTemplate(template: string): void {
  for (const match of template.matchAll(/\{([a-z_]+)\}/g)) {
    if (!(VARIABLES as readonly string[]).includes(match[1]!)) {
      throw new ToolgenError(
        "invalid_option",
        `ReAct template uses {${match[1]}}; the variables are ${VARIABLES.map((v) => `{${v}}`).join(", ")}`,
      );
    }
  }
  if (!template.includes("{agent_scratchpad}") || !template.includes("{input}")) {
    throw new ToolgenError(
      "invalid_option",
      "a ReAct template needs at least {input} and {agent_scratchpad}",
    );
  }
}

/** Fills the variables in one pass, so a value that contains "{input}" is not substituted again. */
export function renderReactPrompt(template: string, values: ReactPromptValues): string {
  return template.replace(
    /\{(tools|tool_names|history|input|agent_scratchpad)\}/g,
    (_, name: keyof ReactPromptValues) => values[name],
  );
}

/**
 * One line per tool, "{name}: {description}", as LangChain's ReAct prompt lists them. A tool whose input is more than one plain value
 * also shows the JSON object it expects, so the model can write a JSON Action Input.
 */
export function describeTools(tools: Tool[]): string {
  return tools
    .map((tool) => {
      const line = `${tool.name}: ${tool.description}`;
      const keys = Object.keys(tool.parameters.properties);
      if (keys.length === 1 && isScalar(tool.parameters.properties[keys[0]!]!)) return line;
      const shape = keys.map((key) => `"${key}": ${typeName(tool.parameters.properties[key]!)}`).join(", ");
      return `${line} Action Input is a JSON object {${shape}}.`;
    })
    .join("\n");
}

function isScalar(schema: JsonSchema): boolean {
  return ["string", "number", "integer", "boolean"].includes(String(schema.type));
}

function typeName(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  return Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
}
