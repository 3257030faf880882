import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";
import { FINISH_TOKEN } from "../toolgen/tokens.ts";
import type { Message, Role } from "../chat/messages.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import {
  GENERATE_ACTION,
  TOOLGEN_AGENT_SYSTEM,
  actionDocumentation,
  agentTask,
  inputRequest,
} from "../toolgen/agent-format.ts";
import { toolDocument } from "../toolgen/tool-document.ts";
import type { Stage } from "../toolgen/stages.ts";
import { ToolgenError } from "../errors.ts";

/**
 * ToolGen's three training stages as chat samples (paper §3.3–3.5, Fig. 7–8). A line of the JSONL files is
 * `{"stage", "messages": [{role, content}]}` — the "messages" format that TRL, axolotl and LLaMA-Factory read;
 * the loss is taken on assistant turns only (our trainer masks everything else).
 */
export interface StageSample {
  stage: Stage;
  messages: Message[];
}

// The stages are ToolGen's (src/toolgen/stages.ts); re-exported because every stage's dataset is built here.
export { STAGES, type Stage } from "../toolgen/stages.ts";

/** One step of a trajectory: a thought, an action (a catalog id, or "Finish"), its arguments and result. */
export interface TrajectoryStep {
  thought: string;
  action: string;
  arguments: Record<string, unknown>;
  observation?: string;
}

export interface Trajectory {
  query: string;
  steps: TrajectoryStep[];
}

function writtenId(index: ToolIndex, id: string, where: string): string {
  const text = index.texts[id];
  if (text === undefined)
    throw new ToolgenError(
      "invalid_input",
      `${where}: "${id}" is not in the catalog the index was built from`,
    );
  return text;
}

/** Memorisation: user = the tool document, assistant = the tool's id (one sample per catalog entry). */
export function memorizationSamples(entries: readonly CatalogEntry[], index: ToolIndex): StageSample[] {
  return entries.map((e) => ({
    stage: "memorization",
    messages: [
      { role: "user", content: toolDocument(e) },
      { role: "assistant", content: writtenId(index, e.id, "memorization") },
    ],
  }));
}

export interface RetrievalSampleOptions {
  /** Skip relevance labels that are not in the catalog instead of failing (their count is returned). */
  skipUnknown?: boolean;
}

/**
 * Retrieval: user = query, assistant = one relevant tool's id; a query with several relevant tools gives one
 * sample per tool (L = Σ_q Σ_{d∈D_q} −log p(Index(d)|q)).
 */
export function retrievalSamples(
  queries: readonly LabelledQuery[],
  index: ToolIndex,
  options: RetrievalSampleOptions = {},
): { samples: StageSample[]; skipped: number } {
  const samples: StageSample[] = [];
  let skipped = 0;
  queries.forEach((q, i) => {
    for (const id of q.relevant) {
      if (index.texts[id] === undefined) {
        if (options.skipUnknown) {
          skipped++;
          continue;
        }
        throw new ToolgenError(
          "invalid_input",
          `retrieval: query ${q.id ?? i} labels "${id}", which is not in the catalog (pass skipUnknown to drop such labels)`,
        );
      }
      samples.push({
        stage: "retrieval",
        messages: [
          { role: "user", content: q.query },
          { role: "assistant", content: index.texts[id]! },
        ],
      });
    }
  });
  return { samples, skipped };
}

/** Agent tuning: each trajectory in the paper's three-rounds-per-step format, tools named by their ids. */
export function agentSamples(
  trajectories: readonly Trajectory[],
  entries: readonly CatalogEntry[],
  index: ToolIndex,
): StageSample[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  return trajectories.map((t, n) => {
    const messages: Message[] = [
      { role: "system", content: TOOLGEN_AGENT_SYSTEM },
      { role: "user", content: agentTask(t.query) },
    ];
    t.steps.forEach((step, s) => {
      const finish = step.action === "Finish" || step.action === FINISH_TOKEN;
      const name = finish ? FINISH_TOKEN : writtenId(index, step.action, `agent: trajectory ${n} step ${s}`);
      messages.push(
        { role: "assistant", content: step.thought },
        { role: "user", content: GENERATE_ACTION },
        { role: "assistant", content: name },
        { role: "user", content: inputRequest(actionDocumentation(name, byId.get(step.action))) },
        { role: "assistant", content: JSON.stringify(step.arguments) },
      );
      if (!finish) messages.push({ role: "tool", content: step.observation ?? "" });
    });
    return { stage: "agent", messages };
  });
}

const ROLES: ReadonlySet<Role> = new Set(["system", "user", "assistant", "tool"]);

export function samplesToJsonl(samples: readonly StageSample[]): string {
  return samples.map((s) => JSON.stringify(s)).join("\n") + (samples.length > 0 ? "\n" : "");
}

/** Writes a JSONL file atomically (temp file + rename). */
export function writeSamples(path: string, samples: readonly StageSample[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, samplesToJsonl(samples));
  renameSync(tmp, path);
}

/** Reads stage JSONL, checking every line; a bad line is reported with its number. */
export function parseSamples(text: string, file = "<jsonl>"): StageSample[] {
  const out: StageSample[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new ToolgenError("invalid_input", `${where}: not JSON (${(err as Error).message})`, {
        cause: err,
      });
    }
    const { stage, messages } = (value ?? {}) as Record<string, unknown>;
    if (stage !== undefined && !["memorization", "retrieval", "agent"].includes(stage as string)) {
      throw new ToolgenError("invalid_input", `${where}: stage must be memorization, retrieval or agent`);
    }
    if (!Array.isArray(messages) || messages.length === 0)
      throw new ToolgenError("invalid_input", `${where}: "messages" must be a list`);
    for (const m of messages as Array<Record<string, unknown>>) {
      if (!ROLES.has(m?.role as Role) || typeof m?.content !== "string") {
        throw new ToolgenError(
          "invalid_input",
          `${where}: each message needs a role (system|user|assistant|tool) and string content`,
        );
      }
    }
    if (!(messages as Message[]).some((m) => m.role === "assistant")) {
      throw new ToolgenError("invalid_input", `${where}: no assistant turn to train on`);
    }
    out.push({ stage: (stage as Stage | undefined) ?? "retrieval", messages: messages as Message[] });
  });
  return out;
}

export function readSamples(path: string): StageSample[] {
  return parseSamples(readFileSync(path, "utf8"), path);
}
