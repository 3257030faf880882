import { describe, expect, it } from "vitest";
import type { TokenModel, TokenSession } from "../../src/models/model.ts";
import { GenerativeRetriever, buildIdTrie } from "../../src/retrieval/generative.ts";
import type { ToolIndex } from "../../src/toolgen/ids.ts";
import { TokenTrie } from "../../src/retrieval/trie.ts";

const VOCAB = [
  "<|im_start|>",
  "<|im_end|>",
  "user",
  "assistant",
  "rain",
  "stocks",
  "<<w>>",
  "<<s>>",
  "0",
  "1",
  "oops",
];

/** Words are tokens. The next-token scores depend on the last token, so beams have something to choose from. */
function wordModel(prefer: Record<string, string>): TokenModel {
  const id = (w: string) => VOCAB.indexOf(w);
  const logits = (prefix: number[]) => {
    const last = VOCAB[prefix[prefix.length - 1] ?? 0]!;
    const query = prefix.map((t) => VOCAB[t]).find((w) => w === "rain" || w === "stocks") ?? "rain";
    const want = last === "assistant" ? prefer[query]! : (prefer[`${query}:${last}`] ?? "<|im_end|>");
    return Float32Array.from(VOCAB, (w) => (w === want ? 4 : w === "oops" ? 3 : 0));
  };
  const open = (prefix: number[]): TokenSession => ({
    append: async (ids) => logits((prefix = [...prefix, ...ids])),
    fork: async () => open([...prefix]),
    dispose: () => {},
  });
  return {
    vocabSize: VOCAB.length,
    tokenize: (t) =>
      t
        .split(/(<\|im_start\|>|<\|im_end\|>|\s+)/)
        .filter((w) => w.trim() !== "")
        .map(id),
    detokenize: (ids) => ids.map((i) => VOCAB[i]).join(" "),
    tokenId: (t) => (VOCAB.includes(t) ? id(t) : undefined),
    logits: async (ids) => logits(ids),
    session: async () => open([]),
  };
}

describe("generative retriever", () => {
  it("atomic ids: one pass, tool tokens ranked by logit, other tokens never returned", async () => {
    const index: ToolIndex = { kind: "atomic", texts: { weather: "<<w>>", stocks: "<<s>>" } };
    const r = new GenerativeRetriever(wordModel({ rain: "<<w>>", stocks: "<<s>>" }), index, {
      chatFormat: "chatml",
    });
    expect((await r.search("stocks today", { k: 2 })).map((h) => h.id)).toEqual(["stocks", "weather"]);
    expect((await r.search("rain", { k: 5 })).map((h) => h.id)).toEqual(["weather", "stocks"]);
  });

  it("multi-token ids: trie-constrained beams; unconstrained decoding counts hallucinations", async () => {
    const index: ToolIndex = { kind: "numeric", texts: { weather: "0 1", stocks: "1 0" } };
    const model = wordModel({ rain: "oops", stocks: "1", "stocks:1": "0" });
    const trie = buildIdTrie(model, index, "chatml");
    expect(trie.valueOf([VOCAB.indexOf("0"), VOCAB.indexOf("1"), 1])).toBe("weather");
    const held = new GenerativeRetriever(model, index, { chatFormat: "chatml" });
    expect((await held.search("stocks", { k: 2 }))[0]!.id).toBe("stocks");
    const rain = await held.search("rain", { k: 2 });
    expect(rain.map((h) => h.id).sort()).toEqual(["stocks", "weather"]); // never "oops", which the model prefers
    const free = new GenerativeRetriever(model, index, { constrained: false, chatFormat: "chatml" });
    await free.search("rain", { k: 2 });
    await free.search("stocks", { k: 2 });
    expect(free.hallucinations).toEqual({ generations: 2, invalid: 1 });
    expect(free.name).toBe("toolgen-unconstrained");
  });

  it("counts raw outputs before filtering: a healthy trie gives 0 invalid, a broken one shows up", async () => {
    const atomic: ToolIndex = { kind: "atomic", texts: { weather: "<<w>>", stocks: "<<s>>" } };
    const model = wordModel({ rain: "<<w>>", stocks: "<<s>>" });
    const healthy = new GenerativeRetriever(model, atomic, { chatFormat: "chatml" });
    for (const q of ["rain", "stocks"]) await healthy.search(q, { k: 2 });
    expect(healthy.rawOutputs).toEqual({ generations: 2, outputs: 4, invalid: 0, invalidTop1: 0 });
    // The bug: "weather" wired to the token "oops", which the model likes. The filter downstream trusts the trie,
    // so the results still look like catalog ids; only the raw count can tell.
    const broken = TokenTrie.from([
      ["weather", [VOCAB.indexOf("oops")]],
      ["stocks", [VOCAB.indexOf("<<s>>")]],
    ]);
    const bad = new GenerativeRetriever(model, atomic, { chatFormat: "chatml", trie: broken });
    expect((await bad.search("rain", { k: 2 })).map((h) => h.id)).toEqual(["weather", "stocks"]);
    expect(bad.rawOutputs).toMatchObject({ generations: 1, invalid: 1, invalidTop1: 1 });

    const numeric: ToolIndex = { kind: "numeric", texts: { weather: "0 1", stocks: "1 0" } };
    const beams = wordModel({ rain: "oops", stocks: "1", "stocks:1": "0" });
    const good = new GenerativeRetriever(beams, numeric, { chatFormat: "chatml" });
    await good.search("stocks", { k: 2 });
    expect(good.rawOutputs).toMatchObject({ generations: 1, invalid: 0 });
    // A trie that lost the end token and the second token of "weather": its hypothesis ends early.
    const end = VOCAB.indexOf("<|im_end|>");
    const cut = TokenTrie.from([
      ["weather", [VOCAB.indexOf("0")]],
      ["stocks", [VOCAB.indexOf("1"), VOCAB.indexOf("0"), end]],
    ]);
    const wrong = new GenerativeRetriever(beams, numeric, { chatFormat: "chatml", trie: cut });
    await wrong.search("stocks", { k: 2 });
    expect(wrong.rawOutputs.invalid).toBe(1);
  });
});
