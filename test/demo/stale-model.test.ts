import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMITTED_DEMO_MODEL, ensureDemoModel } from "../../src/demo/model.ts";

/**
 * A committed model that no longer fits the demo's data or schedule must fail loudly, never be deleted and
 * retrained in place (that once cost CI a ten-minute timeout and would have rewritten a user's checkout).
 */
describe("a stale demo model", () => {
  it("is an error and stays on disk when replaceStale is false", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-stale-demo-"));
    cpSync(join(COMMITTED_DEMO_MODEL, "toolgen.json"), join(dir, "toolgen.json"));
    const manifest = JSON.parse(readFileSync(join(dir, "toolgen.json"), "utf8")) as { fingerprint: string };
    manifest.fingerprint = "0000000000000000";
    writeFileSync(join(dir, "toolgen.json"), JSON.stringify(manifest));
    await expect(ensureDemoModel({ dir, progress: false, replaceStale: false })).rejects.toThrow(
      /different training run/,
    );
    expect(existsSync(join(dir, "toolgen.json"))).toBe(true);
  });
});
