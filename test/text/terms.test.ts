import { describe, expect, it } from "vitest";
import { ENGLISH_STOPWORDS, tokenize } from "../../src/text/terms.ts";

describe("tokenize", () => {
  it("lowercases and splits camelCase, snake_case, kebab-case and digits", () => {
    expect(tokenize("getVideoDetails_for-YouTube v2Api HTTPServer abc123def")).toEqual([
      "get",
      "video",
      "details",
      "for",
      "you",
      "tube",
      "v",
      "2",
      "api",
      "http",
      "server",
      "abc",
      "123",
      "def",
    ]);
  });

  it("keeps non-ASCII letters as words", () => {
    expect(tokenize("L'état courant du colis")).toEqual(["l", "état", "courant", "du", "colis"]);
    expect(tokenize("天气 forecast")).toEqual(["天气", "forecast"]);
  });

  it("stems with Porter when asked and drops stopwords", () => {
    expect(tokenize("Searching the running videos", { stem: true })).toEqual([
      "search",
      "the",
      "run",
      "video",
    ]);
    expect(tokenize("what is the weather", { stopwords: ENGLISH_STOPWORDS })).toEqual(["weather"]);
  });

  it("returns nothing for punctuation only", () => {
    expect(tokenize(" ,./-_ ")).toEqual([]);
  });
});
