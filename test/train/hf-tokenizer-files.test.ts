import { describe, expect, it } from "vitest";
import { addTokensToTokenizerConfig, addTokensToTokenizerJson } from "../../src/train/hf-tokenizer-files.ts";

describe("adding tool tokens to a tokenizer.json", () => {
  it("gives new tokens the ids after every existing one (BPE vocab and added tokens), keeping known ones", () => {
    const json: Record<string, unknown> = {
      model: { type: "BPE", vocab: { a: 0, b: 1, ab: 2 }, merges: ["a b"] },
      added_tokens: [
        { id: 3, content: "<|eot|>", special: true },
        { id: 4, content: "<<Old>>", special: false },
      ],
    };
    const r = addTokensToTokenizerJson(json, ["<<New>>", "<<Old>>", "<<New>>", "<<Finish>>"]);
    expect(r.baseSize).toBe(5);
    expect([...r.ids]).toEqual([
      ["<<New>>", 5],
      ["<<Old>>", 4],
      ["<<Finish>>", 6],
    ]);
    expect(r.added).toEqual([
      { id: 5, content: "<<New>>" },
      { id: 6, content: "<<Finish>>" },
    ]);
    expect((json.added_tokens as unknown[]).at(-1)).toEqual({
      id: 6,
      content: "<<Finish>>",
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: false,
    });
    expect((json.model as { vocab: object }).vocab).toEqual({ a: 0, b: 1, ab: 2 });
  });

  it("reads a Unigram vocabulary (a list of [piece, score]) and rejects a malformed file", () => {
    const json: Record<string, unknown> = {
      model: {
        type: "Unigram",
        vocab: [
          ["<unk>", 0],
          ["▁a", -1],
          ["b", -2],
        ],
      },
    };
    expect(addTokensToTokenizerJson(json, ["<<T>>"]).ids.get("<<T>>")).toBe(3);
    expect(() => addTokensToTokenizerJson({}, ["<<T>>"], "x.json")).toThrow(/x.json: no "model" object/);
    expect(() =>
      addTokensToTokenizerJson({ model: { vocab: {} }, added_tokens: [{ id: "1" }] }, ["<<T>>"]),
    ).toThrow(/numeric id and a string content/);
  });

  it("records the new tokens in tokenizer_config.json's added_tokens_decoder", () => {
    const config: Record<string, unknown> = {
      added_tokens_decoder: { "3": { content: "<|eot|>", special: true } },
    };
    addTokensToTokenizerConfig(config, [{ id: 5, content: "<<New>>" }]);
    expect(config.added_tokens_decoder).toEqual({
      "3": { content: "<|eot|>", special: true },
      "5": {
        content: "<<New>>",
        lstrip: false,
        normalized: false,
        rstrip: false,
        single_word: false,
        special: false,
      },
    });
  });
});
