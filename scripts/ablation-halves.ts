// Per-half ablation wins for the caller build script's BFCL runs (issue 38): every category's items split in two
// by a hash of the item's id alone, never its content, so a rule whose wins all sit in one half, one item each,
// reads as fitted to those dev items rather than learnt from a pattern both halves share.

/**
 * "a" or "b": the low bit of the id's 32-bit FNV-1a hash passed through MurmurHash3's finaliser (fixed,
 * content-blind, roughly even; FNV-1a alone mixes the last character too little: its low bit is the parity of the
 * id's characters, which alternates along "name_0", "name_1", … like the id's own parity).
 */
export function halfOf(id: string): "a" | "b" {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h & 1) === 0 ? "a" : "b";
}

/** Items the full model scores right and the mode wrong (won), and the other way round (lost). */
export interface HalfWins {
  won: number;
  lost: number;
}

export interface ModeHalves {
  /** Per category, per half; categories where the mode changes nothing are left out. */
  by_category: Record<string, { a: HalfWins; b: HalfWins }>;
  a: HalfWins;
  b: HalfWins;
  /** The ids the full model wins over the mode, and loses to it. */
  won_items: string[];
  lost_items: string[];
}

/** The full model's wins over one mode, per half, from the ids each run failed. */
export function modeHalves(
  idsByCategory: Record<string, readonly string[]>,
  fullFailed: ReadonlySet<string>,
  modeFailed: ReadonlySet<string>,
): ModeHalves {
  const result: ModeHalves = {
    by_category: {},
    a: { won: 0, lost: 0 },
    b: { won: 0, lost: 0 },
    won_items: [],
    lost_items: [],
  };
  for (const [category, ids] of Object.entries(idsByCategory)) {
    const halves = { a: { won: 0, lost: 0 }, b: { won: 0, lost: 0 } };
    for (const id of ids) {
      const won = modeFailed.has(id) && !fullFailed.has(id);
      const lost = fullFailed.has(id) && !modeFailed.has(id);
      if (!won && !lost) continue;
      const half = halfOf(id);
      const key = won ? "won" : "lost";
      halves[half][key]++;
      result[half][key]++;
      (won ? result.won_items : result.lost_items).push(id);
    }
    if (halves.a.won + halves.a.lost + halves.b.won + halves.b.lost > 0)
      result.by_category[category] = halves;
  }
  return result;
}

/** How many items of each category fall in each half. */
export function halfSizes(
  idsByCategory: Record<string, readonly string[]>,
): Record<string, { a: number; b: number }> {
  return Object.fromEntries(
    Object.entries(idsByCategory).map(([c, ids]) => {
      const a = ids.filter((id) => halfOf(id) === "a").length;
      return [c, { a, b: ids.length - a }];
    }),
  );
}

const net = (w: HalfWins): number => w.won - w.lost;

/** Markdown rows: mode, net wins per half (items), won/lost per half, the categories that moved. */
export function halvesTable(halves: Record<string, ModeHalves>): string[] {
  const rows = [
    "| mode | half a: net items (won/lost) | half b: net items (won/lost) | categories (a, b net) |",
    "| --- | --- | --- | --- |",
  ];
  for (const [mode, h] of Object.entries(halves)) {
    const cats = Object.entries(h.by_category)
      .map(([c, v]) => `${c} ${net(v.a)}, ${net(v.b)}`)
      .join("; ");
    rows.push(
      `| \`${mode}\` | ${net(h.a)} (${h.a.won}/${h.a.lost}) | ${net(h.b)} (${h.b.won}/${h.b.lost}) | ${cats || "none"} |`,
    );
  }
  return rows;
}
