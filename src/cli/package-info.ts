import { readFileSync } from "node:fs";

/** toolgen's own package.json (beside src/ and dist/ alike): the version `--version` prints, the engines doctor checks. */
export interface PackageInfo {
  version: string;
  engines: { node: string };
  peerDependencies: Record<string, string>;
  dependencies: Record<string, string>;
}

export function packageInfo(): PackageInfo {
  return JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as PackageInfo;
}

/** The folder the package sits in (its package.json's folder). */
export const PACKAGE_ROOT = new URL("../../", import.meta.url);
