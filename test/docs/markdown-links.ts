// The links of a Markdown text that point into the repository (not URLs, not in-page anchors), outside code.
export interface LocalLink {
  /** 1-based line of the link. */
  line: number;
  /** The target without its `#anchor`, relative to the Markdown file's folder. */
  target: string;
}

const FENCE = /^ {0,3}(```|~~~)/;
const LINK = /\]\(([^)\s]+)\)/g;

export function localLinks(text: string): LocalLink[] {
  const links: LocalLink[] = [];
  let inCode = false;
  text.split("\n").forEach((line, i) => {
    if (FENCE.test(line)) inCode = !inCode;
    if (inCode) return;
    for (const [, href] of line.replace(/`[^`]*`/g, "").matchAll(LINK)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href!) || href!.startsWith("#")) continue;
      links.push({ line: i + 1, target: href!.split("#")[0]! });
    }
  });
  return links;
}
