// The question generator for any catalog (README.md).
export type { SynthCall, SynthItem, SynthOptions, SynthTrajectory, SynthTrajectoryStep } from "./types.ts";
export { synthesize } from "./synthesize.ts";
export { synthTrajectories, synthQueries } from "./outputs.ts";
