// Every writing command creates the folder its output goes into (`--train-out runs/train.csv` in a fresh clone),
// through the shared atomic write (src/io/atomic.ts) or, for the streamed GGUF, before it starts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFixtures } from "../catalog/fixtures.ts";
import { runCli } from "../helpers/run-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "toolgen-out-folders-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = writeFixtures();

describe("outputs into folders that do not exist yet", () => {
  it("eval split --train-out/--dev-out", async () => {
    const train = join(dir, "runs/a/train.csv");
    const dev = join(dir, "runs/b/dev.csv");
    const out = await runCli([
      "eval",
      "split",
      "--queries",
      f["queries.csv"],
      "--train-out",
      train,
      "--dev-out",
      dev,
    ]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(existsSync(train) && existsSync(dev)).toBe(true);
  });

  it("report --out", async () => {
    const html = join(dir, "reports/new/index.html");
    const out = await runCli(["report", "bench/results/cli.json", "--out", html]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(html, "utf8")).toMatch(/^<!doctype html>/i);
  });

  it("export gguf --out", async () => {
    const gguf = join(dir, "models/demo/demo.gguf");
    const out = await runCli(["export", "gguf", "--model", "models/demo", "--out", gguf, "--json"]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(gguf).subarray(0, 4).toString()).toBe("GGUF");
  }, 60_000);
});
