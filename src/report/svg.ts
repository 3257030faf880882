/** Small inline-SVG charts for the report: no scripts, no external assets, readable without CSS. */
const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
const PALETTE = ["#2563eb", "#16a34a", "#ea580c", "#9333ea", "#0891b2", "#dc2626", "#65a30d", "#c026d3"];
const fmt = (x: number) =>
  Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(1) : x.toPrecision(2);

/** Grouped horizontal bars: one group per row label, one bar per series. */
export function barChart(title: string, rows: { label: string; values: Record<string, number> }[]): string {
  const series = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
  const max = Math.max(1e-9, ...rows.flatMap((r) => Object.values(r.values)));
  const barH = 14;
  const groupH = series.length * barH + 10;
  const left = 220;
  const width = 720;
  const height = 40 + rows.length * groupH + 20 * Math.ceil(series.length / 4);
  const out: string[] = [];
  rows.forEach((r, i) => {
    const y0 = 30 + i * groupH;
    out.push(
      `<text x="${left - 8}" y="${y0 + groupH / 2}" text-anchor="end" font-size="12">${esc(r.label.slice(0, 34))}</text>`,
    );
    series.forEach((s, j) => {
      const v = r.values[s];
      if (v === undefined) return;
      const w = ((width - left - 60) * v) / max;
      const y = y0 + j * barH;
      out.push(
        `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH - 2}" fill="${PALETTE[j % PALETTE.length]}"><title>${esc(`${r.label} ${s}: ${v}`)}</title></rect>`,
      );
      out.push(`<text x="${left + w + 4}" y="${y + barH - 4}" font-size="10">${fmt(v)}</text>`);
    });
  });
  const legendY = 30 + rows.length * groupH + 6;
  series.forEach((s, j) => {
    const x = left + (j % 4) * 120;
    const y = legendY + Math.floor(j / 4) * 20;
    out.push(
      `<rect x="${x}" y="${y}" width="10" height="10" fill="${PALETTE[j % PALETTE.length]}"/><text x="${x + 14}" y="${y + 9}" font-size="11">${esc(s)}</text>`,
    );
  });
  return svg(title, width, height, out);
}

/** Lines over steps (training loss curves). */
export function lineChart(title: string, lines: { label: string; points: [number, number][] }[]): string {
  const all = lines.flatMap((l) => l.points);
  const [x0, x1] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
  const [y0, y1] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
  const W = 720;
  const H = 300;
  const px = (x: number) => 60 + ((x - x0) / Math.max(1e-9, x1 - x0)) * (W - 80);
  const py = (y: number) => H - 40 - ((y - y0) / Math.max(1e-9, y1 - y0)) * (H - 80);
  const out = [
    `<line x1="60" y1="${H - 40}" x2="${W - 20}" y2="${H - 40}" stroke="#999"/><line x1="60" y1="30" x2="60" y2="${H - 40}" stroke="#999"/>`,
    `<text x="56" y="${py(y1) + 4}" text-anchor="end" font-size="10">${fmt(y1)}</text><text x="56" y="${py(y0)}" text-anchor="end" font-size="10">${fmt(y0)}</text>`,
    `<text x="60" y="${H - 24}" font-size="10">${fmt(x0)}</text><text x="${W - 20}" y="${H - 24}" text-anchor="end" font-size="10">${fmt(x1)}</text>`,
  ];
  lines.forEach((l, i) => {
    const d = l.points
      .map((p, k) => `${k ? "L" : "M"}${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`)
      .join("");
    out.push(`<path d="${d}" fill="none" stroke="${PALETTE[i % PALETTE.length]}" stroke-width="2"/>`);
    out.push(
      `<text x="${70 + i * 140}" y="${H - 6}" font-size="11" fill="${PALETTE[i % PALETTE.length]}">${esc(l.label)}</text>`,
    );
  });
  return svg(title, W, H, out);
}

/** A histogram of values (latencies), `bins` equal-width bins. */
export function histogram(title: string, values: number[], unit: string, bins = 20): string {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const width = Math.max(1e-9, (hi - lo) / bins);
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - lo) / width))]!++;
  const W = 720;
  const H = 260;
  const max = Math.max(...counts);
  const bw = (W - 80) / bins;
  const out = counts.map((c, i) => {
    const h = ((H - 70) * c) / max;
    return `<rect x="${(60 + i * bw).toFixed(1)}" y="${(H - 40 - h).toFixed(1)}" width="${(bw - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="${PALETTE[0]}"><title>${fmt(lo + i * width)}–${fmt(lo + (i + 1) * width)} ${esc(unit)}: ${c}</title></rect>`;
  });
  out.push(`<line x1="60" y1="${H - 40}" x2="${W - 20}" y2="${H - 40}" stroke="#999"/>`);
  out.push(
    `<text x="60" y="${H - 24}" font-size="10">${fmt(lo)} ${esc(unit)}</text><text x="${W - 20}" y="${H - 24}" text-anchor="end" font-size="10">${fmt(hi)} ${esc(unit)}</text>`,
  );
  out.push(`<text x="56" y="34" text-anchor="end" font-size="10">${max}</text>`);
  return svg(title, W, H, out);
}

function svg(title: string, width: number, height: number, body: string[]): string {
  return `<figure><svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><title>${esc(title)}</title><text x="8" y="18" font-size="14" font-weight="bold">${esc(title)}</text>${body.join("")}</svg></figure>`;
}

export { esc as escapeHtml };
