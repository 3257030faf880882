import type { CatalogEntry } from "../catalog/catalog.ts";
import type { SynthItem, SynthOptions } from "./types.ts";

/** Labelled questions for every tool of `catalog` (README.md). The same catalog and options give the same items. */
export function synthesize(catalog: readonly CatalogEntry[], options: SynthOptions): SynthItem[] {
  void catalog;
  void options;
  return [];
}
