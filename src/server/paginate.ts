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

/** How many items one page of the gateway's own lists holds. */
export const PAGE_SIZE = 500;

/**
 * One page of a list the gateway serves: from the position the cursor names (an opaque string to clients), with
 * `nextCursor` while more follow; undefined for a cursor the gateway did not give.
 */
export function pageOf<T>(
  items: readonly T[],
  cursor: string | undefined,
  size = PAGE_SIZE,
): { items: T[]; nextCursor?: string } | undefined {
  let start = 0;
  if (cursor !== undefined) {
    const decoded = /^p(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!decoded || Number(decoded[1]) > items.length) return undefined;
    start = Number(decoded[1]);
  }
  const end = start + size;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: Buffer.from(`p${end}`).toString("base64url") } : {}),
  };
}
