import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function gitRevision(): string {
  try {
    const rev = execSync("git rev-parse HEAD", { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
    const dirty = execSync("git status --porcelain", { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
    return dirty ? `${rev}+dirty` : rev;
  } catch {
    return "unknown";
  }
}

/** Machine facts every benchmark result carries. */
export function machine(): { nproc: number; cpu: string; node: string } {
  const list = cpus();
  return { nproc: list.length, cpu: list[0]?.model ?? "unknown", node: process.version };
}

/**
 * Prints one JSON object on stdout and writes it to bench/results/NAME.json, with date, machine, command and
 * git revision, so that a figure can be traced to the run and the code that produced it.
 */
export function writeBenchResult(name: string, command: string, figures: Record<string, unknown>): void {
  const result = {
    name,
    date: new Date().toISOString(),
    machine: machine(),
    command,
    git_revision: gitRevision(),
    ...figures,
  };
  const path = join(ROOT, "bench", "results", `${name}.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(result, null, 2) + "\n");
  process.stdout.write(JSON.stringify(result) + "\n");
}
