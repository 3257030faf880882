#!/usr/bin/env node
// The toolgen CLI. An installed package runs the compiled JavaScript in dist/ (built by `npm run build`, which
// `prepare` runs on `npm ci`, `npm pack` and git installs). A development checkout runs the TypeScript sources
// through tsx instead, so an edit takes effect without a rebuild and dist/ can never be stale there.
// TOOLGEN_BIN=dist or TOOLGEN_BIN=src overrides the choice (bench/cli.ts times the compiled CLI this way).
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(realpathSync(fileURLToPath(import.meta.url))), "..");
const compiled = join(root, "dist", "cli", "main.js");
const installed = root.split(sep).includes("node_modules");
const choice =
  process.env.TOOLGEN_BIN ?? (installed || !existsSync(join(root, "tsconfig.json")) ? "dist" : "src");

if (choice === "dist") {
  if (!existsSync(compiled)) {
    process.stderr.write(`toolgen: ${compiled} is missing; run \`npm run build\` in ${root}\n`);
    process.exit(1);
  }
  const { main } = await import("../dist/cli/main.js");
  await main(process.argv);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import("../src/cli/main.ts");
  await main(process.argv);
}
