// The question generator for any catalog (README.md).
export type { SynthCall, SynthItem, SynthOptions, SynthTrajectory, SynthTrajectoryStep } from "./types.ts";
export { synthesize, synthesizeWithReport, type SynthReport } from "./synthesize.ts";
export { synthTrajectories, synthQueries } from "./outputs.ts";
export { splitHeldOut } from "./split.ts";
export { notOfferedDeclines } from "./not-offered.ts";
