import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Self-imports ("toolgen", "toolgen/engine", …) run the sources, as tsconfig.json's "toolgen-source"
  // condition types them (package.json "exports"), not dist/, which may be absent or stale.
  resolve: {
    alias: [
      { find: /^toolgen$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
      {
        find: /^toolgen\/(engine|train|server|testing)$/,
        replacement: fileURLToPath(new URL("./src/entry/$1.ts", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
