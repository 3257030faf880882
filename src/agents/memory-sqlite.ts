import { createRequire } from "node:module";
import type Database from "better-sqlite3";
import type { Message } from "../chat/messages.ts";
import type { ChatMemoryStore } from "./memory.ts";
import { ToolgenError } from "../errors.ts";

const ROLES = new Set(["system", "user", "assistant", "tool"]);

/** better-sqlite3 is an optional peer of toolgen (a native module only this store needs): loaded on first use. */
export const SQLITE_MISSING =
  "better-sqlite3 is not installed (an optional peer of toolgen, needed for SQLite chat memory); add it with `npm install better-sqlite3@12.11.1`";

function sqliteDriver(): typeof Database {
  try {
    return createRequire(import.meta.url)("better-sqlite3") as typeof Database;
  } catch (error) {
    throw new ToolgenError("invalid_option", SQLITE_MISSING, { cause: error });
  }
}

/**
 * A ChatMemoryStore in one SQLite file (better-sqlite3), so conversations survive a restart. Each update
 * replaces a conversation's row in one statement (atomic: a crash leaves the old or the new list, never a
 * mix); WAL mode lets another process read while this one writes.
 */
export class SqliteChatMemoryStore implements ChatMemoryStore {
  private readonly db: Database.Database;
  private readonly select: Database.Statement<[string], { messages: string }>;
  private readonly upsert: Database.Statement<[string, string, number]>;
  private readonly remove: Database.Statement<[string]>;
  private readonly listIds: Database.Statement<[], { memory_id: string }>;

  constructor(readonly path: string) {
    const Driver = sqliteDriver();
    try {
      this.db = new Driver(path);
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("busy_timeout = 5000");
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS chat_memory (
           memory_id TEXT PRIMARY KEY,
           messages TEXT NOT NULL,
           updated_at INTEGER NOT NULL
         )`,
      );
    } catch (error) {
      throw new ToolgenError(
        "invalid_input",
        `cannot open the SQLite chat memory at ${path}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    this.select = this.db.prepare("SELECT messages FROM chat_memory WHERE memory_id = ?");
    this.upsert = this.db.prepare(
      `INSERT INTO chat_memory (memory_id, messages, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(memory_id) DO UPDATE SET messages = excluded.messages, updated_at = excluded.updated_at`,
    );
    this.remove = this.db.prepare("DELETE FROM chat_memory WHERE memory_id = ?");
    this.listIds = this.db.prepare("SELECT memory_id FROM chat_memory ORDER BY memory_id");
  }

  getMessages(memoryId: string): Message[] {
    const row = this.select.get(memoryId);
    if (!row) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.messages);
    } catch (error) {
      throw new ToolgenError(
        "invalid_input",
        `chat memory ${JSON.stringify(memoryId)} in ${this.path} is not valid JSON: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (!Array.isArray(parsed) || !parsed.every(isMessage)) {
      throw new ToolgenError(
        "invalid_input",
        `chat memory ${JSON.stringify(memoryId)} in ${this.path} is not a list of messages ` +
          `({role: system|user|assistant|tool, content: string})`,
      );
    }
    return parsed;
  }

  updateMessages(memoryId: string, messages: Message[]): void {
    this.upsert.run(memoryId, JSON.stringify(messages), Date.now());
  }

  deleteMessages(memoryId: string): void {
    this.remove.run(memoryId);
  }

  ids(): string[] {
    return this.listIds.all().map((row) => row.memory_id);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== "object" || value === null) return false;
  const m = value as { role?: unknown; content?: unknown };
  return typeof m.role === "string" && ROLES.has(m.role) && typeof m.content === "string";
}
