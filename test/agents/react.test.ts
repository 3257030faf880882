import { describe, expect, it } from "vitest";
import { createReactAgent } from "../../src/agents/react.ts";
import { REACT_PROMPT } from "../../src/agents/react-prompt.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";
import { tool } from "../../src/tools/define.ts";
import { getCurrentTemperature, llmMath, squareRoot, sum, webSearch } from "../helpers/reference-tools.ts";

const promptOf = (model: ScriptedModel, call: number): string => model.calls[call]!.messages[0]!.content;

describe("ReAct agent: the reference tasks", () => {
  it("prices roses with a 15 % markup, in the ReAct example's three rounds", async () => {
    const model = new ScriptedModel([
      " I should use the search tool to find the answer quickly.\nAction: bing-web-search\nAction Input: average price of roses",
      " I need math to calculate a 15 percent markup on that.\nAction: llm-math\nAction Input: 80.16*1.15",
      " I now know the final answer.\nFinal Answer: With the 15% markup, price them at $92.184.",
    ]);
    const agent = createReactAgent({ model, tools: [webSearch, llmMath] });
    const run = await agent.chat(
      "u",
      "What is the average price of roses? How should I price them with a 15% markup?",
    );
    expect(run).toMatchObject({
      answer: "With the 15% markup, price them at $92.184.",
      stoppedBecause: "answer",
    });
    expect(run.toolCalls.map((t) => [t.call.function.arguments, t.result])).toEqual([
      [{ query: "average price of roses" }, { ok: true, content: expect.stringContaining("$80.16") }],
      [{ expression: "80.16*1.15" }, { ok: true, content: "92.184" }],
    ]);
    const first = promptOf(model, 0);
    expect(first).toContain(
      "bing-web-search: Searches the web with Bing\nllm-math: Evaluates an arithmetic expression",
    );
    expect(first).toContain("should be one of [bing-web-search, llm-math]");
    expect(
      first.endsWith(
        "Question: What is the average price of roses? How should I price them with a 15% markup?\nThought:",
      ),
    ).toBe(true);
    const third = promptOf(model, 2);
    expect(third).toContain(
      "Thought: I should use the search tool to find the answer quickly.\nAction: bing-web-search\nAction Input: average price of roses\n" +
        "Observation: According to online sources, a bouquet of roses in the US costs $80.16.\nThought: I need math",
    );
    expect(third.endsWith("Action Input: 80.16*1.15\nObservation: 92.184\nThought:")).toBe(true);
    expect(model.calls[0]!.options.stop).toEqual(["\nObservation:"]);
    expect(run.steps.filter((s) => s.type === "thought")).toHaveLength(3);
  });

  it("answers the Paris temperature with a JSON Action Input", async () => {
    const model = new ScriptedModel([
      'I need the weather tool.\nAction: get_current_temperature\nAction Input: {"location": "Paris, France", "unit": "celsius"}',
      "I now know the final answer.\nFinal Answer: It is 22 °C in Paris.",
    ]);
    const run = await createReactAgent({ model, tools: [getCurrentTemperature] }).chat(
      "u",
      "Temperature in Paris?",
    );
    expect(run.answer).toBe("It is 22 °C in Paris.");
    expect(promptOf(model, 0)).toContain(
      'get_current_temperature: Get the current temperature at a location. Action Input is a JSON object {"location": string, "unit": "celsius" | "fahrenheit"}.',
    );
    expect(promptOf(model, 1)).toContain("Observation: 22\nThought:");
  });

  it("computes the square root of 475695037565 from a plain-text input", async () => {
    const model = new ScriptedModel([
      "Action: squareRoot\nAction Input: 475695037565",
      "Final Answer: about 689706.486532",
    ]);
    const run = await createReactAgent({ model, tools: [sum, squareRoot] }).chat("u", "√475695037565?");
    expect(run.answer).toBe("about 689706.486532");
    const result = run.toolCalls[0]!.result;
    expect(result.ok && Number(result.content)).toBeCloseTo(689706.486532, 5);
  });
});

describe("ReAct agent: guards", () => {
  it("recovers from a tool that does not exist: the Observation lists the valid names", async () => {
    const model = new ScriptedModel([
      "Action: calculator\nAction Input: 2+2",
      "Action: llm-math\nAction Input: 2+2",
      "Final Answer: 4",
    ]);
    const run = await createReactAgent({ model, tools: [webSearch, llmMath] }).chat("u", "2+2?");
    expect(run).toMatchObject({ answer: "4", stoppedBecause: "answer" });
    expect(promptOf(model, 1)).toContain(
      "Observation: calculator is not a valid tool, try one of [bing-web-search, llm-math].",
    );
    expect(run.steps.filter((s) => s.type === "guard").map((s) => s.type === "guard" && s.guard)).toEqual([
      "unknown_tool",
    ]);
  });

  it("answers an unparsable step with a format reminder", async () => {
    const model = new ScriptedModel(["I will just chat about roses.", "Final Answer: fine"]);
    const run = await createReactAgent({ model, tools: [llmMath] }).chat("u", "x");
    expect(run.answer).toBe("fine");
    expect(promptOf(model, 1)).toMatch(/Observation: Invalid Format: .*Final Answer: <answer>/);
  });

  it("rejects plain text for a tool that needs a JSON object", async () => {
    const model = new ScriptedModel(["Action: sum\nAction Input: one and two", "Final Answer: ?"]);
    const run = await createReactAgent({ model, tools: [sum] }).chat("u", "x");
    expect(promptOf(model, 1)).toContain(
      'Observation: Invalid input for sum: Action Input must be a JSON object with the keys "a", "b"',
    );
    expect(run.steps.some((s) => s.type === "guard" && s.guard === "invalid_input")).toBe(true);
  });

  it("turns a tool error into an Observation", async () => {
    const model = new ScriptedModel(["Action: llm-math\nAction Input: 2+", "Final Answer: cannot"]);
    const run = await createReactAgent({ model, tools: [llmMath] }).chat("u", "x");
    expect(promptOf(model, 1)).toContain("Observation: Error: tool llm-math failed: unexpected end in 2+");
    expect(run.steps.some((s) => s.type === "guard" && s.guard === "tool_error")).toBe(true);
  });

  it("ignores an Observation the model invented after its action", async () => {
    const model = new ScriptedModel([
      "Action: llm-math\nAction Input: 1+1\nObservation: 3\nThought: done\nFinal Answer: 3",
      "Final Answer: 2",
    ]);
    const run = await createReactAgent({ model, tools: [llmMath] }).chat("u", "1+1");
    expect(run.answer).toBe("2");
    expect(promptOf(model, 1)).toContain("Action Input: 1+1\nObservation: 2\nThought:");
    expect(promptOf(model, 1)).not.toContain("Observation: 3");
  });

  it("stops a dead loop: the same action and input three times", async () => {
    const same = "Action: llm-math\nAction Input: 1+1";
    const model = new ScriptedModel([same, same, same, "Final Answer: never"]);
    const run = await createReactAgent({ model, tools: [llmMath] }).chat("u", "x");
    expect(run.stoppedBecause).toBe("repeated_action");
    expect(run.toolCalls).toHaveLength(2);
  });

  it("stops at maxIterations", async () => {
    const model = new ScriptedModel([
      "Action: llm-math\nAction Input: 1+1",
      "Action: llm-math\nAction Input: 2+2",
    ]);
    const run = await createReactAgent({ model, tools: [llmMath], maxIterations: 2 }).chat("u", "x");
    expect(run.stoppedBecause).toBe("max_steps");
  });

  it("stops after too many corrective observations in a row", async () => {
    const model = new ScriptedModel(["nonsense", "more nonsense", "still nonsense"]);
    const run = await createReactAgent({ model, tools: [llmMath], maxConsecutiveErrors: 3 }).chat("u", "x");
    expect(run.stoppedBecause).toBe("too_many_errors");
  });

  it("trims the oldest scratchpad steps near the context limit", async () => {
    const model = new ScriptedModel([
      ...[1, 2, 3, 4, 5].map((n) => `Step ${n}.\nAction: llm-math\nAction Input: ${n}*1000`),
      "Final Answer: done",
    ]);
    const countTokens = (text: string) => text.length;
    const base = REACT_PROMPT.length + 200;
    const agent = createReactAgent({
      model,
      tools: [llmMath],
      contextLimit: base + 150 + 16,
      maxTokens: 16,
      countTokens,
    });
    const run = await agent.chat("u", "x");
    expect(run.answer).toBe("done");
    const last = promptOf(model, 5);
    expect(last.length).toBeLessThanOrEqual(base + 150);
    expect(last).toContain("earlier step(s) omitted to fit the context");
    expect(last).toContain("Observation: 5000\nThought:");
    expect(last).not.toContain("Observation: 1000\n");
    expect(run.steps.some((s) => s.type === "trim")).toBe(true);
  });

  it("direct-return mode: the tool result is the answer, one model call", async () => {
    const model = new ScriptedModel([
      'Action: get_current_temperature\nAction Input: {"location": "Paris, France", "unit": "celsius"}',
    ]);
    const run = await createReactAgent({ model, tools: [getCurrentTemperature], directReturn: true }).chat(
      "u",
      "Paris?",
    );
    expect(run).toMatchObject({ answer: "22", stoppedBecause: "direct_return" });
    expect(model.calls).toHaveLength(1);
  });
});

describe("ReAct agent: history and templates", () => {
  it("keeps questions and final answers as history, not the scratchpad", async () => {
    const model = new ScriptedModel([
      "Action: llm-math\nAction Input: 6*7",
      "Final Answer: 42",
      "Final Answer: You asked for 6 times 7.",
    ]);
    const agent = createReactAgent({ model, tools: [llmMath] });
    await agent.chat("m", "What is 6*7?");
    await agent.chat("m", "What did I ask?");
    const prompt = promptOf(model, 2);
    expect(prompt).toContain("History:\nHuman: What is 6*7?\nAI: 42\n");
    expect(prompt).not.toContain("Observation: 42");
  });

  it("rejects a template with an unknown variable", () => {
    const model = new ScriptedModel([]);
    expect(() =>
      createReactAgent({ model, tools: [sum], template: "{question} {agent_scratchpad}" }),
    ).toThrow(/uses \{question\}/);
  });

  it("passes a zero-argument tool no arguments", async () => {
    const now = tool({
      name: "now",
      description: "the time",
      inputSchema: { type: "object", properties: {} },
      execute: () => "noon",
    });
    const model = new ScriptedModel(["Action: now\nAction Input: ", "Final Answer: noon"]);
    const run = await createReactAgent({ model, tools: [now] }).chat("u", "time?");
    expect(run.toolCalls[0]!.call.function.arguments).toEqual({});
    expect(run.answer).toBe("noon");
  });
});
