import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The public benchmark data sits beside the checkout as ../shared/data (see its README); never in the repo. */
export const SHARED_DATA = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/data");

/**
 * Returns the absolute path of a file under ../shared/data, or undefined when it is absent. When absent, the
 * reason is printed so that the skip is visible in the test output (use with `describe.skipIf(!path)`).
 */
export function sharedData(relative: string): string | undefined {
  const path = join(SHARED_DATA, relative);
  if (existsSync(path)) return path;
  console.warn(`SKIP: ${path} is absent; tests that need ../shared/data/${relative} are skipped.`);
  return undefined;
}
