import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/functions.ts";
import { catalogEntryFromTool } from "../../src/agents/toolbox.ts";
import { Bm25Retriever } from "../../src/retrieval/bm25.ts";
import type { AgentEvent } from "../../src/agents/types.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";
import type { Retriever } from "../../src/retrieval/retriever.ts";
import { tool } from "../../src/tools/define.ts";
import type { Tool } from "../../src/tools/types.ts";
import { getCurrentTemperature, llmMath, squareRoot, sum, webSearch } from "../helpers/reference-tools.ts";

const call = (name: string, args: Record<string, unknown>, id?: string) => ({
  ...(id ? { id } : {}),
  name,
  arguments: args,
});

describe("functions agent: the reference tasks", () => {
  it("answers the Paris temperature through one tool round trip", async () => {
    const model = new ScriptedModel([
      { tool_calls: [call("get_current_temperature", { location: "Paris, France", unit: "celsius" }, "c1")] },
      "It is 22 °C in Paris right now.",
    ]);
    const agent = createAgent({ model, tools: [getCurrentTemperature] });
    const run = await agent.chat("u1", "Hey, what's the temperature in Paris right now?");
    expect(run.stoppedBecause).toBe("answer");
    expect(run.answer).toBe("It is 22 °C in Paris right now.");
    expect(run.toolCalls).toHaveLength(1);
    expect(run.toolCalls[0]!.result).toEqual({ ok: true, content: "22" });
    expect(model.calls[0]!.options.tools?.[0]?.function.name).toBe("get_current_temperature");
    const second = model.calls[1]!.messages;
    expect(second.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "c1",
      name: "get_current_temperature",
      content: "22",
    });
    expect(run.usage.promptTokens).toBeGreaterThan(0);
  });

  it("computes the square root of 475695037565 with the math tools", async () => {
    const model = new ScriptedModel([
      { tool_calls: [call("squareRoot", { x: 475695037565 })] },
      (messages) => `The square root of 475695037565 is ${messages.at(-1)!.content}.`,
    ]);
    const run = await createAgent({ model, tools: [sum, squareRoot] }).chat(
      "u",
      "What is the square root of 475695037565?",
    );
    expect(run.answer).toMatch(/^The square root of 475695037565 is 689706\.48653/);
    expect(Number(run.toolCalls[0]!.result.ok && run.toolCalls[0]!.result.content)).toBeCloseTo(
      689706.486532,
      5,
    );
  });

  it("prices roses with a 15 % markup in two rounds", async () => {
    const model = new ScriptedModel([
      { tool_calls: [call("bing-web-search", { query: "average price of roses" })] },
      { tool_calls: [call("llm-math", { expression: "80.16*1.15" })] },
      (messages) => `Sell them at $${messages.at(-1)!.content}.`,
    ]);
    const run = await createAgent({ model, tools: [webSearch, llmMath] }).chat(
      "u",
      "Rose price with 15 % markup?",
    );
    expect(run.answer).toBe("Sell them at $92.184.");
    expect(run.toolCalls.map((t) => t.call.function.name)).toEqual(["bing-web-search", "llm-math"]);
  });
});

describe("functions agent: tool calls", () => {
  it("answers a hallucinated tool name with a corrective tool message, then recovers", async () => {
    const model = new ScriptedModel([
      { tool_calls: [call("weather_now", { city: "Paris" })] },
      { tool_calls: [call("get_current_temperature", { location: "Paris, France", unit: "celsius" })] },
      "22 °C",
    ]);
    const run = await createAgent({ model, tools: [getCurrentTemperature, sum] }).chat("u", "Paris?");
    expect(run.answer).toBe("22 °C");
    const correction = model.calls[1]!.messages.at(-1)!;
    expect(correction.role).toBe("tool");
    expect(correction.content).toContain('no tool named "weather_now"');
    expect(correction.content).toContain("get_current_temperature, sum");
    expect(run.steps.some((s) => s.type === "guard" && s.guard === "unknown_tool")).toBe(true);
  });

  it("lets the caller choose the hallucination message", async () => {
    const model = new ScriptedModel([{ tool_calls: [call("nope", {})] }, "ok"]);
    const agent = createAgent({
      model,
      tools: [sum],
      hallucinatedToolName: (c, names) => `UNKNOWN ${c.function.name}; valid: ${names.join("|")}`,
    });
    await agent.chat("u", "x");
    expect(model.calls[1]!.messages.at(-1)!.content).toBe("UNKNOWN nope; valid: sum");
  });

  it("runs parallel calls concurrently and keeps their ids and order", async () => {
    let started = 0;
    let release: () => void = () => undefined;
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    const slow = (name: string, delay: number): Tool =>
      tool({
        name,
        description: name,
        inputSchema: { type: "object", properties: {} },
        execute: async () => {
          started += 1;
          if (started === 2) release();
          // Each call waits until the other has started: sequential execution would never finish.
          await Promise.race([
            bothStarted,
            new Promise((_, reject) => setTimeout(() => reject(new Error("serial")), 2000)),
          ]);
          await new Promise((r) => setTimeout(r, delay));
          return name;
        },
      });
    const model = new ScriptedModel([{ tool_calls: [call("a", {}, "id-a"), call("b", {}, "id-b")] }, "done"]);
    const run = await createAgent({ model, tools: [slow("a", 30), slow("b", 0)] }).chat("u", "both");
    expect(run.toolCalls.map((t) => t.result)).toEqual(
      expect.arrayContaining([
        { ok: true, content: "a" },
        { ok: true, content: "b" },
      ]),
    );
    const tail = model.calls[1]!.messages.slice(-2);
    expect(tail.map((m) => [m.tool_call_id, m.content])).toEqual([
      ["id-a", "a"],
      ["id-b", "b"],
    ]);
  });

  it("lists tool calls in the order the model made them, not the order they finished", async () => {
    const after = (name: string, delay: number): Tool =>
      tool({
        name,
        description: name,
        inputSchema: { type: "object", properties: {} },
        execute: async () => {
          await new Promise((r) => setTimeout(r, delay));
          return name;
        },
      });
    const model = new ScriptedModel([{ tool_calls: [call("a", {}, "id-a"), call("b", {}, "id-b")] }, "done"]);
    const run = await createAgent({ model, tools: [after("a", 40), after("b", 0)] }).chat("u", "both");
    expect(run.toolCalls.map((t) => t.call.id)).toEqual(["id-a", "id-b"]);
    const finished = run.steps.filter((s) => s.type === "tool_result").map((s) => s.call.id);
    expect(finished).toEqual(["id-b", "id-a"]); // streamed as they finish
  });

  it("passes the memory id and extra context to the tools", async () => {
    const seen: unknown[] = [];
    const whoami = tool({
      name: "whoami",
      description: "who",
      inputSchema: { type: "object", properties: {} },
      execute: (_args, context) => {
        seen.push([context.memoryId, context.tenant]);
        return "ok";
      },
    });
    const model = new ScriptedModel([{ tool_calls: [call("whoami", {})] }, "fine"]);
    await createAgent({ model, tools: [whoami], context: { tenant: "acme" } }).chat("alice", "who am I?");
    expect(seen).toEqual([["alice", "acme"]]);
  });

  it("returns a direct-return tool's result as the answer without a second model call", async () => {
    const model = new ScriptedModel([{ tool_calls: [call("squareRoot", { x: 16 })] }]);
    const run = await createAgent({ model, tools: [squareRoot], directReturn: ["squareRoot"] }).chat(
      "u",
      "√16",
    );
    expect(run).toMatchObject({ answer: "4", stoppedBecause: "direct_return" });
    expect(model.calls).toHaveLength(1);
  });
});

describe("functions agent: guards and stop reasons", () => {
  const loopModel = (n: number) =>
    new ScriptedModel(Array.from({ length: n }, (_, i) => ({ tool_calls: [call("sum", { a: i, b: 1 })] })));

  it("stops at maxSteps", async () => {
    const run = await createAgent({ model: loopModel(5), tools: [sum], maxSteps: 3 }).chat("u", "x");
    expect(run.stoppedBecause).toBe("max_steps");
    expect(run.steps.filter((s) => s.type === "model")).toHaveLength(3);
  });

  it("stops after maxSequentialToolInvocations rounds", async () => {
    const agent = createAgent({ model: loopModel(5), tools: [sum], maxSequentialToolInvocations: 2 });
    const run = await agent.chat("u", "x");
    expect(run.stoppedBecause).toBe("max_tool_invocations");
    expect(run.toolCalls).toHaveLength(2);
    // The unexecuted call still gets a tool message, so the stored conversation stays valid.
    const stored = await agent.memory("u").messages();
    expect(stored.at(-1)).toMatchObject({ role: "tool", content: expect.stringContaining("Not executed") });
  });

  it("stops a dead loop: the same call and arguments three times", async () => {
    const same = { tool_calls: [call("sum", { a: 1, b: 2 })] };
    const model = new ScriptedModel([same, { tool_calls: [call("sum", { b: 2, a: 1 })] }, same, "never"]);
    const run = await createAgent({ model, tools: [sum] }).chat("u", "x");
    expect(run.stoppedBecause).toBe("repeated_action");
    expect(run.toolCalls).toHaveLength(2);
  });

  it("stops after consecutive failing rounds", async () => {
    const broken = tool({
      name: "broken",
      description: "always fails",
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      execute: () => {
        throw new Error("backend down");
      },
    });
    const model = new ScriptedModel([1, 2, 3, 4].map((n) => ({ tool_calls: [call("broken", { n })] })));
    const run = await createAgent({ model, tools: [broken], maxConsecutiveErrors: 3 }).chat("u", "x");
    expect(run.stoppedBecause).toBe("too_many_errors");
    expect(model.calls[1]!.messages.at(-1)!.content).toContain("backend down");
  });

  it("reports a model failure as model_error, never throws", async () => {
    const run = await createAgent({ model: new ScriptedModel([]), tools: [sum] }).chat("u", "x");
    expect(run.stoppedBecause).toBe("model_error");
    expect(run.error).toMatch(/ran out of replies/);
  });

  it("stops with aborted when the signal fires", async () => {
    const controller = new AbortController();
    const stopper = tool({
      name: "stopper",
      description: "aborts the run",
      inputSchema: { type: "object", properties: {} },
      execute: () => {
        controller.abort();
        return "stopping";
      },
    });
    const model = new ScriptedModel([{ tool_calls: [call("stopper", {})] }, "never"]);
    const run = await createAgent({ model, tools: [stopper] }).chat("u", "x", { signal: controller.signal });
    expect(run.stoppedBecause).toBe("aborted");
    expect(model.remaining).toBe(1);
  });
});

describe("functions agent: events and retrieval", () => {
  it("emits the same events to the callback and the async iterator, with streamed text", async () => {
    const model = new ScriptedModel([{ tool_calls: [call("sum", { a: 1, b: 2 })] }, "The sum is 3."]);
    const agent = createAgent({ model, tools: [sum] });
    const seen: AgentEvent[] = [];
    const handle = agent.run("u", "1+2?", { stream: true, onEvent: (e) => seen.push(e) });
    const iterated: AgentEvent[] = [];
    for await (const event of handle) iterated.push(event);
    const run = await handle.result;
    expect(iterated).toEqual(seen);
    expect(iterated.map((e) => e.type)).toEqual(
      expect.arrayContaining(["model", "tool_call", "tool_result", "text_delta", "final"]),
    );
    const text = iterated.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
    expect(text).toBe("The sum is 3.");
    expect(run.steps.at(-1)).toMatchObject({ type: "final", stoppedBecause: "answer" });
    expect(run.steps.some((s) => s.type === ("text_delta" as string))).toBe(false);
  });

  it("offers only the retriever's top-k tools, and a hook can choose per step", async () => {
    const retriever: Retriever = {
      name: "fixed",
      search: async () => [
        { id: "squareRoot", score: 2 },
        { id: "missing", score: 1.5 },
        { id: "sum", score: 1 },
      ],
    };
    const model = new ScriptedModel(["a", "b"]);
    const tools = [getCurrentTemperature, sum, squareRoot, webSearch];
    await createAgent({ model, tools, retriever, topK: 1 }).chat("u", "root?");
    expect(model.calls[0]!.options.tools!.map((t) => t.function.name)).toEqual(["squareRoot"]);

    const steps: number[] = [];
    const hooked = createAgent({
      model,
      tools,
      retriever,
      topK: 2,
      selectTools: ({ retrieved, step }) => {
        steps.push(step);
        return [...retrieved, webSearch];
      },
    });
    await hooked.chat("u2", "root?");
    expect(model.calls[1]!.options.tools!.map((t) => t.function.name)).toEqual([
      "squareRoot",
      "sum",
      "bing-web-search",
    ]);
    expect(steps).toEqual([0]);
  });

  it("offers the tools a real BM25 retriever finds for the question", async () => {
    const tools = [getCurrentTemperature, sum, squareRoot, webSearch, llmMath];
    const retriever = new Bm25Retriever(tools.map(catalogEntryFromTool), { document: "name-description" });
    const model = new ScriptedModel([
      { tool_calls: [call("squareRoot", { x: 475695037565 })] },
      "689706.486532",
    ]);
    const agent = createAgent({ model, tools, retriever, topK: 2 });
    const run = await agent.chat("u", "What is the square root of 475695037565?");
    const offered = model.calls[0]!.options.tools!.map((t) => t.function.name);
    // BM25 returns only tools that share a term with the question, at most topK of them, best first.
    expect(offered[0]).toBe("squareRoot");
    expect(offered.length).toBeLessThanOrEqual(2);
    expect(run.answer).toBe("689706.486532");
  });
});
