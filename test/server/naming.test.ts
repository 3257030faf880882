import { describe, expect, it } from "vitest";
import { estimateTokens, resolveExposure } from "../../src/server/exposure.ts";
import { checkNamingOptions, exposedNames, validToolName } from "../../src/server/naming.ts";
import { listAllPages, MAX_PAGES, pageOf } from "../../src/server/paginate.ts";

describe("tool names within the spec's rules", () => {
  it("keeps a valid name; replaces other characters and cuts long names, with a hash so none meet", () => {
    expect(validToolName("weather.get_forecast-v2")).toBe("weather.get_forecast-v2");
    const spaced = validToolName("get forecast");
    expect(spaced).toMatch(/^get_forecast_[0-9a-f]{6}$/);
    expect(validToolName("get/forecast")).not.toBe(spaced); // both read get_forecast; the hashes differ
    expect(validToolName("get/forecast")).toMatch(/^[A-Za-z0-9_.-]+$/);
    const long = "x".repeat(200);
    expect(validToolName(long)).toHaveLength(128);
    expect(validToolName(long, 64)).toHaveLength(64);
    expect(validToolName(`${long}a`, 64)).not.toBe(validToolName(`${long}b`, 64));
    expect(validToolName("")).toMatch(/^tool_[0-9a-f]{6}$/);
  });

  it("prefixes by mode and never lets two exposed names meet", () => {
    const requests = [
      { namespace: "a", name: "search" },
      { namespace: "b", name: "search" },
      { namespace: "b", name: "fetch" },
      { name: "local" },
    ];
    expect(exposedNames(requests, { prefix: "always" })).toEqual([
      "a__search",
      "b__search",
      "b__fetch",
      "local",
    ]);
    expect(exposedNames(requests, { prefix: "conditional", separator: "." })).toEqual([
      "a.search",
      "b.search",
      "fetch",
      "local",
    ]);
    expect(exposedNames(requests, { prefix: "never" })).toEqual(["search", "b__search", "fetch", "local"]);
    const clash = [
      { namespace: "a", name: "x__y" },
      { namespace: "a__x", name: "y" },
    ];
    const names = exposedNames(clash, { prefix: "always" });
    expect(new Set(names).size).toBe(2);
  });

  it("refuses a bad prefix mode, separator or length limit, naming it", () => {
    expect(() => checkNamingOptions({ prefix: "sometimes" as never })).toThrow(/prefix mode must be one of/);
    expect(() => checkNamingOptions({ separator: "/" })).toThrow(/separator must be/);
    expect(() => checkNamingOptions({ maxLength: 200 })).toThrow(/from 16 to 128/);
  });
});

describe("exposure and pagination", () => {
  const tool = (name: string) => ({
    name,
    description: "d".repeat(400),
    inputSchema: { type: "object" as const },
  });

  it("auto lists every tool within the token budget and searches above it", () => {
    const few = [tool("a"), tool("b")];
    expect(estimateTokens(few)).toBeGreaterThan(200);
    expect(resolveExposure("auto", few, 10_000)).toBe("all");
    expect(resolveExposure("auto", few, 100)).toBe("search");
    expect(resolveExposure("search", few)).toBe("search");
    expect(() => resolveExposure("most" as never, few)).toThrow(/expose mode must be one of/);
  });

  it("follows cursors to the last page and stops on a repeated cursor instead of looping", async () => {
    const pages: Record<string, { items: number[]; nextCursor?: string }> = {
      start: { items: [1], nextCursor: "p2" },
      p2: { items: [2], nextCursor: "p3" },
      p3: { items: [3] },
    };
    expect(await listAllPages("list", async (c) => pages[c ?? "start"]!)).toEqual([1, 2, 3]);
    const loop = listAllPages("tools/list of x", async (c) => ({
      items: [c],
      nextCursor: c === "a" ? "b" : "a",
    }));
    await expect(loop).rejects.toThrow(/tools\/list of x: cursor "a" came back a second time/);
    let n = 0;
    const endless = listAllPages("list", async () => ({ items: [], nextCursor: String(n++) }));
    await expect(endless).rejects.toThrow(new RegExp(`more than ${MAX_PAGES} pages`));
  });

  it("pages the gateway's own lists with opaque cursors, and knows a cursor it did not give", async () => {
    const items = Array.from({ length: 1203 }, (_, i) => i);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = pageOf(items, cursor)!;
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(items);
    // The gateway's own lists, walked by the same follower as an upstream's.
    expect(await listAllPages("tools/list", async (c) => pageOf(items, c)!)).toHaveLength(1203);
    expect(pageOf(items, "bm90LWEtY3Vyc29y")).toBeUndefined();
    expect(pageOf([1, 2], undefined)).toEqual({ items: [1, 2] });
  });
});
