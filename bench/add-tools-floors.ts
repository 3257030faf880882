/**
 * The old-tool floors that pick an addition's new-tool offset on the rebuilt base (bench/add-tools-rebuild.ts):
 *   A — the rebuilt base's old dev NDCG@1 - 1;
 *   B — that minus the recorded full retraining's loss of old dev against the recorded base, minus 1 (the goal's
 *       own edge: "within 1 point of the retraining's old tools");
 *   C — B raised by C_MARGIN (h41f): a margin against test landing either side of the goal's line when the pick
 *       sits right on floor B on dev. Chosen after seeds 1 and 2's test figures were seen; seeds 3 and 4 test it.
 */
export const C_MARGIN = 0.5;

export interface Floors {
  A: number;
  B: number;
  C: number;
}

export function rebuildFloors(baseOldDev: number, retrainingLoss: number): Floors {
  if (!Number.isFinite(baseOldDev) || !Number.isFinite(retrainingLoss))
    throw new Error(
      `add-tools floors: base old dev ${baseOldDev} and loss ${retrainingLoss} must be numbers`,
    );
  const B = baseOldDev - retrainingLoss - 1;
  return { A: baseOldDev - 1, B, C: B + C_MARGIN };
}

/**
 * Rule D (h41g, declared before the rebuilt retraining was scored): the floor is the REBUILT full retraining's old
 * dev NDCG@1 - 1 (bench/add-tools-retime.ts `full`, kept as DIR/rebuild-full: the same code as the rebuilt base
 * and the additions), the goal's own edge measured instead of translated from the recorded retraining (floors B
 * and C, whose loss the rebuilt base does not share: it gains 1.56 dev -> test, the recorded models 0.24-0.27).
 */
export function floorD(rebuiltFullOldDev: number): number {
  if (!Number.isFinite(rebuiltFullOldDev))
    throw new Error(
      `add-tools floor D: the rebuilt retraining's old dev ${rebuiltFullOldDev} must be a number`,
    );
  return rebuiltFullOldDev - 1;
}

/**
 * The old tools' goal lines on test ("within 1 point of the full retraining"): the rebuilt retraining's old test
 * - 1, which rule D is judged against, and the recorded retraining's, reported beside it.
 */
export function goalLines(
  rebuiltFullOldTest: number,
  recordedFullOldTest: number,
): { rebuilt: number; recorded: number } {
  if (!Number.isFinite(rebuiltFullOldTest) || !Number.isFinite(recordedFullOldTest))
    throw new Error(
      `add-tools goal lines: old test ${rebuiltFullOldTest} and ${recordedFullOldTest} must be numbers`,
    );
  return { rebuilt: rebuiltFullOldTest - 1, recorded: recordedFullOldTest - 1 };
}

/** A dev curve point: the offset on the new tools' logits and both parts' NDCG@1 there. */
export interface RecordedPoint {
  offset: number;
  old_dev: number;
  new_dev: number;
}

/**
 * The dev curve as add-tools-rebuild.ts records it (one old and one new figure per offset of the grid) back into
 * points, so that a floor declared later (D) picks from the figures already recorded, with no model run again.
 */
export function recordedCurve(
  offsets: readonly number[],
  olds: readonly number[],
  news: readonly number[],
): RecordedPoint[] {
  if (olds.length !== offsets.length || news.length !== offsets.length)
    throw new Error(
      `add-tools recorded curve: ${olds.length} old and ${news.length} new figures for ${offsets.length} offsets`,
    );
  return offsets.map((offset, i) => ({ offset, old_dev: olds[i]!, new_dev: news[i]! }));
}
