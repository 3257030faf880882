// Starting `toolgen serve mcp --http 0 ...` as a child process and reading its URL, for the HTTP tests and the
// MCP benches (bench/mcp-fuzz.ts, bench/mcp-load.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { BIN, ROOT } from "../helpers/spawn-router.ts";

export interface SpawnedHttpRouter {
  child: ChildProcess;
  url: string;
}

/** `node bin/toolgen.mjs serve mcp ARGS --http 0`; resolves with the URL it prints, rejects if it exits first. */
export function spawnHttpRouter(args: readonly string[]): Promise<SpawnedHttpRouter> {
  const child = spawn(process.execPath, [BIN, "serve", "mcp", ...args, "--http", "0"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString("utf8");
      const found = /listening on (http:\/\/\S+\/mcp)/.exec(log);
      if (found) resolve({ child, url: found[1]! });
    });
    child.once("exit", (code) => reject(new Error(`toolgen serve mcp exited with ${code}: ${log}`)));
  });
}

/** An `initialize` request as a raw JSON-RPC message, for tests that speak HTTP without the SDK's client. */
export function initializeRequest(id: number | string, name: string): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name, version: "0" } },
  };
}
