import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "toolgen-train-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tools = join(dir, "tools.json");
writeFileSync(tools, JSON.stringify({ calculator: "does sums", weather: "tells the weather" }));
const text = join(dir, "corpus.txt");
writeFileSync(text, "the weather tool returns the temperature in Lisbon.\n\n".repeat(20));

let outs = 0;
const freshOut = () => join(dir, `out-${outs++}`);
const toolgen = (out: string, ...args: string[]) =>
  runCli(["train", "--catalog", tools, "--out", out, "--no-progress", ...args]);
const onText = (out: string, ...args: string[]) =>
  runCli(["train", "--text", text, "--out", out, "--no-progress", ...args]);

describe("toolgen train checks every option before writing anything", () => {
  it("--lr abc fails without a partial --out, so the corrected command runs", async () => {
    const out = freshOut();
    const bad = await toolgen(out, "--stages", "memorization", "--lr", "abc");
    expect(bad).toMatchObject({ code: 1, stdout: "" });
    expect(bad.stderr).toBe('toolgen train: --lr must be a positive number, got "abc"\n');
    expect(existsSync(out)).toBe(false);
    const good = await toolgen(
      out,
      ...["--stages", "memorization", "--epochs", "memorization=1", "--lr", "3e-3", "--vocab-size", "300"],
    );
    expect(good.stderr).not.toMatch(/toolgen train:/);
    expect(good.code).toBe(0);
    expect(existsSync(join(out, "toolgen.json"))).toBe(true);
  }, 120_000);

  it("refuses --batch-size 0, --steps 0 and --seq-len 1 with their own names (ToolGen and text)", async () => {
    // one at a time: runCli captures this process's stdout, stderr and exit code
    const cases: Array<[() => Promise<{ code: number; stderr: string }>, RegExp]> = [
      [() => toolgen(freshOut(), "--batch-size", "0"), /--batch-size must be an integer ≥ 1, got "0"/],
      [() => toolgen(freshOut(), "--vocab-size", "12"), /--vocab-size must be an integer ≥ 256/],
      [() => toolgen(freshOut(), "--steps", "0"), /--steps does not apply to --catalog training.*--epochs/],
      [() => toolgen(freshOut(), "--seq-len", "1"), /--seq-len does not apply to --catalog training/],
      [() => onText(freshOut(), "--batch-size", "0"), /--batch-size must be an integer ≥ 1, got "0"/],
      [() => onText(freshOut(), "--steps", "0"), /--steps must be an integer ≥ 1, got "0"/],
      [() => onText(freshOut(), "--seq-len", "1"), /--seq-len must be an integer ≥ 2, got "1"/],
      [() => onText(freshOut(), "--epochs", "memorization=1"), /--epochs does not apply to --text training/],
    ];
    for (const [run, message] of cases) {
      const { code, stderr } = await run();
      expect(code).toBe(1);
      expect(stderr).toMatch(message);
      expect(stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(outs).toBeGreaterThan(0);
    for (let i = 0; i < outs; i++) expect(existsSync(join(dir, `out-${i}`)), `out-${i}`).toBe(i === 0);
  });

  it("the retrieval stage's missing --queries is reported before the folder is made", async () => {
    const out = freshOut();
    const bad = await toolgen(out, "--epochs", "memorization=1");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/retrieval stage needs labelled queries \(--queries\)/);
    expect(existsSync(out)).toBe(false);
  });

  it("--resume with nothing to resume is refused, not a silent fresh start", async () => {
    const textOut = freshOut();
    const text = await onText(textOut, "--resume", "--steps", "2", "--json");
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/--resume: .* holds no training state to continue.*drop --resume/);
    expect(JSON.parse(text.stdout)).toEqual({ error: expect.stringMatching(/^--resume: /) });
    expect(existsSync(textOut)).toBe(false);
    const toolgenOut = freshOut();
    const tg = await toolgen(toolgenOut, "--resume");
    expect(tg.code).toBe(1);
    expect(tg.stderr).toMatch(/--resume: .* holds no ToolGen training run \(toolgen.json\) to continue/);
    expect(existsSync(toolgenOut)).toBe(false);
  });
});
