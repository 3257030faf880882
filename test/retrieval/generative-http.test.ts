import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { FINISH_TOKEN, toolToken } from "../../src/toolgen/tokens.ts";
import { loadCatalog } from "../../src/catalog/load.ts";
import { createRetriever } from "../../src/retrieval/create.ts";
import { HttpGenerativeRetriever } from "../../src/retrieval/generative-http.ts";
import { httpActionDecoder } from "../../src/retrieval/action-decoder-http.ts";
import { register as registerRetrieve } from "../../src/cli/retrieve.ts";
import { runCommands } from "../helpers/run-commands.ts";
import { sharedData } from "../helpers/shared-data.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";
import { FakeToolGenServer, type ServerKind } from "../helpers/fake-toolgen-server.ts";

const { entries } = syntheticCatalog();
const vocabOf = (catalog: readonly CatalogEntry[], first = 128256) =>
  new Map(catalog.map((e, i) => [toolToken(e.id), first + i]));

let servers: FakeToolGenServer[] = [];
async function serve(kind: ServerKind, catalog = entries, options = {}): Promise<FakeToolGenServer> {
  const s = await new FakeToolGenServer(kind, vocabOf(catalog), options).start();
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
});

describe("ToolGen retrieval against vLLM's OpenAI-compatible server", () => {
  it("restricts the step to tool-token ids and ranks tools from the top log-probabilities", async () => {
    const server = await serve("vllm");
    const r = await HttpGenerativeRetriever.open(entries, {
      spec: `openai:toolgen-8b@${server.baseURL}`,
      server: "vllm",
    });
    const hits = await r.search("check the weather forecast please", { k: 5 });
    expect(hits[0]!.id).toBe("weather&&Forecast");
    expect(hits).toHaveLength(5);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    const [tokenize, chat] = server.requests;
    expect(tokenize!.url).toBe("/tokenize");
    expect(tokenize!.body).toEqual({
      model: "toolgen-8b",
      prompt: entries.map((e) => toolToken(e.id)).join(""),
      add_special_tokens: false,
    });
    expect(chat!.url).toBe("/v1/chat/completions");
    expect(chat!.body).toMatchObject({
      model: "toolgen-8b",
      messages: [{ role: "user", content: "check the weather forecast please" }],
      max_tokens: 1,
      temperature: 0,
      logprobs: true,
      top_logprobs: 20,
      return_tokens_as_token_ids: true,
    });
    expect([...(chat!.body.allowed_token_ids as number[])].sort()).toEqual(
      [...vocabOf(entries).values()].sort(),
    );
  });

  it("asks for as many log-probabilities as configured, and reports the server's refusal", async () => {
    const big = await serve("vllm", entries, { maxLogprobs: 50 });
    const spec = `openai:toolgen-8b@${big.baseURL}`;
    const r = await HttpGenerativeRetriever.open(entries, { spec, server: "vllm", topLogprobs: 50 });
    expect(await r.search("stock ticker", { k: 30 })).toHaveLength(20); // every tool, ranked
    expect(big.requests.at(-1)!.body.top_logprobs).toBe(50);
    const small = await serve("vllm");
    const s = await HttpGenerativeRetriever.open(entries, {
      spec: `openai:toolgen-8b@${small.baseURL}`,
      server: "vllm",
      topLogprobs: 30,
    });
    await expect(s.search("stock ticker", { k: 5 })).rejects.toThrow(/greater than max allowed: 20/);
  });

  it("says so when the server returns no log-probabilities", async () => {
    const server = await serve("vllm", entries, { noLogprobs: true });
    const r = await HttpGenerativeRetriever.open(entries, {
      spec: `openai:toolgen-8b@${server.baseURL}`,
      server: "vllm",
    });
    await expect(r.search("weather", { k: 3 })).rejects.toThrow(
      /no choices\[0\]\.logprobs\.content\[0\]\.top_logprobs/,
    );
  });

  it("explains a served model that was not virtualized for this catalog", async () => {
    const other = syntheticCatalog().entries.slice(0, 5);
    const server = await serve("vllm", other);
    await expect(
      HttpGenerativeRetriever.open(entries, { spec: `openai:toolgen-8b@${server.baseURL}`, server: "vllm" }),
    ).rejects.toThrow(/splits the tool token <<\w+&&\w+>> into \d+ tokens/);
  });
});

describe("ToolGen retrieval against llama.cpp's server", () => {
  it("raises tool tokens with logit_bias and reads n_probs", async () => {
    const server = await serve("llamacpp");
    const r = await HttpGenerativeRetriever.open(entries, {
      spec: `openai:toolgen-8b@${server.baseURL}`,
      server: "llamacpp",
    });
    const hits = await r.search("translate this to spanish", { k: 3 });
    expect(hits[0]!.id).toBe("translate&&Text");
    const [tokenize, chat] = server.requests;
    expect(tokenize!.body).toMatchObject({
      content: entries.map((e) => toolToken(e.id)).join(""),
      add_special: false,
    });
    expect(chat!.body).toMatchObject({ n_probs: 20, top_logprobs: 20, logprobs: true, max_tokens: 1 });
    expect((chat!.body.logit_bias as number[][]).map((p) => p[0])).toEqual([...vocabOf(entries).values()]);
  });
});

describe("the ToolGen agent's action step over HTTP", () => {
  const options = [...entries.map((e) => toolToken(e.id)), FINISH_TOKEN];
  const messages = [
    { role: "system" as const, content: "You are an AutoGPT" },
    { role: "user" as const, content: "what is the weather forecast in Lisbon\nBegin!" },
    { role: "assistant" as const, content: "I should check the weather." },
    { role: "user" as const, content: "Generate the action." },
  ];
  const start = async (kind: ServerKind) => {
    const vocab = new Map([...vocabOf(entries), [FINISH_TOKEN, 200000]]);
    const s = await new FakeToolGenServer(kind, vocab).start();
    servers.push(s);
    return { server: s, ids: options.map((o) => vocab.get(o)!) };
  };

  it("vLLM: one token among the action tokens (allowed_token_ids), ids asked once", async () => {
    const { server, ids } = await start("vllm");
    const decode = await httpActionDecoder({ spec: `openai:toolgen-8b@${server.baseURL}`, server: "vllm" });
    expect(await decode({ messages, options, temperature: 0 })).toBe("<<weather&&Forecast>>");
    expect(await decode({ messages, options, temperature: 0.7 })).toBe("<<weather&&Forecast>>");
    expect(server.requests.filter((r) => r.url === "/tokenize")).toHaveLength(1);
    const chat = server.requests.filter((r) => r.url === "/v1/chat/completions");
    expect(chat[0]!.body).toMatchObject({ allowed_token_ids: ids, max_tokens: 1, temperature: 0 });
    expect(chat[0]!.body.messages).toHaveLength(4);
    expect(chat[1]!.body.temperature).toBe(0.7);
  });

  it("llama.cpp: logit_bias raising exactly the action tokens", async () => {
    const { server, ids } = await start("llamacpp");
    const decode = await httpActionDecoder({
      spec: `openai:toolgen-8b@${server.baseURL}`,
      server: "llamacpp",
    });
    expect(await decode({ messages, options, temperature: 0 })).toBe("<<weather&&Forecast>>");
    const chat = server.requests.find((r) => r.url === "/v1/chat/completions")!;
    expect(chat.body.logit_bias).toEqual(ids.map((id) => [id, 100]));
  });

  it("falls back to a choice constraint when the options are not single tokens", async () => {
    const { server } = await start("vllm");
    const decode = await httpActionDecoder({ spec: `openai:toolgen-8b@${server.baseURL}`, server: "vllm" });
    const written = ["get_forecast_for_weather", "Finish"];
    expect(await decode({ messages, options: written, temperature: 0 })).toBe("get_forecast_for_weather");
    const chat = server.requests.find((r) => r.url === "/v1/chat/completions")!;
    expect(chat.body.guided_choice).toEqual(written);
    expect(chat.body.allowed_token_ids).toBeUndefined();
  });
});

describe("createRetriever and the CLI with --model openai:M@URL", () => {
  const dir = mkdtempSync(join(tmpdir(), "http-toolgen-"));
  // A MetaTool-format catalog: tool name → description; ids (and tokens) are the names.
  const catalogFile = join(dir, "tools.json");
  writeFileSync(
    catalogFile,
    JSON.stringify({ WeatherNow: "current weather", StockQuote: "stock prices", Translator: "translate" }),
  );

  it("toolgen retrieve sends the constraint fields a vLLM server needs", async () => {
    const catalog = loadCatalog(catalogFile);
    const server = await serve("vllm", catalog);
    const spec = `openai:toolgen-8b@${server.baseURL}`;
    const { code, stdout, stderr } = await runCommands(
      [registerRetrieve],
      [
        "retrieve",
        "what is the weather now",
        "--catalog",
        catalogFile,
        "--retriever",
        "toolgen",
        "--model",
        spec,
        "-k",
        "2",
        "--json",
      ],
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.results.map((h: { id: string }) => h.id)).toEqual(["WeatherNow", expect.any(String)]);
    const chat = server.requests.find((q) => q.url === "/v1/chat/completions")!;
    expect(chat.body.allowed_token_ids).toEqual([128256, 128257, 128258]);
    expect(chat.body.logprobs).toBe(true);
    const hybrid = await createRetriever("hybrid", { catalog, model: spec });
    expect((await hybrid.search("stock prices", { k: 3 })).map((h) => h.id)).toContain("StockQuote");
  });

  it("TOOLGEN_SERVER_DIALECT=llamacpp switches to llama.cpp's fields", async () => {
    const catalog = loadCatalog(catalogFile);
    const server = await serve("llamacpp", catalog);
    process.env.TOOLGEN_SERVER_DIALECT = "llamacpp";
    try {
      const r = await createRetriever("toolgen", { catalog, model: `openai:toolgen-8b@${server.baseURL}` });
      expect((await r.search("I need a translator", { k: 1 }))[0]!.id).toBe("Translator");
      expect(server.requests.at(-1)!.body.n_probs).toBe(20);
    } finally {
      delete process.env.TOOLGEN_SERVER_DIALECT;
    }
  });
});

const stb = sharedData("stabletoolbench/apis.json");
describe.skipIf(!stb)("served retrieval over the shared StableToolBench catalog", () => {
  it("maps all 2,479 tool tokens in one /tokenize call and returns catalog ids", async () => {
    const catalog = loadCatalog(stb!);
    const server = await serve("vllm", catalog);
    const r = await HttpGenerativeRetriever.open(catalog, {
      spec: `openai:toolgen-8b@${server.baseURL}`,
      server: "vllm",
    });
    const hits = await r.search("get the youtube video details", { k: 5 });
    const ids = new Set(catalog.map((e) => e.id));
    expect(hits).toHaveLength(5);
    for (const h of hits) expect(ids).toContain(h.id);
    expect(server.requests.filter((q) => q.url === "/tokenize")).toHaveLength(1);
    expect((server.requests[1]!.body.allowed_token_ids as number[]).length).toBe(catalog.length);
  });
});
