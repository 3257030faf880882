import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes a tools.json catalog and train/test query CSVs ("query,tool" rows) into dir; returns their paths. */
export function writeCatalogFiles(
  dir: string,
  tools: Record<string, string>,
  train: readonly string[],
  test: readonly string[],
): { tools: string; train: string; test: string } {
  const files = {
    tools: join(dir, "tools.json"),
    train: join(dir, "train.csv"),
    test: join(dir, "test.csv"),
  };
  writeFileSync(files.tools, JSON.stringify(tools));
  writeFileSync(files.train, train.join("\n"));
  writeFileSync(files.test, test.join("\n"));
  return files;
}
