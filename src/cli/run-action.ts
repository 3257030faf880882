import type { Command } from "commander";
import { ToolgenError } from "../errors.ts";

/**
 * A failure that says how the command ends: its exit status (130 for an interrupt, 1 otherwise) and, for
 * `--json`, the result object to print with the `error` field added (a chat run that ended in a model error).
 */
export class CommandError extends ToolgenError {
  override name = "CommandError";
  readonly exitCode: number;
  readonly json: Record<string, unknown> | undefined;

  constructor(
    message: string,
    options: { exitCode?: number; json?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super("command", message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? 1;
    this.json = options.json;
  }
}

/** "eval retrieval" for `toolgen eval retrieval`: the command's names below the program. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** The error as one line: messages that span lines (a server's log, a stack of causes) are joined. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim().replace(/\s*\n\s*/g, " ") || (error instanceof Error ? error.name : "failed");
}

/**
 * Ends a failed command the same way everywhere: one line `toolgen CMD: message` on stderr, `{"error": …}`
 * on stdout when `--json` was asked for (so a script reading stdout sees the failure too), and a non-zero
 * exit status. No stack trace: bad input is not a crash.
 */
export function reportFailure(command: Command, error: unknown): void {
  const message = oneLine(error);
  process.stderr.write(`toolgen ${commandPath(command)}: ${message}\n`);
  if (command.opts<{ json?: boolean }>().json === true) {
    const json = error instanceof CommandError ? error.json : undefined;
    process.stdout.write(JSON.stringify({ ...json, error: message }) + "\n");
  }
  process.exitCode = error instanceof CommandError ? error.exitCode : 1;
}

/**
 * Wraps a commander action: commander passes the command itself as the last argument, so the wrapper knows
 * the command's name and its `--json` option without being told.
 */
export function runAction<Args extends unknown[]>(
  action: (...args: Args) => unknown,
): (...args: Args) => Promise<void> {
  return async (...args: Args): Promise<void> => {
    try {
      await action(...args);
    } catch (error) {
      reportFailure(args[args.length - 1] as Command, error);
    }
  };
}
