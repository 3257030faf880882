// The official MCP conformance suite, installed outside the project's node_modules (it needs Node ≥ 22, which
// the `node` npm package provides): `.cache/conformance/` (git-ignored). Run as a script it installs them:
//   npx tsx test/server/conformance-suite.ts     (what `npm run conformance:install` and .ci/run do)
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const ROOT = resolve(fileURLToPath(import.meta.url), "../../..");
export const SUITE_DIR = join(ROOT, ".cache/conformance");
export const CONFORMANCE_VERSION = "0.1.16";
const NODE_MAJOR = 22;

export interface ConformanceSuite {
  /** The Node ≥ 22 binary that runs the suite. */
  node: string;
  /** The suite's command-line entry. */
  cli: string;
}

const paths = (): ConformanceSuite => ({
  node: join(SUITE_DIR, "node_modules/node/bin/node"),
  cli: join(SUITE_DIR, "node_modules/@modelcontextprotocol/conformance/dist/index.js"),
});

/** The installed suite, or why it is not usable. */
export async function findSuite(): Promise<ConformanceSuite | string> {
  const suite = paths();
  if (!existsSync(suite.node) || !existsSync(suite.cli)) return "not installed";
  const pkg = JSON.parse(
    readFileSync(join(SUITE_DIR, "node_modules/@modelcontextprotocol/conformance/package.json"), "utf8"),
  ) as { version: string };
  if (pkg.version !== CONFORMANCE_VERSION)
    return `version ${pkg.version} installed, not ${CONFORMANCE_VERSION}`;
  try {
    const { stdout } = await run(suite.node, ["--version"]);
    if (Number(/^v(\d+)/.exec(stdout.trim())?.[1]) < NODE_MAJOR) return `its node is ${stdout.trim()}`;
  } catch (error) {
    return `its node does not run: ${(error as Error).message.split("\n")[0]}`;
  }
  return suite;
}

/** Installs Node 22 and the pinned suite into `.cache/conformance` unless they are there; returns why not. */
export async function ensureSuite(timeoutMs = 180_000): Promise<ConformanceSuite | string> {
  const found = await findSuite();
  if (typeof found !== "string") return found;
  try {
    await run(
      "npm",
      [
        "install",
        "--prefix",
        SUITE_DIR,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        "--fetch-retries=1",
        "--fetch-timeout=30000",
        `node@${NODE_MAJOR}`,
        `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
      ],
      { timeout: timeoutMs, cwd: ROOT },
    );
  } catch (error) {
    const message = (error as Error).message.split("\n").find((l) => l.includes("npm error")) ?? "";
    return `npm install failed (${message.trim() || (error as Error).message.split("\n")[0]})`;
  }
  return findSuite();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const suite = await ensureSuite();
  if (typeof suite === "string") {
    process.stderr.write(`conformance suite: not installed: ${suite}\n`);
    process.exit(1);
  }
  process.stdout.write(`conformance suite ${CONFORMANCE_VERSION} ready in ${SUITE_DIR}\n`);
}
