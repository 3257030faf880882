/**
 * An incremental Server-Sent Events reader (the WHATWG event-stream format): feed it text as it arrives, in
 * pieces cut anywhere (inside a line, between \r and \n), and it returns the complete events.
 */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | undefined;

  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone \r at the very end may be the first half of \r\n: wait for the next piece.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** The stream ended: an event still being built is returned (servers often omit the final blank line). */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer !== "") {
      const event = this.line(this.buffer.replace(/\r$/, ""));
      this.buffer = "";
      if (event) events.push(event);
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id") this.id = value;
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const hasData = this.data.length > 0;
    const event: SseEvent = { event: this.event || "message", data: this.data.join("\n") };
    if (this.id !== undefined) event.id = this.id;
    this.data = [];
    this.event = "";
    // As the spec says: a block without data lines is not an event.
    return hasData ? event : undefined;
  }
}
