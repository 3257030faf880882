import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_LINE_BYTES, LineStdioServerTransport } from "../../src/server/stdio-transport.ts";
import { BIN, FIXTURES, ROOT } from "../helpers/spawn-router.ts";

/** The JSON lines a stream carries, as they come. */
function lines(stream: NodeJS.ReadableStream): () => Promise<Record<string, unknown>> {
  const queue: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: stream }).on("line", (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queue.push(line);
  });
  return async () =>
    JSON.parse(queue.shift() ?? (await new Promise<string>((r) => waiting.push(r)))) as Record<
      string,
      unknown
    >;
}

describe("LineStdioServerTransport", () => {
  it("answers bad lines, skips an over-long one across chunks, and passes good messages on", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new LineStdioServerTransport(input, output, { maxLineBytes: 64 });
    const received: unknown[] = [];
    transport.onmessage = (m) => received.push(m);
    await transport.start();
    const next = lines(output);
    input.write("{not json\n");
    expect(await next()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    input.write('{"id": 7, "hello": "world"}\n');
    expect(await next()).toMatchObject({ id: 7, error: { code: -32600 } });
    input.write("x".repeat(50));
    input.write("y".repeat(50)); // over 64 bytes before any newline: refused once, the rest skipped
    expect(await next()).toMatchObject({
      id: null,
      error: { code: -32600, message: /longer than 64 bytes/ },
    });
    input.write('zzz"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0",');
    input.write('"id":1,"method":"ping"}\n');
    await new Promise((r) => setImmediate(r));
    expect(received).toEqual([
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, method: "ping" },
    ]);
    await transport.close();
  });
});

describe("toolgen serve mcp (stdio) with malformed input", () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  afterAll(() => child?.kill());

  it("replies -32700 / -32600 and keeps serving (real server child process)", async () => {
    child = spawn(process.execPath, [BIN, "serve", "mcp", "--tools", `${FIXTURES}/local-tools.ts`], {
      cwd: ROOT,
    });
    const next = lines(child.stdout);
    child.stdin.write("this is not JSON\n");
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
    });
    child.stdin.write(
      `{"jsonrpc":"2.0","id":1,"method":"x","params":"${"a".repeat(DEFAULT_MAX_LINE_BYTES)}"}\n`,
    );
    expect(await next()).toMatchObject({ id: null, error: { code: -32600, message: /longer than/ } });
    const initialize = {
      jsonrpc: "2.0",
      id: 2,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    };
    child.stdin.write(JSON.stringify(initialize) + "\n");
    expect(await next()).toMatchObject({ id: 2, result: { serverInfo: expect.any(Object) } });
  }, 60_000);
});
