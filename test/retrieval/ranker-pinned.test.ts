import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/load.ts";
import { RankerRetriever } from "../../src/retrieval/ranker.ts";
import { sharedData } from "../helpers/shared-data.ts";

const apis = sharedData("stabletoolbench/apis.json");

/**
 * The shipped ranker's top 10 over the 2,479-API StableToolBench catalog, recorded (as a hash of the ids, so no
 * data is copied here). First recorded with the index of commit 8cca6c7 (a faster build had to rank exactly as
 * the old one did); re-recorded when the ranker gained its soft-match features over learnt word vectors (issue 41:
 * new features and retrained weights legitimately change every ranking), and again when it gained query likelihood
 * and prefix matching (issue 41, a retrained model over another feature set), and again when its training
 * added synthetic questions over the train tools (an 8-unit tanh model with 30 dense candidates, chosen on dev), and again when it became the mean of 3 seeds'
 * 16-unit models (chosen on dev). The top score is pinned too.
 */
const PINNED: [query: string, idsSha256: string, topScore: number][] = [
  ["weather in paris", "6a994c7e374f6759", 5.038619290560328],
  ["translate english text to french", "57e30d94cb6e5014", 4.632285549676492],
  ["latest football scores for my team", "cee6d0055c9ddba7", 3.4348327955846716],
  ["convert 100 usd to euros", "a73b9feb93ba3ea9", 4.756514463753766],
  ["find recipes with chicken and rice", "d6bb6dca88ca2502", 3.897696261736062],
  ["send an sms to my phone", "b27ecbe4e6a2519c", 6.220841910549495],
];

describe.skipIf(!apis)("the shipped ranker over StableToolBench's catalog", () => {
  it("ranks a few queries' top 10 as recorded", () => {
    const ranker = new RankerRetriever(loadCatalog(apis!));
    for (const [query, sha, top] of PINNED) {
      const hits = ranker.searchSync(query, { k: 10 });
      const hash = createHash("sha256")
        .update(hits.map((h) => h.id).join("\n"))
        .digest("hex")
        .slice(0, 16);
      expect([query, hash]).toEqual([query, sha]);
      expect(hits[0].score).toBeCloseTo(top, 9);
    }
  });
});
