import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/functions.ts";
import { createReactAgent } from "../../src/agents/react.ts";
import { createToolGenAgent } from "../../src/agents/toolgen.ts";
import { OpenAIChatModel } from "../../src/models/openai.ts";
import type { ServerDialect } from "../../src/models/openai-request.ts";
import type { FakeOpenAIServer } from "../helpers/fake-openai-server.ts";
import { runCli } from "../helpers/run-cli.ts";
import {
  bodies,
  scriptedServer,
  type ChatRequestBody,
  type WireScript,
} from "../helpers/scripted-openai-server.ts";
import { getCurrentTemperature, llmMath, squareRoot, sum, webSearch } from "../helpers/reference-tools.ts";

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function serve(script: WireScript, dialect: ServerDialect = "generic") {
  const server = await scriptedServer(script);
  servers.push(server);
  const model = new OpenAIChatModel({ model: "scripted", baseURL: server.baseURL, dialect, maxRetries: 0 });
  return { requests: () => bodies(server), model };
}

const lastContent = (body: ChatRequestBody): string => String(body.messages.at(-1)!.content);
const finish = (answer: string) => JSON.stringify({ return_type: "give_answer", final_answer: answer });

describe("agents against a real OpenAI-protocol server on 127.0.0.1", () => {
  it("functions agent: Paris temperature, plain and streamed", async () => {
    for (const stream of [false, true]) {
      const { requests, model } = await serve([
        {
          tool_calls: [
            { name: "get_current_temperature", arguments: { location: "Paris, France", unit: "celsius" } },
          ],
        },
        (body) => `It is ${lastContent(body)} °C in Paris.`,
      ]);
      const agent = createAgent({ model, tools: [getCurrentTemperature] });
      const run = await agent.chat("u", "Hey, what's the temperature in Paris right now?", { stream });
      expect(run).toMatchObject({ answer: "It is 22 °C in Paris.", stoppedBecause: "answer" });
      // Over the wire: tools offered, arguments sent back as a JSON string, the result tied to the call id.
      expect(requests()[0]!.tools).toHaveLength(1);
      const [, call, result] = requests()[1]!.messages;
      const wireCall = (call!.tool_calls as { id: string; function: { arguments: string } }[])[0]!;
      expect(JSON.parse(wireCall.function.arguments)).toEqual({ location: "Paris, France", unit: "celsius" });
      expect(result).toMatchObject({ role: "tool", tool_call_id: wireCall.id, content: "22" });
      expect(run.usage).toEqual({ promptTokens: 20, completionTokens: 10 });
    }
  });

  it("functions agent: square root of 475695037565", async () => {
    const { model } = await serve([
      { tool_calls: [{ name: "squareRoot", arguments: { x: 475695037565 } }] },
      (body) => `The square root of 475695037565 is ${lastContent(body)}.`,
    ]);
    const run = await createAgent({ model, tools: [sum, squareRoot] }).chat(
      "u",
      "What is the square root of 475695037565?",
    );
    expect(run.answer).toMatch(/^The square root of 475695037565 is 689706\.4865/);
  });

  it("ReAct agent: the rose price with a 15 % markup, stop sequence sent", async () => {
    const { requests, model } = await serve([
      " I should search.\nAction: bing-web-search\nAction Input: average price of roses",
      " I need math.\nAction: llm-math\nAction Input: 80.16*1.15",
      (body) =>
        ` I now know the final answer.\nFinal Answer: $${lastContent(body).match(/Observation: ([\d.]+)\nThought:$/)![1]}`,
    ]);
    const run = await createReactAgent({ model, tools: [webSearch, llmMath] }).chat(
      "u",
      "Rose price with 15% markup?",
    );
    expect(run).toMatchObject({ answer: "$92.184", stoppedBecause: "answer" });
    expect(requests()[0]!.stop).toEqual(["\nObservation:"]);
  });

  it("ToolGen agent: square root, the action sent as guided_choice (vLLM dialect)", async () => {
    const { requests, model } = await serve(
      [
        "I should take the square root.",
        (body) => {
          // The server enforces the choice, as vLLM would.
          expect(body.guided_choice).toEqual(["<<sum>>", "<<squareRoot>>", "<<Finish>>"]);
          return "<<squareRoot>>";
        },
        '{"x": 475695037565}',
        "I have the result.",
        "<<Finish>>",
        (body) => finish(`√475695037565 ≈ ${JSON.parse(String(body.messages.at(-5)!.content)).response}`),
      ],
      "vllm",
    );
    const run = await createToolGenAgent({ model, tools: [sum, squareRoot] }).chat(
      "u",
      "What is √475695037565?",
    );
    expect(run.answer).toMatch(/^√475695037565 ≈ 689706\.4865/);
    expect(requests()).toHaveLength(6);
  });

  it("ToolGen agent: Paris temperature on a server without guided decoding (OpenAI dialect)", async () => {
    const { requests, model } = await serve(
      [
        "I need the temperature.",
        "<<get_current_temperature>>",
        '{"location": "Paris, France", "unit": "celsius"}',
        "Done.",
        "<<Finish>>",
        finish("22 °C"),
      ],
      "openai",
    );
    const agent = createToolGenAgent({ model, tools: [getCurrentTemperature], functionRole: "user" });
    const run = await agent.chat("u", "Temperature in Paris?");
    expect(run).toMatchObject({ answer: "22 °C", stoppedBecause: "answer" });
    expect(requests().some((r) => "guided_choice" in r || "grammar" in r)).toBe(false);
    expect(requests().every((r) => r.messages.every((m) => m.role !== "tool"))).toBe(true);
  });

  it("reports a server error as model_error with the server's message", async () => {
    const { model } = await serve([]);
    const run = await createAgent({ model, tools: [sum] }).chat("u", "x");
    expect(run.stoppedBecause).toBe("model_error");
    expect(run.error).toContain("ran out of replies");
  });

  it("toolgen chat --model openai:M@URL answers through one tool round trip, plain and --stream", async () => {
    for (const stream of [false, true]) {
      const { requests, url } = await serveUrl([
        {
          tool_calls: [
            { name: "get_current_temperature", arguments: { location: "Paris, France", unit: "celsius" } },
          ],
        },
        (body) => `It is ${lastContent(body)} °C in Paris.`,
      ]);
      const args = [
        "chat",
        "--model",
        `openai:scripted@${url}`,
        "--tools",
        WEATHER,
        "--message",
        PARIS,
        "--json",
      ];
      const out = await runCli(stream ? [...args, "--stream"] : args);
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toMatchObject({
        answer: "It is 22 °C in Paris.",
        stoppedBecause: "answer",
      });
      expect(requests().map((r) => r.stream === true)).toEqual([stream, stream]);
    }
  });

  it("toolgen chat --top-k 1 offers only the tool BM25 finds for the message", async () => {
    const { requests, url } = await serveUrl([
      { tool_calls: [{ name: "get_current_wind_speed", arguments: { location: "Paris, France" } }] },
      (body) => `${lastContent(body)} km/h`,
    ]);
    const message = "How strong is the wind speed in Paris?";
    const out = await runCli([
      "chat",
      "--model",
      `openai:scripted@${url}`,
      "--tools",
      WEATHER,
      "--top-k",
      "1",
      "--message",
      message,
      "--json",
    ]);
    expect(JSON.parse(out.stdout).answer).toBe("6 km/h");
    const offered = (requests()[0]!.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).toEqual(["get_current_wind_speed"]);
  });

  it("toolgen chat --agent toolgen reads the documents from --catalog and runs --tools", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-catalog-"));
    const catalogFile = join(dir, "tools.json");
    const description = "CATALOG DOC: the temperature right now, anywhere on Earth";
    const parameters = {
      type: "object",
      properties: { location: { type: "string" }, unit: { type: "string" } },
    };
    writeFileSync(
      catalogFile,
      JSON.stringify([
        { type: "function", function: { name: "get_current_temperature", description, parameters } },
      ]),
    );
    const { requests, url } = await serveUrl([
      "I need the temperature.",
      "<<get_current_temperature>>",
      JSON.stringify({ location: "Paris, France", unit: "celsius" }),
      "Done.",
      "<<Finish>>",
      finish("22 °C"),
    ]);
    const args = [
      "chat",
      "--model",
      `openai:scripted@${url}`,
      "--agent",
      "toolgen",
      "--catalog",
      catalogFile,
    ];
    const out = await runCli([...args, "--tools", WEATHER, "--message", PARIS, "--json"]);
    rmSync(dir, { recursive: true, force: true });
    expect(JSON.parse(out.stdout)).toMatchObject({ answer: "22 °C", stoppedBecause: "answer" });
    expect(requests()[1]!.guided_choice).toEqual(["<<get_current_temperature>>", "<<Finish>>"]);
    expect(lastContent(requests()[2]!)).toContain(description);
  });

  it("toolgen chat --agent react recovers from an unknown tool over HTTP", async () => {
    const { url } = await serveUrl([
      "Action: weather\nAction Input: Paris",
      'Action: get_current_temperature\nAction Input: {"location": "Paris, France", "unit": "celsius"}',
      (body) => `Final Answer: ${lastContent(body).includes("Observation: 22") ? "22 °C" : "unknown"}`,
    ]);
    const out = await runCli([
      "chat",
      "--model",
      `openai:scripted@${url}`,
      "--agent",
      "react",
      "--tools",
      WEATHER,
      "--message",
      PARIS,
      "--json",
    ]);
    const result = JSON.parse(out.stdout);
    expect(result).toMatchObject({ answer: "22 °C", stoppedBecause: "answer" });
    expect(result.steps.filter((s: { type: string }) => s.type === "guard")).toHaveLength(1);
  });
});

const WEATHER = resolve(import.meta.dirname, "../../examples/weather.ts");
const PARIS = "Hey, what's the temperature in Paris right now?";

async function serveUrl(script: WireScript) {
  const server = await scriptedServer(script);
  servers.push(server);
  return { requests: () => bodies(server), url: server.baseURL };
}
