import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = resolve(ROOT, "bin/toolgen.mjs");
export const FIXTURES = resolve(ROOT, "test/fixtures/mcp");
export const UPSTREAM = resolve(FIXTURES, "upstream-server.mjs");

export interface SpawnedRouter {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Starts `node bin/toolgen.mjs serve mcp ARGS` as a real child process and connects the SDK's client over stdio. */
export async function spawnRouter(args: string[]): Promise<SpawnedRouter> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", "mcp", ...args],
    cwd: ROOT,
    env: getDefaultEnvironment(),
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  const client = new Client({ name: "toolgen-test", version: "0.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`router did not start: ${(error as Error).message}\n${log}`, { cause: error });
  }
  return { client, stderr: () => log, close: () => client.close() };
}

/** The text of a result's first content part. */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  return first?.type === "text" ? first.text : JSON.stringify(content);
}
