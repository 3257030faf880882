// bench:retrieval copies into its result what other benches measured (ToolGen, the hybrid through the CLI, the
// add-tools experiment), each with its source file's date and revision, and says when a file is absent.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ELSEWHERE, measuredElsewhere } from "../../bench/lib/retrieval-elsewhere.ts";

const RESULTS = resolve(import.meta.dirname, "../../bench/results");
const dir = mkdtempSync(join(tmpdir(), "toolgen-elsewhere-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("measuredElsewhere", () => {
  it("copies each committed result's date, revision and figures", () => {
    const out = measuredElsewhere(RESULTS);
    for (const [key, file] of Object.entries(ELSEWHERE) as [keyof typeof ELSEWHERE, string][]) {
      const source = JSON.parse(readFileSync(join(RESULTS, file), "utf8")) as Record<string, unknown>;
      expect(out[key]).toMatchObject({
        file: `bench/results/${file}`,
        date: source.date,
        git_revision: source.git_revision,
      });
    }
    const g2 = JSON.parse(
      readFileSync(join(RESULTS, ELSEWHERE.toolgen_and_hybrid_g2_unseen_tools), "utf8"),
    ) as {
      figures: unknown;
    };
    expect(out.toolgen_and_hybrid_g2_unseen_tools.figures).toEqual(g2.figures);
    const addTools = JSON.parse(readFileSync(join(RESULTS, ELSEWHERE.add_tools), "utf8")) as {
      goals: unknown;
      selected: string;
    };
    expect(out.add_tools.goals).toEqual(addTools.goals);
    expect(out.add_tools.selected).toBe(addTools.selected);
    const disjoint = JSON.parse(
      readFileSync(join(RESULTS, ELSEWHERE.toolgen_and_hybrid_metatool_tool_disjoint), "utf8"),
    ) as { test: { figures: unknown } };
    expect(out.toolgen_and_hybrid_metatool_tool_disjoint.test).toMatchObject({
      figures: disjoint.test.figures,
    });
    const rankerGate = JSON.parse(
      readFileSync(join(RESULTS, ELSEWHERE.toolgen_and_hybrid_metatool_tool_disjoint_ranker_gate), "utf8"),
    ) as { test: { figures: unknown } };
    expect(out.toolgen_and_hybrid_metatool_tool_disjoint_ranker_gate.test).toMatchObject({
      figures: rankerGate.test.figures,
    });
  });

  it("says which files are absent instead of failing", () => {
    writeFileSync(
      join(dir, ELSEWHERE.add_tools),
      JSON.stringify({ name: "add-tools", date: "d", goals: {} }),
    );
    const out = measuredElsewhere(dir);
    expect(out.add_tools).toMatchObject({ date: "d", goals: {} });
    expect(out.toolgen_and_hybrid_in_domain).toEqual({
      file: `bench/results/${ELSEWHERE.toolgen_and_hybrid_in_domain}`,
      absent: true,
    });
  });
});
