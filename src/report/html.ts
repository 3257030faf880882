import type { ReportData } from "./collect.ts";
import { barChart, escapeHtml as esc, histogram, lineChart } from "./svg.ts";

/** The report page: one self-contained HTML file (inline CSS and SVG, no scripts, no external assets). */
export function renderReport(data: ReportData, options: { title?: string; generated?: string } = {}): string {
  const title = options.title ?? "toolgen report";
  const sections: string[] = [];
  const empty = (what: string) => `<p class="none">No ${what} in these results.</p>`;

  sections.push(`<h2>Retrieval quality (NDCG, %)</h2>`);
  if (data.ndcg.length > 0) {
    const keys = [...new Set(data.ndcg.flatMap((r) => Object.keys(r.values)))].sort();
    sections.push(
      table(
        ["result", ...keys],
        data.ndcg.map((r) => [r.label, ...keys.map((k) => r.values[k])]),
      ),
    );
    sections.push(barChart("NDCG by result", data.ndcg));
  } else sections.push(empty("NDCG figures (run toolgen eval retrieval --json > FILE.json)"));

  sections.push(`<h2>Training</h2>`);
  if (data.losses.length > 0) sections.push(lineChart("Training loss", data.losses));
  else sections.push(empty("per-step loss curves"));
  if (data.stages.length > 0) {
    sections.push(
      table(
        ["model", "stage", "samples", "steps", "seconds", "final loss"],
        data.stages.map((s) => [s.label, s.stage, s.samples, s.steps, s.seconds, s.finalLoss]),
      ),
    );
    sections.push(
      barChart(
        "Final loss per ToolGen stage",
        data.stages.map((s) => ({ label: `${s.label} ${s.stage}`, values: { "final loss": s.finalLoss } })),
      ),
    );
  }

  sections.push(`<h2>Latency</h2>`);
  for (const l of data.latencySamples) sections.push(histogram(`Latency: ${l.label}`, l.values, "ms"));
  if (data.percentiles.length > 0) sections.push(barChart("Latency percentiles", data.percentiles));
  if (data.latencySamples.length === 0 && data.percentiles.length === 0)
    sections.push(empty("latency figures"));

  sections.push(`<h2>Result files</h2>`);
  sections.push(
    table(
      ["file", "date", "command", "machine"],
      data.files.map((f) => {
        const d = f.data as Record<string, unknown>;
        const m = d?.machine as Record<string, unknown> | undefined;
        return [f.path, String(d?.date ?? ""), String(d?.command ?? ""), m ? `${m.nproc} × ${m.cpu}` : ""];
      }),
    ),
  );
  if (data.skipped.length > 0) sections.push(`<p class="none">Skipped: ${esc(data.skipped.join("; "))}</p>`);

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:900px;color:#111}
table{border-collapse:collapse;margin:1em 0;font-size:12px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
.scroll{overflow-x:auto}td.n{text-align:right;font-variant-numeric:tabular-nums}figure{margin:1em 0}.none{color:#666;font-style:italic}
</style></head><body>
<h1>${esc(title)}</h1>
<p>${esc(options.generated ?? "")}</p>
${sections.join("\n")}
</body></html>
`;
}

function table(head: string[], rows: (string | number | undefined)[][]): string {
  const cell = (v: string | number | undefined) =>
    typeof v === "number"
      ? `<td class="n">${Number.isInteger(v) ? v : v.toFixed(2)}</td>`
      : `<td>${esc(String(v ?? ""))}</td>`;
  return `<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map(cell).join("")}</tr>`)
    .join("")}</tbody></table></div>`;
}
