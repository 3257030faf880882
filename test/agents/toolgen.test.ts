import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { createToolGenAgent } from "../../src/agents/toolgen.ts";
import { UnsupportedConstraintError } from "../../src/models/http-errors.ts";
import type { ChatModel } from "../../src/models/model.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";
import { GENERATE_ACTION, TOOLGEN_AGENT_SYSTEM } from "../../src/toolgen/agent-format.ts";
import { getCurrentTemperature, llmMath, squareRoot, sum, webSearch } from "../helpers/reference-tools.ts";

const finish = (answer: string) => JSON.stringify({ return_type: "give_answer", final_answer: answer });

describe("ToolGen agent: the reference tasks", () => {
  it("answers the Paris temperature in the paper's turns", async () => {
    const model = new ScriptedModel([
      "I need the current temperature in Paris, so I call the temperature tool.",
      "<<get_current_temperature>>",
      '{"location": "Paris, France", "unit": "celsius"}',
      "The tool says 22 degrees; I can answer.",
      "<<Finish>>",
      finish("It is 22 °C in Paris right now."),
    ]);
    const agent = createToolGenAgent({ model, tools: [getCurrentTemperature, sum] });
    const run = await agent.chat("u", "Hey, what's the temperature in Paris right now?");
    expect(run).toMatchObject({ answer: "It is 22 °C in Paris right now.", stoppedBecause: "answer" });
    expect(run.toolCalls[0]!.result).toEqual({ ok: true, content: "22" });

    const last = model.calls[5]!.messages;
    expect(last[0]).toEqual({ role: "system", content: TOOLGEN_AGENT_SYSTEM });
    expect(last[1]).toEqual({
      role: "user",
      content: "Hey, what's the temperature in Paris right now?\nBegin!",
    });
    expect(last.slice(2).map((m) => [m.role, m.content.slice(0, 56)])).toEqual([
      ["assistant", "I need the current temperature in Paris, so I call the t"],
      ["user", GENERATE_ACTION],
      ["assistant", "<<get_current_temperature>>"],
      ["user", 'Please give the input. Here is the documentation: {"name'],
      ["assistant", '{"location": "Paris, France", "unit": "celsius"}'],
      ["tool", '{"error":"","response":"22"}'],
      ["assistant", "The tool says 22 degrees; I can answer."],
      ["user", GENERATE_ACTION],
      ["assistant", "<<Finish>>"],
      ["user", 'Please give the input. Here is the documentation: {"name'],
    ]);
    expect(last[5]!.content).toContain('"name":"<<get_current_temperature>>"');
    // The action turn is constrained to the tool tokens plus <<Finish>>.
    expect(model.calls[1]!.options.constraint).toEqual({
      kind: "choice",
      options: ["<<get_current_temperature>>", "<<sum>>", "<<Finish>>"],
    });
    expect(model.calls[0]!.options.constraint).toBeUndefined();
  });

  it("computes the square root of 475695037565 from a ToolBench-style catalog", async () => {
    const catalog: CatalogEntry[] = [
      {
        id: "Math&&squareRoot",
        tool: "Math",
        api: "squareRoot",
        description: "Returns a square root of a given number",
        parameters: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
        doc: {},
      },
    ];
    const model = new ScriptedModel([
      "I should take the square root.",
      "<<Math&&squareRoot>>",
      '{"x": 475695037565}',
      "Done.",
      "<<Finish>>",
      (messages) => finish(`The square root is ${JSON.parse(messages.at(-5)!.content).response}`),
    ]);
    const agent = createToolGenAgent({
      model,
      catalog,
      execute: (entry, args) => (entry.api === "squareRoot" ? Math.sqrt(Number(args.x)) : undefined),
    });
    const run = await agent.chat("u", "What is the square root of 475695037565?");
    expect(run.answer).toMatch(/^The square root is 689706\.48653/);
  });

  it("prices roses with a 15 % markup in two actions", async () => {
    const model = new ScriptedModel([
      "Search for the price first.",
      "<<bing-web-search>>",
      '{"query": "average price of roses"}',
      "Now add 15 %.",
      "<<llm-math>>",
      '{"expression": "80.16*1.15"}',
      "I know the answer.",
      "<<Finish>>",
      finish("Price them at $92.184."),
    ]);
    const run = await createToolGenAgent({ model, tools: [webSearch, llmMath] }).chat(
      "u",
      "Rose price +15%?",
    );
    expect(run.answer).toBe("Price them at $92.184.");
    expect(run.toolCalls.map((t) => t.result.ok && t.result.content)).toEqual([
      expect.stringContaining("$80.16"),
      "92.184",
    ]);
  });
});

describe("ToolGen agent: guards", () => {
  it("re-asks at a higher temperature when a reply says sorry or give up", async () => {
    const model = new ScriptedModel([
      "Sorry, I cannot do that.",
      "I give up.",
      "Let me call the tool after all.",
      "<<Finish>>",
      finish("ok"),
    ]);
    const run = await createToolGenAgent({ model, tools: [sum], temperature: 0.2 }).chat("u", "x");
    expect(run.answer).toBe("ok");
    expect(model.calls.slice(0, 3).map((c) => c.options.temperature)).toEqual([0.2, 0.7, 1]);
    expect(run.steps.filter((s) => s.type === "retry")).toHaveLength(2);
    // Only the accepted reply enters the conversation.
    expect(model.calls[3]!.messages.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual([
      "Let me call the tool after all.",
    ]);
  });

  it("restarts after give_up_and_restart, then stops with gave_up", async () => {
    const giveUp = JSON.stringify({ return_type: "give_up_and_restart" });
    const model = new ScriptedModel(["plan", "<<Finish>>", giveUp, "plan again", "<<Finish>>", giveUp]);
    const run = await createToolGenAgent({ model, tools: [sum], retryTemperatures: [] }).chat("u", "x");
    expect(run.stoppedBecause).toBe("gave_up");
    // The restart begins a fresh episode: system + task only.
    expect(model.calls[3]!.messages).toHaveLength(2);
  });

  it("answers an action that is not a tool token and asks for the action again", async () => {
    const model = new ScriptedModel(["plan", "<<weather_now>>", "<<Finish>>", finish("fine")]);
    const run = await createToolGenAgent({ model, tools: [sum] }).chat("u", "x");
    expect(run.answer).toBe("fine");
    expect(model.calls[2]!.messages.at(-1)!.content).toBe(
      `"<<weather_now>>" is not a valid action. ${GENERATE_ACTION}`,
    );
    expect(run.steps.some((s) => s.type === "guard" && s.guard === "unknown_action")).toBe(true);
  });

  it("reports broken arguments in the function turn and goes on", async () => {
    const model = new ScriptedModel([
      "plan",
      "<<sum>>",
      "a=1 b=2",
      "retry",
      "<<sum>>",
      '{"a": 1, "b": 2}',
      "3",
      "<<Finish>>",
      finish("3"),
    ]);
    const run = await createToolGenAgent({ model, tools: [sum] }).chat("u", "1+2");
    expect(run.answer).toBe("3");
    expect(JSON.parse(model.calls[3]!.messages.at(-1)!.content).error).toMatch(/invalid input/);
  });

  it("stops at the round limit (16 by default)", async () => {
    const model = new ScriptedModel(
      Array.from({ length: 20 }, (_, i) =>
        i % 3 === 1 ? "<<sum>>" : i % 3 === 2 ? `{"a": ${i}, "b": 1}` : "think",
      ),
    );
    const run = await createToolGenAgent({ model, tools: [sum] }).chat("u", "x");
    expect(run.stoppedBecause).toBe("max_steps");
    expect(model.calls).toHaveLength(16);
  });

  it("stops a dead loop", async () => {
    const model = new ScriptedModel(
      Array.from({ length: 3 }, () => ["t", "<<sum>>", '{"a": 1, "b": 1}']).flat(),
    );
    const run = await createToolGenAgent({ model, tools: [sum] }).chat("u", "x");
    expect(run.stoppedBecause).toBe("repeated_action");
    expect(run.toolCalls).toHaveLength(2);
  });

  it("uses a plugged-in action decoder (constrained beam) instead of the model for the action turn", async () => {
    const seen: string[][] = [];
    const model = new ScriptedModel(["plan", '{"x": 16}', "done", finish("4")]);
    const actions = ["<<squareRoot>>", "<<Finish>>"];
    const agent = createToolGenAgent({
      model,
      tools: [squareRoot],
      decodeAction: async ({ options }) => {
        seen.push(options);
        return actions.shift()!;
      },
    });
    const run = await agent.chat("u", "√16");
    expect(run.answer).toBe("4");
    expect(seen[0]).toEqual(["<<squareRoot>>", "<<Finish>>"]);
    expect(seen[1]).toBe(seen[0]); // the same array each time: decoders cache their trie by identity
    expect(run.steps.filter((s) => s.type === "model")).toHaveLength(6);
  });

  it("accepts non-atomic written ids from a tool index", async () => {
    const model = new ScriptedModel(["plan", "0 0 0 0 1", '{"x": 9}', "done", "<<Finish>>", finish("3")]);
    const agent = createToolGenAgent({
      model,
      tools: [sum, squareRoot],
      index: { kind: "numeric", texts: { sum: "0 0 0 0 0", squareRoot: "0 0 0 0 1" } },
    });
    const run = await agent.chat("u", "√9");
    expect(run.toolCalls[0]!.call.function.name).toBe("squareRoot");
    expect(model.calls[1]!.options.constraint).toEqual({
      kind: "choice",
      options: ["0 0 0 0 0", "0 0 0 0 1", "<<Finish>>"],
    });
  });

  it("keeps earlier questions and answers of the same memory id", async () => {
    const model = new ScriptedModel([
      "p",
      "<<Finish>>",
      finish("first answer"),
      "p",
      "<<Finish>>",
      finish("second"),
    ]);
    const agent = createToolGenAgent({ model, tools: [sum] });
    await agent.chat("m", "first question");
    await agent.chat("m", "second question");
    expect(model.calls[3]!.messages.slice(1, 4)).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "second question\nBegin!" },
    ]);
  });

  it("falls back to an unconstrained action turn when the backend cannot enforce a choice", async () => {
    const inner = new ScriptedModel([
      "plan",
      "<<Finish>>",
      finish("done"),
      "plan",
      "<<Finish>>",
      finish("again"),
    ]);
    let refused = 0;
    const model: ChatModel = {
      id: "no-choice",
      generate: (messages, options = {}) => {
        if (options.constraint) {
          refused += 1;
          return Promise.reject(
            new UnsupportedConstraintError("a choice constraint cannot be passed to a openai server"),
          );
        }
        return inner.generate(messages, options);
      },
      stream: (messages, options) => inner.stream(messages, options),
    };
    const agent = createToolGenAgent({ model, tools: [sum] });
    expect((await agent.chat("u", "x")).answer).toBe("done");
    const second = await agent.chat("u", "y");
    expect(second.answer).toBe("again");
    expect(refused).toBe(1);
  });
});
