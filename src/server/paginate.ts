import { ToolgenError } from "../errors.ts";

/** The most pages one list may take; a server that pages further is reported, not followed forever. */
export const MAX_PAGES = 1000;

/**
 * Follows a paginated MCP list from its first page to its last. A cursor seen before (a server that loops) or
 * more than `MAX_PAGES` pages ends the walk with an error naming what was listed, instead of a hang.
 */
export async function listAllPages<T>(
  what: string,
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: unknown }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= MAX_PAGES)
      throw new ToolgenError("upstream_failure", `${what}: more than ${MAX_PAGES} pages; stopped`);
    const next = await page(cursor);
    items.push(...next.items);
    if (next.nextCursor === undefined || next.nextCursor === null) return items;
    if (typeof next.nextCursor !== "string")
      throw new ToolgenError("upstream_failure", `${what}: nextCursor is not a string`);
    if (seen.has(next.nextCursor))
      throw new ToolgenError(
        "upstream_failure",
        `${what}: cursor ${JSON.stringify(next.nextCursor)} came back a second time; stopped`,
      );
    seen.add(next.nextCursor);
    cursor = next.nextCursor;
  }
}
