import { describe, expect, it } from "vitest";
import { WordNaiveBayes } from "../../src/retrieval/naive-bayes.ts";
import { naiveBayesPrior } from "../../src/demo/action-prior.ts";

const texts = [
  "add 2 and 3",
  "sum of 4 and 5",
  "plus 7",
  "reverse abc",
  "reverse the word hello",
  "flip text",
];
const labels = ["add", "add", "add", "reverse", "reverse", "reverse"];

describe("word Naive Bayes", () => {
  it("ranks by the words and gives a posterior that sums to one over the classes", () => {
    const nb = new WordNaiveBayes();
    nb.train(texts, labels);
    expect(nb.rank("please add these", 2)).toEqual(["add", "reverse"]);
    expect(nb.rank("reverse it", 1)).toEqual(["reverse"]);
    const post = nb.logPosterior("reverse the text");
    expect([...post.keys()].sort()).toEqual(["add", "reverse"]);
    expect([...post.values()].reduce((s, l) => s + Math.exp(l), 0)).toBeCloseTo(1, 12);
    expect(post.get("reverse")!).toBeGreaterThan(post.get("add")!);
    // no known word: the class priors (here equal)
    const none = nb.logPosterior("zzz");
    expect(none.get("add")).toBeCloseTo(Math.log(0.5), 12);
  });

  it("as the demo's word prior, learns only from questions labelled with a tool", async () => {
    const prior = naiveBayesPrior([
      ...texts.map((query, i) => ({ query, tool: labels[i]! })),
      { query: "what does the fox say", tool: null },
    ]);
    const scores = await prior("reverse abc");
    expect([...scores.keys()].sort()).toEqual(["add", "reverse"]);
  });
});
