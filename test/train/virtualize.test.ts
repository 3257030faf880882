import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { CHAT_SPECIAL_TOKENS, encodeChat } from "../../src/toolgen/chat-encoding.ts";
import { toolName, virtualizeTools } from "../../src/train/virtualize.ts";

const entries: CatalogEntry[] = ["Weather&&Get current", "Stocks&&Quote", "calculator"].map((id) => {
  const [tool, api = ""] = id.split("&&");
  return { id, tool: tool!, api, description: "", parameters: { type: "object", properties: {} }, doc: {} };
});

function tinyModel() {
  const tokenizer = Tokenizer.train(
    ["the weather today, get current weather", "stocks quote price calculator finish"],
    300,
    { specialTokens: [...CHAT_SPECIAL_TOKENS] },
  );
  const config = presetConfig("tiny", tokenizer.vocabSize, {
    hiddenSize: 16,
    intermediateSize: 32,
    numLayers: 1,
    numHeads: 2,
  });
  return { tokenizer, model: new Llama(config, initParams(config, 5)) };
}

describe("tool virtualization", () => {
  it("keeps every existing row and starts each tool row at the mean of its name's rows", () => {
    const { tokenizer, model } = tinyModel();
    const oldSize = model.config.vocabSize;
    const d = model.config.hiddenSize;
    const before = {
      emb: Float32Array.from(model.params.get("model.embed_tokens.weight")),
      head: Float32Array.from(model.params.get("lm_head.weight")),
    };
    const v = virtualizeTools(model, tokenizer, entries);
    expect(v.model.config.vocabSize).toBe(oldSize + entries.length + 1);
    expect(tokenizer.vocabSize).toBe(oldSize); // the input tokenizer is untouched
    for (const [name, old] of [
      ["model.embed_tokens.weight", before.emb],
      ["lm_head.weight", before.head],
    ] as const) {
      const grown = v.model.params.get(name);
      expect(Array.from(grown.subarray(0, oldSize * d))).toEqual(Array.from(old));
      entries.forEach((e) => {
        const id = v.toolTokenIds.get(e.id)!;
        const src = tokenizer.encode(toolName(e));
        for (let i = 0; i < d; i++) {
          const mean = src.reduce((s, t) => s + old[t * d + i]!, 0) / src.length;
          expect(grown[id * d + i]).toBeCloseTo(mean, 6);
        }
      });
    }
    // Every other weight is the same too.
    for (const t of model.params.tensors) {
      if (t.name.includes("embed_tokens") || t.name.includes("lm_head")) continue;
      expect(Array.from(v.model.params.get(t.name))).toEqual(Array.from(t.data));
    }
  });

  it("tool tokens are single ids that are never split, and virtualizing twice adds nothing", () => {
    const { tokenizer, model } = tinyModel();
    const v = virtualizeTools(model, tokenizer, entries);
    const id = v.toolTokenIds.get("Weather&&Get current")!;
    expect(v.tokenizer.encode("<<Weather&&Get current>>")).toEqual([id]);
    expect(v.tokenizer.encode("<<Finish>>")).toEqual([v.finishId]);
    const enc = encodeChat(v.tokenizer, [
      { role: "user", content: "weather?" },
      { role: "assistant", content: "<<Weather&&Get current>>" },
    ]);
    const trained = enc.ids.filter((_, i) => enc.lossMask[i] === 1);
    expect(trained).toEqual([id, v.tokenizer.tokenToId("<|eot_id|>")]);
    const again = virtualizeTools(v.model, v.tokenizer, entries);
    expect(again.model.config.vocabSize).toBe(v.model.config.vocabSize);
    expect(again.toolTokenIds).toEqual(v.toolTokenIds);
  });
});
