import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LabelledQuery } from "../catalog/catalog.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { Rng } from "../nn/rng.ts";
import { openToolGenRetriever } from "../retrieval/toolgen-open.ts";
import type { ChatFormat } from "../toolgen/chat-encoding.ts";
import type { OffsetChoice } from "../toolgen/model-folder.ts";
import type { StageSample } from "./datasets.ts";
import { DEV_CAP } from "./dev-split.ts";

/**
 * `--new-tool-offset auto`: the added tools' logit offset chosen on the user's own data. Before the addition
 * trains, a seeded share of the queries naming an added tool is held out (new dev), and old-tool queries that the
 * addition does not train on are set aside (old dev: the --from folder's own dev queries, `data/dev.jsonl`, which
 * neither model trained on; without them, a slice of the replayed retrieval samples, taken out of the replay — the
 * base model trained on those, so its old-tool figures there are optimistic). After the addition, NDCG@1 on both
 * is traced over `OFFSET_GRID` and the offset picked by `OFFSET_RULE`. The held-out queries are not trained on
 * afterwards either: a second training with them back would cost the addition twice.
 */
export const OFFSET_GRID = Array.from({ length: 161 }, (_, i) => Math.round(i - 80) / 10); // -8 … 8 by 0.1
/** Share of the queries naming an added tool held out as new dev queries. */
export const AUTO_DEV_FRACTION = 0.2;
/** Points of old-tool dev NDCG@1 the addition may cost against the model before adding (the goal's "within 1"). */
export const OLD_TOLERANCE = 1;
/**
 * The floor is the --from model's old-tool figure less the tolerance, or, when the addition keeps the old tools
 * within it at no offset, the best old-tool figure it reaches on the grid less the tolerance: the old tools then lose
 * no more than a point beyond what the addition itself cost them. (The first version fell back to the mean alone;
 * bench/add-tools.ts showed that fallback giving the old tools up: lr-quarter auto, test old −7.7.)
 */
export const OFFSET_RULE =
  `the grid offset maximising the mean of old- and new-tool dev NDCG@1 among those keeping old-tool dev ` +
  `NDCG@1 >= min(the --from model's, the best on the grid) - ${OLD_TOLERANCE}; ties: the smaller |offset|`;

export interface OffsetHoldout {
  /** The queries the addition trains on. */
  train: LabelledQuery[];
  newDev: LabelledQuery[];
  oldDev: LabelledQuery[];
  oldFrom: "dev.jsonl" | "replayed";
  /** The replayable old retrieval samples left once old dev is set aside (all of them with dev.jsonl). */
  replayable: StageSample[];
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  return new Rng(seed).shuffle([...items]);
}

/**
 * Splits the addition's queries and the old retrieval samples as described above. `oldIds` maps an old tool
 * token's text to its id; `devRows` are the --from folder's dev queries (empty when it has none).
 */
export function holdOutForOffset(
  queries: readonly LabelledQuery[],
  newIds: ReadonlySet<string>,
  oldRetrieval: readonly StageSample[],
  oldIds: ReadonlyMap<string, string>,
  devRows: readonly LabelledQuery[],
  seed: number,
): OffsetHoldout {
  const rng = (k: number) => (seed * 2654435761 + 0x0ff5e7 + k) >>> 0;
  const naming = queries.filter((q) => q.relevant.some((id) => newIds.has(id)));
  const count = Math.min(
    DEV_CAP,
    naming.length - 1,
    Math.max(1, Math.round(AUTO_DEV_FRACTION * naming.length)),
  );
  const newDev = new Set(shuffled(naming, rng(1)).slice(0, count));
  const train = queries.filter((q) => !newDev.has(q));
  if (devRows.length > 0) {
    const oldDev = shuffled(devRows, rng(2)).slice(0, DEV_CAP);
    return { train, newDev: [...newDev], oldDev, oldFrom: "dev.jsonl", replayable: [...oldRetrieval] };
  }
  // One query per user text (a query with several tools is several samples).
  const byText = new Map<string, Set<string>>();
  for (const s of oldRetrieval) {
    const text = s.messages.find((m) => m.role === "user")!.content;
    const id = oldIds.get(s.messages.find((m) => m.role === "assistant")!.content.trim());
    if (id !== undefined) (byText.get(text) ?? byText.set(text, new Set()).get(text)!).add(id);
  }
  const texts = shuffled([...byText.keys()], rng(3));
  const n = Math.min(
    DEV_CAP,
    texts.length - 1,
    Math.max(count, Math.round(AUTO_DEV_FRACTION * texts.length)),
  );
  const held = new Set(texts.slice(0, Math.max(0, n)));
  return {
    train,
    newDev: [...newDev],
    oldDev: [...held].map((query) => ({ query, relevant: [...byText.get(query)!] })),
    oldFrom: "replayed",
    replayable: oldRetrieval.filter((s) => !held.has(s.messages.find((m) => m.role === "user")!.content)),
  };
}

/** Per query: the best old tool's score and id, and the best new tool's (the only ones NDCG@1 needs). */
interface Tops {
  old?: { id: string; score: number };
  new?: { id: string; score: number };
}

async function topsOf(
  dir: string,
  offsets: Readonly<Record<string, number>>,
  newIds: ReadonlySet<string>,
  queries: readonly LabelledQuery[],
  chatFormat: ChatFormat,
): Promise<Tops[]> {
  // The chat format given: the folder being written has no manifest yet.
  const retriever = openToolGenRetriever(dir, undefined, { offsets, chatFormat });
  const k = Object.keys(retriever.index.texts).length;
  const hits = await retriever.searchMany(
    queries.map((q) => q.query),
    { k },
  );
  return hits.map((h) => ({
    old: h.find((x) => !newIds.has(x.id)),
    new: h.find((x) => newIds.has(x.id)),
  }));
}

/** Dev NDCG@1 in points: the first hit after shifting the new tools by `offset` (an equal score keeps the old). */
function ndcg1(tops: readonly Tops[], queries: readonly LabelledQuery[], offset: number): number {
  let hit = 0;
  tops.forEach((t, i) => {
    const first =
      t.new && (!t.old || t.new.score + offset > t.old.score) ? t.new.id : (t.old?.id ?? undefined);
    if (first !== undefined && queries[i]!.relevant.includes(first)) hit++;
  });
  return round((100 * hit) / Math.max(1, queries.length));
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * The index of the rule's offset in the curve (`OFFSET_RULE`), and whether the floor against the --from model was
 * met (false: the floor came down to the best old-tool figure on the grid).
 */
export function pickOffset(
  curve: { offsets: readonly number[]; old: readonly number[]; new: readonly number[] },
  baseOld: number,
): { index: number; floorMet: boolean } {
  const all = curve.offsets.map((_, i) => i);
  const floorMet = Math.max(...curve.old) >= baseOld - OLD_TOLERANCE - 1e-9;
  const floor = Math.min(baseOld, Math.max(...curve.old)) - OLD_TOLERANCE;
  // 1e-9: the figures are rounded to hundredths, so the floor compares equal values exactly.
  const pool = all.filter((i) => curve.old[i]! >= floor - 1e-9);
  const mean = (i: number) => (curve.old[i]! + curve.new[i]!) / 2;
  const index = pool.reduce((best, i) =>
    mean(i) > mean(best) ||
    (mean(i) === mean(best) && Math.abs(curve.offsets[i]!) < Math.abs(curve.offsets[best]!))
      ? i
      : best,
  );
  return { index, floorMet };
}

/**
 * Traces old- and new-tool dev NDCG@1 of the added model in `dir` over OFFSET_GRID (the offsets carried from
 * earlier additions applied as the retriever applies them) against the --from model's old-tool dev NDCG@1, and
 * picks the offset.
 */
export async function chooseOffset(
  dir: string,
  from: string,
  carried: Readonly<Record<string, number>>,
  newIds: ReadonlySet<string>,
  holdout: Pick<OffsetHoldout, "newDev" | "oldDev" | "oldFrom">,
  chatFormat: ChatFormat,
): Promise<OffsetChoice> {
  const oldTops = await topsOf(dir, carried, newIds, holdout.oldDev, chatFormat);
  const newTops = await topsOf(dir, carried, newIds, holdout.newDev, chatFormat);
  // The model before adding, as its retriever ranks (its own carried offsets; it has no new tools).
  const baseTops = await topsOf(from, carried, newIds, holdout.oldDev, chatFormat);
  const baseOld = ndcg1(baseTops, holdout.oldDev, 0);
  const curve = {
    offsets: OFFSET_GRID,
    old: OFFSET_GRID.map((x) => ndcg1(oldTops, holdout.oldDev, x)),
    new: OFFSET_GRID.map((x) => ndcg1(newTops, holdout.newDev, x)),
  };
  const { index, floorMet } = pickOffset(curve, baseOld);
  return {
    rule: OFFSET_RULE,
    offset: OFFSET_GRID[index]!,
    old: curve.old[index]!,
    new: curve.new[index]!,
    baseOld,
    floorMet,
    dev: { old: holdout.oldDev.length, new: holdout.newDev.length, oldFrom: holdout.oldFrom },
    curve,
  };
}

/** A folder's held-out dev queries (`data/dev.jsonl`: one {query, relevant, part} a line); none when absent. */
export function readDevQueries(dir: string): LabelledQuery[] {
  const file = join(dir, "data", "dev.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { query: string; relevant: string[] })
    .map(({ query, relevant }) => ({ query, relevant }));
}

/** The new folder's dev queries: the --from folder's, then the addition's new-tool dev queries (part "added"). */
export function writeDevQueries(dir: string, from: string, newDev: readonly LabelledQuery[]): void {
  const file = join(dir, "data", "dev.jsonl");
  const before = existsSync(join(from, "data", "dev.jsonl"))
    ? readFileSync(join(from, "data", "dev.jsonl"), "utf8").trimEnd()
    : "";
  const added = newDev.map((q) => JSON.stringify({ query: q.query, relevant: q.relevant, part: "added" }));
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, [...(before ? [before] : []), ...added].join("\n") + "\n");
}

/** The one line an auto addition prints about its choice. */
export function offsetLine(c: OffsetChoice): string {
  return (
    `new-tool offset auto: ${c.offset} (dev NDCG@1 old ${c.old.toFixed(2)}, new ${c.new.toFixed(2)}; before adding ` +
    `old ${c.baseOld.toFixed(2)}${c.floorMet ? "" : `, no offset kept old within ${OLD_TOLERANCE}: floor from the best`}; ` +
    `${c.dev.old} old / ${c.dev.new} new dev queries)`
  );
}
