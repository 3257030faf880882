import { describe, expect, it } from "vitest";
import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { resolveToolsFraction, splitDev } from "../../src/train/dev-split.ts";

const entry = (id: string): CatalogEntry => ({
  id,
  tool: id,
  api: id,
  category: "c",
  description: id,
  parameters: { type: "object", properties: {} },
  doc: {},
});
const catalog = Array.from({ length: 40 }, (_, i) => entry(`t${i}`));
// tools 0–29 have 10 queries each; 30–39 none (25 % of the catalog)
const queries: LabelledQuery[] = Array.from({ length: 300 }, (_, i) => ({
  query: `q${i}`,
  relevant: [`t${i % 30}`],
}));

describe("the dev queries toolgen train holds out", () => {
  it("holds out tools only where many catalog tools have no query (auto)", () => {
    expect(resolveToolsFraction(catalog, queries)).toBe(0.05);
    expect(resolveToolsFraction(catalog.slice(0, 30), queries)).toBe(0);
    expect(resolveToolsFraction(catalog, queries, 0.2)).toBe(0.2);
  });

  it("is seeded, disjoint, and keeps every query of a held-out tool out of training", () => {
    const a = splitDev(catalog, queries, { fraction: 0.1, toolsFraction: "auto", seed: 4 });
    expect(splitDev(catalog, queries, { fraction: 0.1, toolsFraction: "auto", seed: 4 })).toEqual(a);
    expect(
      splitDev(catalog, queries, { fraction: 0.1, toolsFraction: "auto", seed: 5 }).record.tools,
    ).not.toEqual(a.record.tools);
    // 5 % of 30 queried tools: 2 tools, all their 20 queries; 10 % of the other 280 queries
    expect(a.record).toMatchObject({ fraction: 0.1, toolsFraction: 0.05, seed: 4, seen: 28, unseen: 20 });
    expect(a.train.length + a.seen.length + a.unseen.length).toBe(300);
    const held = new Set(a.record.tools);
    expect(a.train.some((q) => q.relevant.some((id) => held.has(id)))).toBe(false);
    expect(a.unseen.every((q) => q.relevant.some((id) => held.has(id)))).toBe(true);
    const trainText = new Set(a.train.map((q) => q.query));
    expect(a.seen.some((q) => trainText.has(q.query))).toBe(false);
  });

  it("refuses shares outside [0, 0.5]", () => {
    expect(() => splitDev(catalog, queries, { fraction: 0.6, seed: 1 })).toThrow(
      /dev fraction must be a number in \[0, 0.5\]/,
    );
  });
});
