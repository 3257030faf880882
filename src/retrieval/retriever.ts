/** A ranked hit; ids are catalog ids (`tool&&api` or a plain name). */
export interface RetrievalHit {
  id: string;
  score: number;
}

export interface SearchOptions {
  k?: number;
}

/** Deterministic for a fixed index or model. */
export interface Retriever {
  readonly name: string;
  search(query: string, options?: SearchOptions): Promise<RetrievalHit[]>;
}
