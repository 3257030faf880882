import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Creates the folder `file` goes into, parents included: `--out runs/split.csv` in a fresh clone works instead
 * of failing on a temporary name in a folder that does not exist.
 */
export function makeParentFolder(file: string): void {
  mkdirSync(dirname(resolve(file)), { recursive: true });
}

/**
 * Writes a file atomically: a temporary file in the same folder, flushed to disk, then renamed over `file`.
 * The folder is created when missing.
 */
export function writeFileAtomic(file: string, data: Uint8Array | string): void {
  makeParentFolder(file);
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const fd = openSync(tmp, "w");
  try {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(tmp);
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
}
