import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import {
  buildToolIndex,
  hierarchicalPaths,
  numericText,
  semanticName,
  standardizeName,
  toolVectors,
} from "../../src/toolgen/ids.ts";

function entry(tool: string, api: string, description: string): CatalogEntry {
  return {
    id: api ? `${tool}&&${api}` : tool,
    tool,
    api,
    description,
    parameters: { type: "object", properties: {}, required: [] },
    doc: {},
  };
}

const topics = [
  "weather forecast rain",
  "stock price market",
  "movie film cinema",
  "recipe cooking food",
  "flight airline travel",
];
const catalog: CatalogEntry[] = Array.from({ length: 137 }, (_, i) =>
  entry(`Tool ${i}`, i % 3 === 0 ? "" : `Get item ${i}`, `${topics[i % topics.length]} service number ${i}`),
);

describe("index kinds", () => {
  it("atomic, semantic and numeric follow the paper's forms", () => {
    expect(buildToolIndex([entry("YouTube Hub", "Get Video Details", "x")], "atomic").texts).toEqual({
      "YouTube Hub&&Get Video Details": "<<YouTube Hub&&Get Video Details>>",
    });
    expect(semanticName(entry("youtube_hub", "get video details", "x"))).toBe(
      "get_video_details_for_youtube_hub",
    );
    expect(standardizeName("  3D-Printer API!! ")).toBe("get_3d_printer_api");
    expect(numericText(128)).toBe("0 0 1 2 8");
    const numeric = buildToolIndex(catalog, "numeric").texts;
    expect(numeric[catalog[5]!.id]).toBe("0 0 0 0 5");
  });

  it("every kind gives distinct texts, hierarchical paths included", () => {
    const dup = [entry("a b", "", "x"), entry("a-b", "", "y"), entry("A_B", "", "z")];
    expect(Object.values(buildToolIndex(dup, "semantic").texts)).toEqual(["a_b", "a_b_2", "a_b_3"]);
    for (const kind of ["atomic", "semantic", "numeric", "hierarchical"] as const) {
      const texts = Object.values(buildToolIndex(catalog, kind, 3).texts);
      expect(new Set(texts).size).toBe(catalog.length);
    }
  });

  it("hierarchical paths are prefix-free digit strings, deterministic, and group similar tools", () => {
    const a = buildToolIndex(catalog, "hierarchical", 7).texts;
    expect(buildToolIndex(catalog, "hierarchical", 7).texts).toEqual(a);
    const paths = Object.values(a);
    for (const p of paths) expect(p).toMatch(/^\d( \d)*$/);
    for (const p of paths) for (const q of paths) if (p !== q) expect(q.startsWith(p + " ")).toBe(false);
    // Tools on the same topic share their first digit more often than not.
    const first = catalog.map((e) => a[e.id]!.split(" ")[0]);
    let same = 0;
    let pairs = 0;
    catalog.forEach((_, i) => {
      if (i >= 5) {
        pairs++;
        if (first[i] === first[i - 5]) same++;
      }
    });
    expect(same / pairs).toBeGreaterThan(0.5);
  });

  it("identical documents still end in singletons", () => {
    const same = Array.from({ length: 25 }, (_, i) => entry(`t`, `a${i}`, "same words"));
    const { vectors, dims } = toolVectors(same.map((e) => ({ ...e, api: "x", tool: "t" })));
    const paths = hierarchicalPaths(vectors, dims, 1);
    expect(new Set(paths).size).toBe(25);
  });
});
