import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { collectReportData, readResultFiles } from "../../src/report/collect.ts";
import { renderReport } from "../../src/report/html.ts";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`SKIP report rendering test: ${CHROMIUM} is missing (apt-get install chromium)`);

/** Result files of the shapes the report reads: eval JSON, a training manifest, a benchmark with latencies. */
function fixtureDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-report-"));
  const write = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value));
  write("eval-bm25.json", {
    retriever: "bm25",
    queries: 100,
    "ndcg@1": 61.2,
    "ndcg@3": 66.8,
    "ndcg@5": 69.1,
    p50_ms: 0.4,
    p95_ms: 2.1,
  });
  write("eval-toolgen.json", {
    retriever: "toolgen",
    queries: 100,
    "ndcg@1": 72.5,
    "ndcg@3": 76.0,
    "ndcg@5": 78.3,
  });
  write("toolgen.json", {
    format: "toolgen-model/1",
    done: [
      { stage: "memorization", samples: 67, steps: 84, seconds: 2.7, finalLoss: 2.2 },
      { stage: "retrieval", samples: 393, steps: 295, seconds: 9.1, finalLoss: 0.4 },
    ],
  });
  write("train-run.json", { loss: Array.from({ length: 50 }, (_, i) => 6 * Math.exp(-i / 12) + 0.3) });
  write("bench.json", {
    date: "2026-11-29",
    command: "npm run bench:x",
    latencies_ms: Array.from({ length: 200 }, (_, i) => 1 + ((i * 37) % 23) / 3),
  });
  return dir;
}

describe("toolgen report", () => {
  it("finds NDCG rows, loss curves, stages and latencies by their shape", () => {
    const { files, skipped } = readResultFiles([fixtureDir(), "/nonexistent/results"]);
    const data = collectReportData(files, skipped);
    expect(data.ndcg.map((r) => r.label)).toEqual(["eval-bm25 (bm25)", "eval-toolgen (toolgen)"]);
    expect(data.losses).toHaveLength(1);
    expect(data.losses[0]!.points).toHaveLength(50);
    expect(data.stages.map((s) => s.stage)).toEqual(["memorization", "retrieval"]);
    expect(data.latencySamples[0]!.values).toHaveLength(200);
    expect(skipped[0]).toMatch(/not found/);
    const html = renderReport(data);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/); // self-contained
    expect(html.match(/<svg/g)!.length).toBeGreaterThanOrEqual(5);
  });

  it("toolgen report writes the page, and says clearly when there is nothing to report", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "toolgen-report-cli-")), "r.html");
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await main(["node", "toolgen", "report", "--out", out, fixtureDir()]);
      expect(String(stdout.mock.calls[0]?.[0])).toMatch(
        /5 files, 2 NDCG rows, 1 loss curves, 2 training stages/,
      );
      expect(readFileSync(out, "utf8")).toMatch(/^<!doctype html>/);
      process.exitCode = undefined;
      await main(["node", "toolgen", "report", "--out", out, "/nonexistent/dir"]);
      expect(process.exitCode).toBe(1);
      expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(/no result JSON found/);
    } finally {
      process.exitCode = undefined;
      stdout.mockRestore();
      stderr.mockRestore();
    }
  });

  it.skipIf(!hasChromium)(
    "renders in headless Chromium with the charts drawn and no console errors",
    { timeout: 60_000 },
    async () => {
      const { chromium } = await import("playwright-core");
      const { files } = readResultFiles([fixtureDir()]);
      const file = join(mkdtempSync(join(tmpdir(), "toolgen-report-html-")), "report.html");
      writeFileSync(file, renderReport(collectReportData(files)));
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
      try {
        const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
        const errors: string[] = [];
        page.on("console", (m) => {
          if (m.type() === "error") errors.push(m.text());
        });
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto(`file://${file}`);
        // Every chart has a drawn, non-empty box and marks in it.
        const charts = await page.$$eval("svg", (svgs) =>
          svgs.map((s) => ({
            w: s.getBoundingClientRect().width,
            marks: s.querySelectorAll("rect,path").length,
          })),
        );
        expect(charts.length).toBeGreaterThanOrEqual(5);
        for (const c of charts) {
          expect(c.w).toBeGreaterThan(100);
          expect(c.marks).toBeGreaterThan(0);
        }
        const bars = await page.$$eval(
          "svg rect",
          (rects) => rects.filter((r) => r.getBoundingClientRect().width > 2).length,
        );
        expect(bars).toBeGreaterThan(10);
        // The screenshot is not blank: many pixels differ from the page background.
        const png = await page.screenshot({ fullPage: true });
        // Counted in the page (it has an image decoder); a string, since this project compiles without DOM types.
        const colours = (await page.evaluate(`(async () => {
        const img = new Image();
        img.src = "data:image/png;base64,${png.toString("base64")}";
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext("2d");
        ctx.drawImage(img, 0, 0);
        const px = ctx.getImageData(0, 0, img.width, img.height).data;
        let nonWhite = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i] < 240 || px[i + 1] < 240 || px[i + 2] < 240) nonWhite++;
        return nonWhite / (px.length / 4);
      })()`)) as number;
        expect(colours).toBeGreaterThan(0.02);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
