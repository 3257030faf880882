/**
 * ToolGen's three training stages (paper §3.3–3.5): memorization (a tool's document → its id), retrieval (a
 * query → the id of a relevant tool), agent (a query → a ReAct trajectory with action tokens). A trained model's
 * manifest lists the stages it ran; the datasets of `train/datasets.ts` are built per stage.
 */
export type Stage = "memorization" | "retrieval" | "agent";
export const STAGES: readonly Stage[] = ["memorization", "retrieval", "agent"];
