import type { Command } from "commander";
import { loadCatalog, loadQueries } from "../catalog/load.ts";
import { addToolsToModel, type AddStage } from "../train/add-tools.ts";
import { CommandError } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";
import { integerOption, positiveNumberOption } from "./number-options.ts";

/** The options `toolgen train --add-tools NEW.json --from DIR --out DIR2` reads. */
export interface AddToolsCliOptions {
  addTools: string;
  from?: string;
  queries?: string[];
  out: string;
  epochs?: string;
  replay?: string;
  method?: string;
  lr?: string;
  rowsFirst?: boolean;
  anchor?: string;
  trainLayers?: string;
  distill?: string;
  distillTemperature?: string;
  distillTeacher?: string;
  distillScope?: string;
  hardReplay?: string;
  spreadReplay?: boolean;
  userLossSamples?: string;
  replayWithoutUserLoss?: boolean;
  newToolOffset?: string;
  seed: string;
  progress: boolean;
  json?: boolean;
}

const STAGES: readonly AddStage[] = ["memorization", "retrieval"];

/** `memorization=16,retrieval=4` (the stages an addition trains); a bare number sets both. */
function perStage(flag: string, text: string | undefined): Partial<Record<AddStage, number>> {
  if (text === undefined) return {};
  if (/^[0-9.e+-]+$/i.test(text.trim())) {
    const n = Number(text);
    if (!(n > 0 && Number.isFinite(n)))
      throw new ToolgenError("invalid_option", `${flag} must be a positive number, got "${text}"`);
    return { memorization: n, retrieval: n };
  }
  const out: Partial<Record<AddStage, number>> = {};
  for (const part of text.split(",")) {
    const [stage, value] = part.split("=").map((s) => s.trim());
    const n = Number(value);
    if (
      !STAGES.includes(stage as AddStage) ||
      value === undefined ||
      value === "" ||
      !(n > 0 && Number.isFinite(n))
    )
      throw new ToolgenError(
        "invalid_option",
        `${flag} expects stage=value pairs for memorization and retrieval, e.g. memorization=16,retrieval=4; got "${part}"`,
      );
    out[stage as AddStage] = n;
  }
  return out;
}

/** `toolgen train --add-tools`: new tools (and their queries) learnt by a trained model, into a new folder. */
export async function runAddTools(
  opts: AddToolsCliOptions,
  command: Command,
  signal: AbortSignal,
): Promise<void> {
  if (!opts.from)
    throw new ToolgenError(
      "invalid_option",
      "--add-tools needs --from DIR, the trained ToolGen folder to add to",
    );
  const method = opts.method ?? "rows";
  if (method !== "rows" && method !== "all")
    throw new ToolgenError("invalid_option", `--method must be rows or all, got "${opts.method}"`);
  // The rows fit has no stages: --epochs and --lr would be ignored without a word.
  if (method === "rows" && (opts.epochs !== undefined || opts.lr !== undefined))
    throw new ToolgenError(
      "invalid_option",
      `--${opts.epochs !== undefined ? "epochs" : "lr"} applies to --method all (the default, rows, trains no stages)`,
    );
  // The options of --method all, checked here so that a wrong one fails before anything is read or written.
  const allOnly = (
    [
      ["--rows-first", opts.rowsFirst],
      ["--anchor", opts.anchor],
      ["--train-layers", opts.trainLayers],
      ["--distill", opts.distill],
      ["--hard-replay", opts.hardReplay],
      ["--spread-replay", opts.spreadReplay],
      ["--user-loss-samples", opts.userLossSamples],
      ["--replay-without-user-loss", opts.replayWithoutUserLoss],
    ] as const
  ).find(([, value]) => value !== undefined);
  if (method === "rows" && allOnly)
    throw new ToolgenError(
      "invalid_option",
      `${allOnly[0]} applies to --method all (the default, rows, trains no stages)`,
    );
  let anchor: number | undefined;
  if (opts.anchor !== undefined) {
    anchor = Number(opts.anchor);
    if (!(anchor >= 0 && Number.isFinite(anchor)))
      throw new ToolgenError("invalid_option", `--anchor must be a number ≥ 0, got "${opts.anchor}"`);
  }
  const trainLayers =
    opts.trainLayers === undefined ? undefined : integerOption(opts.trainLayers, "--train-layers", 0);
  for (const [flag, value] of [
    ["--distill-temperature", opts.distillTemperature],
    ["--distill-teacher", opts.distillTeacher],
    ["--distill-scope", opts.distillScope],
  ] as const)
    if (value !== undefined && opts.distill === undefined)
      throw new ToolgenError("invalid_option", `${flag} applies to --distill`);
  const teacher = opts.distillTeacher;
  if (teacher !== undefined && teacher !== "base" && teacher !== "rows")
    throw new ToolgenError("invalid_option", `--distill-teacher must be base or rows, got "${teacher}"`);
  if (teacher === "rows" && !opts.rowsFirst)
    throw new ToolgenError(
      "invalid_option",
      "--distill-teacher rows takes its targets after the rows fit: it needs --rows-first",
    );
  const scope = opts.distillScope;
  if (scope !== undefined && scope !== "all" && scope !== "old")
    throw new ToolgenError("invalid_option", `--distill-scope must be all or old, got "${scope}"`);
  if (scope === "old" && teacher === "rows")
    throw new ToolgenError(
      "invalid_option",
      "--distill-scope old holds the old tools among themselves: it needs --distill-teacher base",
    );
  let distill:
    { weight: number; temperature?: number; teacher?: "base" | "rows"; scope?: "all" | "old" } | undefined;
  if (opts.distill !== undefined) {
    const weight = Number(opts.distill);
    if (!(weight >= 0 && weight <= 1) || opts.distill.trim() === "")
      throw new ToolgenError("invalid_option", `--distill must be a number in [0, 1], got "${opts.distill}"`);
    distill = {
      weight,
      ...(opts.distillTemperature !== undefined
        ? { temperature: positiveNumberOption(opts.distillTemperature, "--distill-temperature") }
        : {}),
      ...(teacher !== undefined ? { teacher } : {}),
      ...(scope !== undefined ? { scope } : {}),
    };
  }
  let hardReplay: number | undefined;
  if (opts.hardReplay !== undefined) {
    hardReplay = Number(opts.hardReplay);
    if (!(hardReplay >= 0 && hardReplay <= 1) || opts.hardReplay.trim() === "")
      throw new ToolgenError(
        "invalid_option",
        `--hard-replay must be a share in [0, 1], got "${opts.hardReplay}"`,
      );
  }
  if (opts.spreadReplay && (opts.hardReplay !== undefined || opts.distill !== undefined))
    throw new ToolgenError(
      "invalid_option",
      "--spread-replay does not combine with --hard-replay or --distill (both are tied to one replay draw)",
    );
  const userLossSamples =
    opts.userLossSamples === undefined
      ? undefined
      : integerOption(opts.userLossSamples, "--user-loss-samples", 1);
  let newToolOffset: number | "auto" | undefined;
  if (opts.newToolOffset === "auto") newToolOffset = "auto";
  else if (opts.newToolOffset !== undefined) {
    newToolOffset = Number(opts.newToolOffset);
    if (!Number.isFinite(newToolOffset) || opts.newToolOffset.trim() === "")
      throw new ToolgenError(
        "invalid_option",
        `--new-tool-offset must be a number or auto, got "${opts.newToolOffset}"`,
      );
  }
  const epochs = perStage("--epochs", opts.epochs);
  const lr = perStage("--lr", opts.lr);
  let replay: number | undefined;
  if (opts.replay !== undefined) {
    replay = Number(opts.replay);
    if (!(replay >= 0 && Number.isFinite(replay)))
      throw new ToolgenError("invalid_option", `--replay must be a number ≥ 0, got "${opts.replay}"`);
  }
  // Not given: the model's own seed.
  const seed =
    command.getOptionValueSource("seed") === "default" ? undefined : integerOption(opts.seed, "--seed", 0);
  const tools = loadCatalog(opts.addTools);
  const queries = (opts.queries ?? []).flatMap((f) => loadQueries(f));
  const manifest = await addToolsToModel({
    from: opts.from,
    out: opts.out,
    tools,
    queries,
    epochs,
    lr,
    replay,
    method,
    ...(opts.rowsFirst ? { rowsFirst: true } : {}),
    ...(anchor !== undefined ? { anchor } : {}),
    ...(trainLayers !== undefined ? { trainLayers } : {}),
    ...(distill ? { distill } : {}),
    ...(hardReplay !== undefined ? { hardReplay } : {}),
    ...(opts.spreadReplay ? { spreadReplay: true } : {}),
    ...(userLossSamples !== undefined ? { userLossSamples } : {}),
    ...(opts.replayWithoutUserLoss ? { replayUserLoss: false } : {}),
    ...(newToolOffset !== undefined ? { newToolOffset } : {}),
    seed,
    progress: opts.progress,
    signal,
  }).catch((error: unknown) => {
    if (signal.aborted) throw new CommandError((error as Error).message, { exitCode: 130 });
    throw error;
  });
  const added = manifest.added!.at(-1)!;
  if (opts.json) {
    process.stdout.write(
      JSON.stringify({ out: opts.out, ...added, catalogSize: manifest.catalogSize }) + "\n",
    );
    return;
  }
  for (const r of added.stages)
    process.stdout.write(
      `${r.stage}: ${r.samples} samples × ${r.epochs} epochs = ${r.steps} steps, ${r.seconds.toFixed(1)} s, loss ${r.finalLoss.toFixed(4)}\n`,
    );
  process.stdout.write(
    `added ${tools.length} tools to ${opts.from} in ${added.seconds.toFixed(1)} s: ${manifest.catalogSize} tools in ${opts.out}; use --model ${opts.out}\n`,
  );
}
