import { Command } from "commander";
import { vi } from "vitest";

/**
 * Runs CLI commands in this process with only the given registrations (so these tests do not depend on every
 * other command's module), stdout and stderr captured.
 */
export async function runCommands(
  registers: Array<(program: Command) => void>,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((c) => ((stdout += String(c)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((c) => ((stderr += String(c)), true));
  process.exitCode = undefined;
  try {
    const program = new Command().name("toolgen").exitOverride();
    for (const register of registers) register(program);
    await program.parseAsync(["node", "toolgen", ...args]);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, stdout, stderr };
}
