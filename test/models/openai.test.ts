import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/chat/messages.ts";
import {
  ModelHttpError,
  ModelResponseError,
  ModelTimeoutError,
  UnsupportedConstraintError,
} from "../../src/models/http-errors.ts";
import type { StreamEvent } from "../../src/models/model.ts";
import { OpenAIChatModel, type OpenAIChatModelOptions } from "../../src/models/openai.ts";
import type { ToolJson } from "../../src/tools/types.ts";
import {
  FakeOpenAIServer,
  completion,
  finishChunk,
  sse,
  status,
  textChunks,
  usageChunk,
} from "../helpers/fake-openai-server.ts";

const weatherTool: ToolJson = {
  type: "function",
  function: {
    name: "get_current_temperature",
    description: "Get the current temperature at a location.",
    parameters: {
      type: "object",
      properties: { location: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
      required: ["location", "unit"],
    },
  },
};
const user: Message[] = [{ role: "user", content: "Hey, what's the temperature in Paris right now?" }];

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await new FakeOpenAIServer().start();
});
afterEach(async () => {
  await server.stop();
});

const model = (options: Partial<OpenAIChatModelOptions> = {}) =>
  new OpenAIChatModel({
    model: "m",
    baseURL: server.baseURL,
    apiKey: "sk-test",
    retryBaseMs: 5,
    timeoutMs: 2000,
    ...options,
  });

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("OpenAIChatModel.generate", () => {
  it("sends tools, tool_choice and wire-form history, and reads a tool call with object arguments", async () => {
    server.enqueue(
      completion(
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_9",
              type: "function",
              function: {
                name: "get_current_temperature",
                arguments: '{"location": "Paris, France", "unit": "celsius"}',
              },
            },
          ],
        },
        "tool_calls",
      ),
    );
    const history: Message[] = [
      ...user,
      {
        role: "assistant",
        content: "",
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: { name: "get_current_temperature", arguments: { location: "Oslo" } },
          },
        ],
      },
      { role: "tool", content: "22", tool_call_id: "c1" },
    ];
    const result = await model().generate(history, {
      tools: [weatherTool],
      toolChoice: { name: "get_current_temperature" },
      temperature: 0,
    });
    expect(result.message).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [
        {
          id: "call_9",
          type: "function",
          function: {
            name: "get_current_temperature",
            arguments: { location: "Paris, France", unit: "celsius" },
          },
        },
      ],
    });
    expect(result.finishReason).toBe("tool_calls");
    expect(result.usage).toEqual({ promptTokens: 11, completionTokens: 7 });
    const request = server.requests[0]!;
    expect(request.url).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(request.body).toMatchObject({
      model: "m",
      tools: [weatherTool],
      tool_choice: { type: "function", function: { name: "get_current_temperature" } },
      temperature: 0,
    });
    const sent = request.body!.messages as Record<string, unknown>[];
    // The OpenAI docs' warning: the wire carries arguments as a JSON string.
    expect(sent[1]).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "get_current_temperature", arguments: '{"location":"Oslo"}' },
        },
      ],
    });
    expect(sent[2]).toEqual({ role: "tool", content: "22", tool_call_id: "c1" });
  });

  it("retries 429 (honouring Retry-After) then succeeds", async () => {
    server.enqueue(
      status(429, { error: { message: "slow down" } }, { "retry-after": "0" }),
      completion({ role: "assistant", content: "ok" }),
    );
    const result = await model().generate(user);
    expect(result.message.content).toBe("ok");
    expect(server.requests).toHaveLength(2);
  });

  it("retries a connection reset then succeeds", async () => {
    server.enqueue(
      (_req, _res, socket) => void socket.destroy(),
      completion({ role: "assistant", content: "after reset" }),
    );
    expect((await model().generate(user)).message.content).toBe("after reset");
    expect(server.requests).toHaveLength(2);
  });

  it("gives up after maxRetries on 5xx, carrying the status and the server's message", async () => {
    server.enqueue(...Array.from({ length: 3 }, () => status(503, { error: { message: "overloaded" } })));
    const error = await model({ maxRetries: 2 })
      .generate(user)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect(error).toMatchObject({ status: 503, serverMessage: "overloaded", attempts: 3 });
    expect((error as Error).message).toMatch(/answered HTTP 503: overloaded \(after 3 attempts\)/);
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 4xx and reports the server's message", async () => {
    server.enqueue(
      status(400, {
        error: { message: "tools[0].function.name is required", type: "invalid_request_error" },
      }),
    );
    await expect(model().generate(user)).rejects.toThrow(/HTTP 400: tools\[0\]\.function\.name is required/);
    expect(server.requests).toHaveLength(1);
  });

  it("times out on a socket that never answers", async () => {
    server.enqueue(() => undefined); // accept the request, never respond
    const started = Date.now();
    const error = await model({ timeoutMs: 300, maxRetries: 0 })
      .generate(user)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect((error as Error).message).toMatch(/no response .* within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("reports malformed bodies clearly", async () => {
    server.enqueue(status(200, "<html>gateway</html>"), status(200, { id: "x", choices: [] }));
    await expect(model().generate(user)).rejects.toThrow(ModelResponseError);
    await expect(model().generate(user)).rejects.toThrow(/has no choices\[0\]\.message/);
  });

  it("repairs broken argument JSON and reads tool calls a server left in the text", async () => {
    server.enqueue(
      completion({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: '{"x": 1,' } }],
      }),
      completion({
        role: "assistant",
        content: 'Sure.\n<tool_call>\n{"name": "f", "arguments": {"y": 2}}\n</tool_call>',
      }),
    );
    expect((await model().generate(user)).message.tool_calls![0]!.function.arguments).toEqual({ x: 1 });
    const textual = await model({ toolCallFormat: "hermes" }).generate(user);
    expect(textual.message).toEqual({
      role: "assistant",
      content: "Sure.",
      tool_calls: [{ id: "call_0", type: "function", function: { name: "f", arguments: { y: 2 } } }],
    });
  });

  it("lists models", async () => {
    server.enqueue(status(200, { object: "list", data: [{ id: "qwen2.5-7b" }, { id: "llama-3.1-8b" }] }));
    expect(await model().listModels()).toEqual(["qwen2.5-7b", "llama-3.1-8b"]);
    expect(server.requests[0]).toMatchObject({ method: "GET", url: "/v1/models" });
  });

  it("stops when the caller aborts", async () => {
    server.enqueue(() => undefined);
    const controller = new AbortController();
    const pending = model().generate(user, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user pressed ctrl-c")), 50);
    await expect(pending).rejects.toThrow("user pressed ctrl-c");
  });
});

describe("constraints", () => {
  it("passes json-schema as response_format, choice/grammar per dialect, and refuses what a server cannot do", async () => {
    server.enqueue(...Array.from({ length: 4 }, () => completion({ role: "assistant", content: "x" })));
    const schema = { type: "object", properties: { a: { type: "number" } } };
    await model().generate(user, { constraint: { kind: "json-schema", schema } });
    await model({ dialect: "vllm" }).generate(user, {
      constraint: { kind: "choice", options: ["yes", "no"] },
    });
    await model({ dialect: "llamacpp" }).generate(user, {
      constraint: { kind: "choice", options: ["yes", "no"] },
    });
    await model({ dialect: "llamacpp" }).generate(user, {
      constraint: { kind: "grammar", gbnf: 'root ::= "a"' },
    });
    const bodies = server.requests.map((r) => r.body!);
    expect(bodies[0]!.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "response", schema, strict: true },
    });
    expect(bodies[1]!.guided_choice).toEqual(["yes", "no"]);
    expect(bodies[1]!.grammar).toBeUndefined();
    expect(bodies[2]!.grammar).toBe('root ::= "yes" | "no"');
    expect(bodies[3]!.grammar).toBe('root ::= "a"');
    await expect(
      model({ dialect: "openai" }).generate(user, { constraint: { kind: "choice", options: ["a"] } }),
    ).rejects.toThrow(UnsupportedConstraintError);
    await expect(model().generate(user, { constraint: { kind: "tokens", ids: [1, 2] } })).rejects.toThrow(
      /HTTP server cannot enforce/,
    );
    expect(server.requests).toHaveLength(4);
  });
});

describe("OpenAIChatModel.stream", () => {
  it("reassembles text whose SSE pieces cut through JSON, lines and UTF-8 characters", async () => {
    const text = "The temperature in Paris, France right now is 22°C. 🌤️ Enjoy!";
    server.enqueue(sse([...textChunks(text, 3), finishChunk("stop"), usageChunk], { pieceBytes: 7 }));
    const events = await collect(model().stream(user));
    const deltas = events.flatMap((e) => (e.type === "text" ? [e.delta] : []));
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join("")).toBe(text);
    const done = events.at(-1);
    expect(done).toMatchObject({
      type: "done",
      result: {
        message: { content: text },
        finishReason: "stop",
        usage: { promptTokens: 20, completionTokens: 9 },
      },
    });
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("joins tool-call deltas split across chunks, for two calls", async () => {
    const call = (index: number, fn: Record<string, unknown>, id?: string) => ({
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index, ...(id ? { id, type: "function" } : {}), function: fn }] },
        },
      ],
    });
    server.enqueue(
      sse(
        [
          call(0, { name: "get_current_temperature", arguments: "" }, "call_a"),
          call(0, { arguments: '{"loca' }),
          call(0, { arguments: 'tion": "Paris, Fr' }),
          call(1, { name: "get_current_wind_speed", arguments: '{"location"' }, "call_b"),
          call(0, { arguments: 'ance", "unit": "celsius"}' }),
          call(1, { arguments: ': "Paris, France"}' }),
          finishChunk("tool_calls"),
        ],
        { pieceBytes: 13 },
      ),
    );
    const events = await collect(model().stream(user, { tools: [weatherTool] }));
    const fragments = events.filter((e) => e.type === "tool_call_delta");
    expect(fragments.length).toBe(6);
    expect(fragments[0]).toMatchObject({ index: 0, id: "call_a", name: "get_current_temperature" });
    const done = events.at(-1) as Extract<StreamEvent, { type: "done" }>;
    expect(done.result.finishReason).toBe("tool_calls");
    expect(done.result.message.tool_calls).toEqual([
      {
        id: "call_a",
        type: "function",
        function: {
          name: "get_current_temperature",
          arguments: { location: "Paris, France", unit: "celsius" },
        },
      },
      {
        id: "call_b",
        type: "function",
        function: { name: "get_current_wind_speed", arguments: { location: "Paris, France" } },
      },
    ]);
  });

  it("fails clearly when the server closes mid-stream", async () => {
    server.enqueue(async (_req, res, socket) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify(textChunks("Hello wor", 4)[1])}\n\n`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      socket.destroy();
    });
    const seen: StreamEvent[] = [];
    const error = await (async () => {
      for await (const event of model().stream(user)) seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ type: "text", delta: "Hell" }]);
    expect(error).toBeInstanceOf(ModelResponseError);
    expect((error as Error).message).toMatch(
      /connection broke while streaming|stream ended before the server finished/,
    );
  });

  it("fails clearly when a stream ends without finishing, and on a mid-stream error event", async () => {
    server.enqueue(
      sse(textChunks("partial", 3), { done: false }),
      sse([...textChunks("a", 1), { error: { message: "CUDA out of memory" } }]),
    );
    await expect(collect(model().stream(user))).rejects.toThrow(/stream ended before the server finished/);
    await expect(collect(model().stream(user))).rejects.toThrow(/error mid-stream: CUDA out of memory/);
  });

  it("times out when a stream stalls between chunks", async () => {
    server.enqueue(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify(textChunks("Hi", 2)[1])}\n\n`);
      // then nothing
    });
    await expect(collect(model({ timeoutMs: 300 }).stream(user))).rejects.toThrow(ModelTimeoutError);
  });

  it("streams tool calls a server left in the text, as tool-call events", async () => {
    const text = 'Let me check.<tool_call>\n{"name": "f", "arguments": {"q": "ä"}}\n</tool_call>';
    server.enqueue(sse([...textChunks(text, 5), finishChunk("stop")], { pieceBytes: 9 }));
    const events = await collect(model({ toolCallFormat: "hermes" }).stream(user));
    expect(events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("")).toBe("Let me check.");
    const done = events.at(-1) as Extract<StreamEvent, { type: "done" }>;
    expect(done.result.message).toEqual({
      role: "assistant",
      content: "Let me check.",
      tool_calls: [{ id: "call_0", type: "function", function: { name: "f", arguments: { q: "ä" } } }],
    });
    expect(done.result.finishReason).toBe("tool_calls");
  });
});

describe("construction", () => {
  it("rejects bad base URLs with an example of a good one", () => {
    expect(() => new OpenAIChatModel({ model: "m", baseURL: "localhost:8000" })).toThrow(
      /not a URL|must be http/,
    );
    expect(() => new OpenAIChatModel({ model: "m", baseURL: "ftp://x/v1" })).toThrow(/must be http/);
    expect(new OpenAIChatModel({ model: "m", baseURL: "http://h:1/v1/" }).id).toBe("openai:m@http://h:1/v1");
  });
});
