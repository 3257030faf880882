import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGateway } from "../../src/server/build.ts";
import type { Gateway, GatewayOptions } from "../../src/server/gateway.ts";
import { PassThroughResultSchema } from "../../src/server/relay.ts";
import { createGatewayServer } from "../../src/server/session.ts";
import { ROOT, textOf } from "../helpers/spawn-router.ts";

// The gateway in this process, its upstreams real child processes (test/server/fixtures/everything-upstream.mjs),
// its clients the SDK's own over in-memory transports.
const UPSTREAM = join(ROOT, "test/server/fixtures/everything-upstream.mjs");
const upstream = (name: string) => ({ command: process.execPath, args: [UPSTREAM, "--name", name] });

async function connect(gateway: Gateway, capabilities = {}): Promise<Client> {
  const [near, far] = InMemoryTransport.createLinkedPair();
  await createGatewayServer(gateway).connect(far);
  const client = new Client({ name: "gateway-test", version: "0" }, { capabilities });
  await client.connect(near);
  return client;
}

async function gatewayOf(names: string[], options: GatewayOptions): Promise<Gateway> {
  const mcpServers = Object.fromEntries(names.map((n) => [n, upstream(n)]));
  return buildGateway({ config: { mcpServers }, upstream: { onStderr: () => undefined }, ...options });
}

describe("gateway over one everything-style upstream, --expose all, prefixed names", () => {
  let gateway: Gateway;
  let client: Client;
  beforeAll(async () => {
    gateway = await gatewayOf(["ev"], { expose: "all", prefix: "always", separator: "." });
    client = await connect(gateway, { sampling: {}, elicitation: { form: {} } });
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it("lists every upstream tool under its namespaced name, the rest of its definition as the upstream wrote it", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("ev.test_simple_text");
    const sum = tools.find((t) => t.name === "ev.structured_sum")!;
    expect(sum).toMatchObject({
      title: "Structured sum",
      outputSchema: { type: "object", properties: { sum: { type: "integer" } }, required: ["sum"] },
      annotations: { readOnlyHint: true, idempotentHint: true },
      icons: [{ mimeType: "image/png" }],
      _meta: { "example.com/origin": "ev" },
    });
  });

  it("passes a result back exactly: content annotations and _meta, structuredContent, the result's _meta", async () => {
    const result = await client.request(
      { method: "tools/call", params: { name: "ev.structured_sum", arguments: { a: 2, b: 3 } } },
      PassThroughResultSchema, // the SDK's own schema would reorder keys: compare the bytes as sent
    );
    // What the upstream itself answers, asked directly: the gateway's answer must be the same bytes.
    const direct = new Client({ name: "direct", version: "0" });
    await direct.connect(new StdioClientTransport({ ...upstream("ev"), stderr: "ignore" }));
    const original = await direct.request(
      { method: "tools/call", params: { name: "structured_sum", arguments: { a: 2, b: 3 } } },
      PassThroughResultSchema,
    );
    await direct.close();
    expect(JSON.stringify(result)).toBe(JSON.stringify(original));
    // The upstream's own key order and a field the SDK does not know, kept.
    expect(JSON.stringify(result.content)).toBe(
      JSON.stringify([
        {
          type: "text",
          text: "5",
          "x-unknown-field": { kept: true },
          annotations: { audience: ["user"], priority: 0.5 },
          _meta: { unit: "none" },
        },
      ]),
    );
    expect(result).toMatchObject({ structuredContent: { sum: 5 }, _meta: { "example.com/trace": "t-1" } });
    const seen = await client.request(
      {
        method: "tools/call",
        params: { name: "ev.echo_meta", _meta: { "example.com/trace": "abc", progressToken: "mine" } },
      },
      PassThroughResultSchema,
    );
    // The client's _meta reaches the upstream, its progress token swapped for one the gateway tracks.
    expect(JSON.parse(textOf(seen))).toEqual({
      "example.com/trace": "abc",
      progressToken: expect.stringMatching(/^ev-\d+$/),
    });
    const mixed = (await client.callTool({ name: "ev.test_multiple_content_types" })) as CallToolResult;
    expect(mixed.content.map((c) => c.type)).toEqual(["text", "image", "resource", "resource_link"]);
  });

  it("forwards progress under the client's token, and log messages as setLevel allows", async () => {
    const progress: number[] = [];
    await client.callTool({ name: "ev.test_tool_with_progress" }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress).toEqual([0, 50, 100]);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await client.setLoggingLevel("info");
    await client.callTool({ name: "ev.test_tool_with_logging" });
    expect(logs).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "ev.test_tool_with_logging" });
    expect(logs).toHaveLength(3); // info messages now filtered out
  });

  it("forwards sampling and elicitation to the client and the answers back", async () => {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: "assistant",
      content: { type: "text", text: `echo ${JSON.stringify(request.params.messages[0]!.content)}` },
      model: "test",
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { username: "ana", email: "ana@example.com" },
    }));
    const sampled = await client.callTool({ name: "ev.test_sampling", arguments: { prompt: "hi" } });
    expect(textOf(sampled)).toBe('LLM response: echo {"type":"text","text":"hi"}');
    const elicited = await client.callTool({ name: "ev.test_elicitation", arguments: { message: "who?" } });
    expect(textOf(elicited)).toBe(
      'Elicitation completed: action=accept, content={"username":"ana","email":"ana@example.com"}',
    );
  });

  it("passes an upstream's cancellation of its sampling request on to the client", async () => {
    let cancelled = false;
    client.setRequestHandler(CreateMessageRequestSchema, async (_request, extra) => {
      await new Promise<void>((resolve) => {
        extra.signal.addEventListener("abort", () => ((cancelled = true), resolve()));
        setTimeout(resolve, 5_000);
      });
      return { role: "assistant", content: { type: "text", text: "too late" }, model: "test" };
    });
    const result = await client.callTool({ name: "ev.sampling_then_cancel" });
    expect(textOf(result)).toMatch(/^sampling cancelled/);
    await expect.poll(() => cancelled).toBe(true);
  });

  it("cancels the upstream call when the client cancels", async () => {
    const controller = new AbortController();
    const slow = client.callTool({ name: "ev.slow", arguments: { ms: 20_000 } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    await expect(slow).rejects.toThrow(/abort/i);
    await expect.poll(async () => textOf(await client.callTool({ name: "ev.cancellations" }))).toBe("1");
  });

  it("merges prompts (namespaced), resources, templates, subscriptions and completion", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain("ev.test_prompt_with_arguments");
    const prompt = await client.getPrompt({
      name: "ev.test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    });
    expect(JSON.stringify(prompt.messages)).toContain("arg1='a', arg2='b'");
    const done = await client.complete({
      ref: { type: "ref/prompt", name: "ev.test_prompt_with_arguments" },
      argument: { name: "arg1", value: "par" },
    });
    expect(done.completion.values).toEqual(["paris", "park", "party"]);
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === "test://static-text")?.name).toBe("ev.static-text");
    expect((await client.listResourceTemplates()).resourceTemplates[0]!.uriTemplate).toBe(
      "test://template/{id}/data",
    );
    const read = await client.readResource({ uri: "test://template/7/data" });
    expect(read.contents[0]).toMatchObject({ uri: "test://template/7/data", mimeType: "application/json" });
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: "test://watched-resource" });
    await expect.poll(() => updated).toEqual(["test://watched-resource"]);
    await client.unsubscribeResource({ uri: "test://watched-resource" });
    await expect(client.readResource({ uri: "nowhere://x" })).rejects.toThrow(/Resource not found/);
    // A request that does not fit its schema: -32602 naming the field, not an internal error.
    const bad = client.request({ method: "resources/read", params: {} } as never, PassThroughResultSchema);
    await expect(bad).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/params\.uri/) });
  });

  it("re-indexes when the upstream's tools change and tells the client", async () => {
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const grown = textOf(await client.callTool({ name: "ev.grow" }));
    expect(grown).toBe("grown_1");
    await expect.poll(() => changed).toBe(1);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("ev.grown_1");
    expect(textOf(await client.callTool({ name: "ev.grown_1" }))).toMatch(/unknown tool grown_1/); // the fixture's own answer
  });
});

describe("gateway names, exposure modes and call_tool", () => {
  it("conditional prefixes only names two upstreams share; never keeps the first and prefixes the repeat", async () => {
    const conditional = await gatewayOf(["a", "b"], { expose: "all", prefix: "conditional" });
    const never = await gatewayOf(["a", "b"], { expose: "all", prefix: "never", maxLength: 64 });
    try {
      const names = conditional.exposedTools.map((t) => t.name);
      expect(names).toContain("a__test_simple_text");
      expect(names).toContain("b__test_simple_text");
      const plain = never.exposedTools.map((t) => t.name);
      expect(plain).toContain("test_simple_text");
      expect(plain).toContain("b__test_simple_text");
      expect(new Set(plain).size).toBe(plain.length);
      expect(Math.max(...plain.map((n) => n.length))).toBeLessThanOrEqual(64);
    } finally {
      await Promise.all([conditional.close(), never.close()]);
    }
  }, 30_000);

  it("search mode: the three router tools, exact names first, wrongly typed values refused with the violation", async () => {
    const gateway = await gatewayOf(["ev"], { expose: "auto", toolTokenBudget: 10 });
    const client = await connect(gateway);
    try {
      expect(gateway.exposure).toBe("search");
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        "search_tools",
        "call_tool",
        "get_tool",
      ]);
      const found = await client.callTool({
        name: "search_tools",
        arguments: { query: "structured_sum", k: 3 },
      });
      expect((found.structuredContent as { results: { id: string }[] }).results[0]!.id).toBe(
        "ev&&structured_sum",
      );
      const refused = await client.callTool({
        name: "call_tool",
        arguments: { id: "ev&&structured_sum", arguments: { a: "2", b: 3 } },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/invalid arguments for ev&&structured_sum:\n- .*a.*integer/);
      const summed = await client.callTool({
        name: "call_tool",
        arguments: { id: "ev&&structured_sum", arguments: { a: 2, b: 3 } },
      });
      expect(summed.structuredContent).toEqual({ sum: 5 });
    } finally {
      await client.close();
      await gateway.close();
    }
  }, 30_000);
});
