import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";
import { Rng } from "../nn/rng.ts";
import type { DevHoldout } from "../toolgen/model-folder.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The dev queries `toolgen train` keeps out of the retrieval stage, so that the hybrid's gate is chosen on queries
 * the model never trained on. Two parts:
 *
 * - `seen`: a seeded fraction of the queries (their tools keep other training queries): in-domain questions;
 * - `unseen`: every query of a seeded fraction of the tools that queries name, so those tools are memorised from
 *   their documents but never asked for: how the model does on tools no training query named.
 *
 * The tools' part is on by default only where the user's catalog already has many tools that no query names
 * (`UNSEEN_SHARE`): there the model will meet such tools, and a gate chosen on in-domain queries alone would trust
 * it where it knows nothing; where every tool has queries (MetaTool) it would only cost those tools their training.
 * This is a rule written by hand (a policy), not learned.
 */
export interface DevSplitOptions {
  /** Share of the queries held out as in-domain dev queries, in [0, 0.5]. */
  fraction: number;
  /** Share of the queried tools whose queries are all held out, in [0, 0.5], or "auto" (see `resolveToolsFraction`). */
  toolsFraction?: number | "auto";
  seed: number;
}

/** `auto` holds out tools when at least this share of the catalog's tools has no query. */
export const UNSEEN_SHARE = 0.1;
/** The tools' fraction `auto` uses then. */
export const AUTO_TOOLS_FRACTION = 0.05;
/** At most this many queries in each dev part (the gate's choice needs hundreds, not thousands). */
export const DEV_CAP = 1000;

export interface DevSplit {
  train: LabelledQuery[];
  seen: LabelledQuery[];
  unseen: LabelledQuery[];
  /** What toolgen.json records: the options as resolved, the sizes and the held-out tools. */
  record: DevRecord;
}

/** What toolgen.json records of the split (`ToolGenManifest.dev`). */
export type DevRecord = DevHoldout;

/** `auto` → AUTO_TOOLS_FRACTION when ≥ UNSEEN_SHARE of the catalog's tools are named by no query, else 0. */
export function resolveToolsFraction(
  catalog: readonly CatalogEntry[],
  queries: readonly LabelledQuery[],
  toolsFraction: number | "auto" = "auto",
): number {
  if (toolsFraction !== "auto") return toolsFraction;
  const named = new Set(queries.flatMap((q) => q.relevant));
  const without = catalog.filter((e) => !named.has(e.id)).length;
  return catalog.length > 0 && without / catalog.length >= UNSEEN_SHARE ? AUTO_TOOLS_FRACTION : 0;
}

export function checkDevOptions(o: DevSplitOptions): void {
  const share = (name: string, v: number) => {
    if (!(v >= 0 && v <= 0.5))
      throw new ToolgenError("invalid_option", `${name} must be a number in [0, 0.5], got ${v}`);
  };
  share("the dev fraction", o.fraction);
  if (o.toolsFraction !== undefined && o.toolsFraction !== "auto")
    share("the dev tools' fraction", o.toolsFraction);
}

/** Splits the labelled queries into training and the two dev parts; the same inputs give the same split. */
export function splitDev(
  catalog: readonly CatalogEntry[],
  queries: readonly LabelledQuery[],
  o: DevSplitOptions,
): DevSplit {
  checkDevOptions(o);
  const toolsFraction = resolveToolsFraction(catalog, queries, o.toolsFraction);
  const rng = new Rng((o.seed * 2654435761 + 0x5eed) >>> 0);
  // Tools in catalog order (not query order), so the choice depends on the seed, not on how files were read.
  const named = new Set(queries.flatMap((q) => q.relevant));
  const tools = catalog.map((e) => e.id).filter((id) => named.has(id));
  const toolCount = toolsFraction > 0 ? Math.max(1, Math.round(toolsFraction * tools.length)) : 0;
  // Leave at least one queried tool in training.
  const held = new Set(rng.shuffle([...tools]).slice(0, Math.min(toolCount, tools.length - 1)));
  const unseenAll: LabelledQuery[] = [];
  const rest: LabelledQuery[] = [];
  for (const q of queries) (q.relevant.some((id) => held.has(id)) ? unseenAll : rest).push(q);
  const seenCount = Math.min(DEV_CAP, Math.round(o.fraction * rest.length));
  const order = rng.shuffle(rest.map((_, i) => i));
  const seenIndex = new Set(order.slice(0, seenCount));
  // A held-out tool's queries beyond the cap leave training all the same (the tool must stay unseen).
  const unseen = rng.shuffle([...unseenAll]).slice(0, DEV_CAP);
  const split: DevSplit = {
    train: rest.filter((_, i) => !seenIndex.has(i)),
    seen: rest.filter((_, i) => seenIndex.has(i)),
    unseen,
    record: {
      fraction: o.fraction,
      toolsFraction,
      seed: o.seed,
      seen: seenCount,
      unseen: unseen.length,
      tools: catalog.map((e) => e.id).filter((id) => held.has(id)),
    },
  };
  if (split.train.length === 0 && queries.length > 0)
    throw new ToolgenError("invalid_option", "holding out the dev queries leaves no training query");
  return split;
}
