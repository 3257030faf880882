import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";

/**
 * A retriever whose index is built just after the current work is done (or at its first search, if that comes
 * first), so a server can answer `tools/list` before an index that takes a few hundred milliseconds to build.
 * Building blocks the event loop either way; a search waits for it, and a failed build fails each search.
 */
export class DeferredRetriever implements Retriever {
  readonly name: string;
  private built: Promise<Retriever> | undefined;

  constructor(
    name: string,
    private readonly build: () => Promise<Retriever>,
  ) {
    this.name = name;
    // After the pending I/O callbacks (a waiting `tools/list` is answered first); never keeps the process alive.
    setImmediate(() => void this.ready().catch(() => undefined)).unref();
  }

  /** The built retriever (building it now if it has not been). */
  ready(): Promise<Retriever> {
    return (this.built ??= this.build());
  }

  async search(query: string, options?: SearchOptions): Promise<RetrievalHit[]> {
    return (await this.ready()).search(query, options);
  }
}
