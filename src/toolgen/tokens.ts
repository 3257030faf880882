/**
 * ToolGen's tool tokens (paper §4.3, atomic indexing): a catalog entry with id `tool&&api` is written as the one
 * vocabulary token `<<tool&&api>>`, and `<<Finish>>` ends a task (ToolBench's Finish function).
 */
export function toolToken(id: string): string {
  return `<<${id}>>`;
}

export const FINISH_TOKEN = "<<Finish>>";
