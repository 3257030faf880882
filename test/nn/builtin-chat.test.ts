import { describe, expect, it } from "vitest";
import type { Message } from "../../src/chat/messages.ts";
import { renderChat } from "../../src/chat/templates/render.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BuiltinChatModel } from "../../src/models/builtin-chat.ts";
import { resolveModel } from "../../src/models/resolve.ts";
import { saveCheckpoint } from "../../src/nn/checkpoint.ts";
import { BuiltinTokenModel } from "../../src/models/builtin.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { LLAMA3_SPECIAL_TOKENS } from "../../src/nn/train/text.ts";
import { train } from "../../src/nn/train/trainer.ts";

const tok = Tokenizer.train(["ping pong yes no maybe the weather in lisbon"], 300, {
  specialTokens: LLAMA3_SPECIAL_TOKENS,
});
const cfg = presetConfig("tiny", tok.vocabSize, {
  hiddenSize: 32,
  intermediateSize: 64,
  numLayers: 2,
  numHeads: 2,
  maxPositions: 64,
});
const user: Message[] = [{ role: "user", content: "ping" }];

/** A chat sample in the Llama-3 format with the loss on the assistant reply (and its <|eot_id|>) only. */
function chatSample(messages: Message[]): { ids: number[]; lossMask: boolean[] } {
  const prompt = tok.encode(renderChat("llama3", messages.slice(0, -1), { addGenerationPrompt: true }));
  const ids = tok.encode(renderChat("llama3", messages));
  expect(ids.slice(0, prompt.length)).toEqual(prompt);
  return { ids, lossMask: ids.map((_, i) => i >= prompt.length) };
}

describe("BuiltinChatModel (Llama-3 chat format)", () => {
  it("learns a reply from a masked chat sample and generates it greedily, streaming the same text", async () => {
    const model = new Llama(cfg, initParams(cfg, 2));
    const sample = chatSample([...user, { role: "assistant", content: "pong" }]);
    await train(
      model,
      { kind: "samples", samples: [sample], padId: 0 },
      { steps: 40, batchSize: 1, lr: 1e-2, seed: 1 },
    );
    const chat = new BuiltinChatModel(new BuiltinTokenModel(model, tok));
    const result = await chat.generate(user, { maxTokens: 8 });
    expect(result.message).toEqual({ role: "assistant", content: "pong" });
    expect(result.finishReason).toBe("stop");
    expect(result.usage.promptTokens).toBe(sample.lossMask.indexOf(true));
    let streamed = "";
    for await (const e of chat.stream(user, { maxTokens: 8 })) if (e.type === "text") streamed += e.delta;
    expect(streamed).toBe("pong");
    const stopped = await chat.generate(user, { maxTokens: 8, stop: ["ng"] });
    expect(stopped.message.content).toBe("po");
  });

  it("applies choice and tokens constraints and refuses unsupported kinds", async () => {
    const chat = new BuiltinChatModel(new BuiltinTokenModel(new Llama(cfg, initParams(cfg, 5)), tok));
    for (const seed of [1, 2, 3]) {
      const r = await chat.generate(user, {
        constraint: { kind: "choice", options: ["yes", "no", "maybe"] },
        temperature: 1,
        seed,
      });
      expect(["yes", "no", "maybe"]).toContain(r.message.content);
    }
    const ids = tok.encode(" weather");
    const r = await chat.generate(user, { constraint: { kind: "tokens", ids }, maxTokens: 1 });
    expect(ids.map((i) => tok.decode([i]))).toContain(r.message.content);
    await expect(
      chat.generate(user, { constraint: { kind: "grammar", gbnf: "root ::= 'a'" } }),
    ).rejects.toThrow(/does not support "grammar" constraints/);
  });

  it("resolveModel builds it from builtin:DIR and explains a bad folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-builtin-chat-"));
    try {
      saveCheckpoint(dir, new Llama(cfg, initParams(cfg, 5)), { tokenizer: tok });
      const chat = await resolveModel(`builtin:${dir}`);
      expect(chat.id).toBe(`builtin:${dir}`);
      const r = await chat.generate(user, { constraint: { kind: "choice", options: ["yes", "no"] } });
      expect(["yes", "no"]).toContain(r.message.content);
      await expect(resolveModel(`builtin:${join(dir, "nope")}`)).rejects.toThrow(
        /builtin:.*nope.*does not exist/,
      );
      await expect(resolveModel("builtin:")).rejects.toThrow(/expected builtin:DIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
