import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/load.ts";
import { RankerRetriever } from "../../src/retrieval/ranker.ts";
import { sharedData } from "../helpers/shared-data.ts";

const apis = sharedData("stabletoolbench/apis.json");

/**
 * The shipped ranker's top 10 over the 2,479-API StableToolBench catalog, recorded (as a hash of the ids, so no
 * data is copied here) with the index of commit 8cca6c7, before its build was rewritten over typed arrays: a
 * faster build must rank exactly as the old one did. The top score is pinned too.
 */
const PINNED: [query: string, idsSha256: string, topScore: number][] = [
  ["weather in paris", "8d1dd97449ea296a", 13.981455662874264],
  ["translate english text to french", "464f7a40e2636460", 17.401362640071632],
  ["latest football scores for my team", "78a0dd1ccd12dda0", 12.143060861165251],
  ["convert 100 usd to euros", "0af2e23597035a08", 11.584476805319184],
  ["find recipes with chicken and rice", "31b3102c7cdc97a9", 14.569654663044695],
  ["send an sms to my phone", "0fde72d40288425b", 17.018756739377494],
];

describe.skipIf(!apis)("the shipped ranker over StableToolBench's catalog", () => {
  it("ranks a few queries' top 10 as recorded before the index build was rewritten", () => {
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
