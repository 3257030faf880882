import { existsSync } from "node:fs";
import { join } from "node:path";
import { sharedData } from "../../test/helpers/shared-data.ts";

/**
 * A file of the shared benchmark data: under $TOOLGEN_SHARED_DATA when set (a worktree that does not sit beside
 * ../shared), else where the tests look for it (test/helpers/shared-data.ts). Undefined when absent.
 */
export function sharedFile(relative: string): string | undefined {
  const dir = process.env.TOOLGEN_SHARED_DATA;
  if (dir) return existsSync(join(dir, relative)) ? join(dir, relative) : undefined;
  return sharedData(relative);
}
