import { watch, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";

/**
 * Calls `onChange` once the given files have stopped changing for `quietMs`. Each file's folder is watched (an
 * editor or `catalog import` replaces a file by renaming a new one over it, which a watch on the file itself
 * would not follow). Returns a function that stops watching.
 */
export function watchFiles(files: readonly string[], onChange: () => void, quietMs = 300): () => void {
  const byFolder = new Map<string, Set<string>>();
  for (const file of files.map((f) => resolve(f))) {
    const names = byFolder.get(dirname(file)) ?? new Set();
    names.add(basename(file));
    byFolder.set(dirname(file), names);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(onChange, quietMs);
  };
  const watchers: FSWatcher[] = [...byFolder].map(([folder, names]) =>
    watch(folder, { persistent: false }, (_event, name) => {
      if (name !== null && names.has(name.toString())) changed();
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
