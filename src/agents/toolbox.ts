import type { CatalogEntry } from "../catalog/catalog.ts";
import type { Message } from "../chat/messages.ts";
import type { Retriever } from "../retrieval/retriever.ts";
import type { Tool } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";

/** What a per-step tool selector sees. */
export interface ToolSelection {
  memoryId: string;
  /** The user's text for this turn (what the retriever searched for). */
  query: string;
  /** Model calls made so far in this run. */
  step: number;
  messages: Message[];
  /** The tools the retriever found for this turn (all tools when there is no retriever). */
  retrieved: Tool[];
  all: Tool[];
}

export type ToolSelector = (selection: ToolSelection) => Tool[] | Promise<Tool[]>;

export interface ToolboxOptions {
  tools?: Tool[];
  /** Offer only the top-k retrieved tools each turn (the retriever pipeline ToolGen compares against). */
  retriever?: Retriever;
  /** How many retrieved tools to offer (default 5). */
  topK?: number;
  /** The id the retriever returns for a tool (default: its name; catalogs may use `tool&&api`). */
  toolId?: (tool: Tool) => string;
  /** Chooses the tools for each model call; overrides the retrieved set. */
  selectTools?: ToolSelector;
}

/** The tools an agent can run, and which of them it offers the model at each step. */
export class Toolbox {
  readonly all: Tool[];
  private readonly byId = new Map<string, Tool>();
  private readonly byName = new Map<string, Tool>();
  private readonly topK: number;

  constructor(private readonly options: ToolboxOptions) {
    this.all = options.tools ?? [];
    if (this.all.length === 0 && !options.selectTools) {
      throw new ToolgenError(
        "invalid_option",
        "an agent needs tools: pass `tools` (with an optional `retriever`) or `selectTools`",
      );
    }
    this.topK = options.topK ?? 5;
    if (!Number.isInteger(this.topK) || this.topK < 1) {
      throw new ToolgenError("invalid_option", `topK must be a positive integer, got ${options.topK}`);
    }
    for (const tool of this.all) {
      if (this.byName.has(tool.name))
        throw new ToolgenError("invalid_option", `two tools are named ${JSON.stringify(tool.name)}`);
      this.byName.set(tool.name, tool);
      this.byId.set(options.toolId ? options.toolId(tool) : tool.name, tool);
    }
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  /** The tools for this turn: the retriever's top-k when there is one, otherwise all of them. */
  async retrieve(query: string): Promise<Tool[]> {
    if (!this.options.retriever) return this.all;
    const hits = await this.options.retriever.search(query, { k: this.topK });
    const found: Tool[] = [];
    for (const hit of hits) {
      const tool = this.byId.get(hit.id);
      if (tool && !found.includes(tool)) found.push(tool);
      if (found.length === this.topK) break;
    }
    return found;
  }

  /** The tools to offer at one step: the selector's choice when there is one. */
  async offer(selection: Omit<ToolSelection, "all">): Promise<Tool[]> {
    const select = this.options.selectTools;
    if (!select) return selection.retrieved;
    const chosen = await select({ ...selection, all: this.all });
    for (const tool of chosen) {
      if (!this.byName.has(tool.name)) this.byName.set(tool.name, tool);
    }
    return chosen;
  }
}

/** A catalog entry for one of the user's own tools (id = name, as `catalogId` gives for a tool without an API name). */
export function catalogEntryFromTool(tool: Tool): CatalogEntry {
  return {
    id: tool.name,
    tool: tool.name,
    api: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    doc: { name: tool.name, description: tool.description },
  };
}
