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
