/**
 * Fuzzes `toolgen serve mcp` (the gateway: two local tools and the everything-style upstream, --expose all) with
 * property-generated messages (bench/mcp-fuzz-messages.ts) over stdio and over Streamable HTTP, each in its own
 * child process. Counts: messages sent, requests owed an answer and answered, crashes (the process exiting), and
 * whether the server still serves afterwards. Loopback only; every loop is bounded.
 *   npm run bench:mcp-fuzz [-- --messages N --seed S]     (default 10,000 per transport, seed 39)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, FIXTURES, ROOT } from "../test/helpers/spawn-router.ts";
import { initializeRequest, spawnHttpRouter } from "../test/server/spawn-http.ts";
import { writeBenchResult } from "./lib/result.ts";
import { fuzzMessages, ID_TEXT, type FuzzMessage } from "./mcp-fuzz-messages.ts";

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const COUNT = arg("--messages", 10_000);
const SEED = arg("--seed", 39);
const WINDOW = 25; // messages between liveness probes over stdio
const ANSWER_WAIT_MS = 10_000;

interface Tally {
  transport: string;
  messages: number;
  by_kind: Record<string, number>;
  owed_answers: number;
  answered: number;
  unanswered_examples: string[];
  crashes: number;
  serving_after: boolean;
  seconds: number;
}

function gatewayArgs(dir: string): string[] {
  const config = join(dir, "gateway.json");
  const upstream = join(ROOT, "test/server/fixtures/everything-upstream.mjs");
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [upstream] } } }),
  );
  return ["--tools", join(FIXTURES, "local-tools.ts"), "--config", config];
}

const tallyOf = (transport: string, messages: FuzzMessage[]): Tally => ({
  transport,
  messages: messages.length,
  by_kind: messages.reduce<Record<string, number>>((m, x) => ((m[x.kind] = (m[x.kind] ?? 0) + 1), m), {}),
  owed_answers: 0,
  answered: 0,
  unanswered_examples: [],
  crashes: 0,
  serving_after: false,
  seconds: 0,
});

/** Over stdio: windows of messages, each closed by a ping; every owed answer must arrive (by id, or id null). */
async function fuzzStdio(dir: string, messages: FuzzMessage[]): Promise<Tally> {
  const tally = tallyOf("stdio", messages);
  const child = spawn(
    process.execPath,
    [BIN, "serve", "mcp", ...gatewayArgs(dir), "--expose", "all", "--prefix", "never", "--timeout", "2000"],
    {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "ignore"],
    },
  );
  let stopping = false;
  child.once("exit", () => void (stopping || tally.crashes++));
  const seen = new Map<string, number>();
  let nullErrors = 0;
  let buffer = "";
  let wake = (): void => undefined;
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        const message = JSON.parse(line) as { id?: unknown; method?: string };
        if (message.method !== undefined) continue; // a notification or request from the server
        if (message.id === null) nullErrors++;
        else seen.set(String(message.id), (seen.get(String(message.id)) ?? 0) + 1);
      } catch {
        tally.unanswered_examples.push(`server wrote a line that is not JSON: ${line.slice(0, 80)}`);
      }
    }
    wake();
  });
  const send = (text: string): Promise<void> =>
    new Promise((resolve) =>
      child.stdin!.write(`${text}\n`) ? resolve() : child.stdin!.once("drain", resolve),
    );
  const until = async (done: () => boolean): Promise<boolean> => {
    const deadline = Date.now() + ANSWER_WAIT_MS;
    while (!done() && Date.now() < deadline && tally.crashes === 0)
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    return done();
  };
  await send(JSON.stringify(initializeRequest("init", "fuzz")));
  await send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  await until(() => seen.has("init"));
  const started = performance.now();
  for (let start = 0; start < messages.length && tally.crashes === 0; start += WINDOW) {
    const window = messages.slice(start, start + WINDOW);
    const ids: string[] = [];
    let owedNull = 0;
    const nullBefore = nullErrors;
    for (const [i, m] of window.entries()) {
      const id = `f${start + i}`;
      if (m.wantsId) ids.push(id);
      else if (m.owed === "response") owedNull++;
      await send(m.text.replaceAll(ID_TEXT, id));
    }
    const probe = `probe${start}`;
    await send(JSON.stringify({ jsonrpc: "2.0", id: probe, method: "ping" }));
    // Answers to malformed lines carry id null or the id they could read (1 in these messages): count them.
    const answeredMalformed = (): number =>
      nullErrors - nullBefore + (seen.get("1") ?? 0) + (seen.get("1.5") ?? 0);
    await until(() => seen.has(probe) && ids.every((id) => seen.has(id)) && answeredMalformed() >= owedNull);
    tally.owed_answers += ids.length + owedNull + 1;
    tally.answered += ids.filter((id) => seen.get(id) === 1).length + Math.min(owedNull, answeredMalformed());
    tally.answered += seen.has(probe) ? 1 : 0;
    for (const id of ids.filter((x) => seen.get(x) !== 1).slice(0, 3))
      tally.unanswered_examples.push(
        `${window[ids.indexOf(id)]?.kind ?? "request"} ${id}: ${seen.get(id) ?? 0} answers`,
      );
    seen.delete("1");
    seen.delete("1.5");
  }
  tally.seconds = Math.round((performance.now() - started) / 100) / 10;
  await send(JSON.stringify({ jsonrpc: "2.0", id: "last", method: "tools/list" }));
  tally.serving_after = await until(() => seen.has("last"));
  stopping = true;
  child.kill("SIGTERM");
  return tally;
}

/** Over HTTP: each message one POST (with a few header faults), 8 at a time; every request must get a response. */
async function fuzzHttp(dir: string, messages: FuzzMessage[]): Promise<Tally> {
  const tally = tallyOf("http", messages);
  const { child, url } = await spawnHttpRouter([
    ...gatewayArgs(dir),
    "--expose",
    "all",
    "--prefix",
    "never",
    "--timeout",
    "2000",
  ]);
  let stopping = false;
  child.once("exit", () => void (stopping || tally.crashes++));
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const initialize = async (): Promise<string> => {
    const res = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(initializeRequest(0, "fuzz")),
    });
    await res.text();
    return res.headers.get("mcp-session-id")!;
  };
  let session = await initialize();
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < messages.length && tally.crashes === 0) {
      const n = next++;
      const m = messages[n]!;
      const id = `f${n}`;
      const fault = n % 20; // 1 in 20 without a session, 1 in 20 with a bogus one, 1 in 20 without accept
      const h: Record<string, string> = { ...headers, "mcp-session-id": session };
      if (fault === 1) delete h["mcp-session-id"];
      if (fault === 2) h["mcp-session-id"] = "no-such-session";
      if (fault === 3) delete h.accept;
      tally.owed_answers++;
      try {
        const res = await fetch(url, {
          method: n % 97 === 5 ? "PUT" : "POST",
          headers: h,
          body: m.text.replaceAll(ID_TEXT, id),
          signal: AbortSignal.timeout(ANSWER_WAIT_MS),
        });
        const body = await res.text();
        const clean = fault === 0 || fault > 3;
        const ok = !(m.wantsId && clean && res.status === 200) || body.includes(`"id":"${id}"`);
        if (ok) tally.answered++;
        else if (tally.unanswered_examples.length < 5)
          tally.unanswered_examples.push(`${m.kind} ${id}: HTTP ${res.status} without its answer`);
        if (res.status === 404 && clean) session = await initialize();
      } catch (error) {
        if (tally.unanswered_examples.length < 5)
          tally.unanswered_examples.push(`${m.kind} ${id}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  tally.seconds = Math.round((performance.now() - started) / 100) / 10;
  const last = await fetch(url, {
    method: "POST",
    headers: { ...headers, "mcp-session-id": session },
    body: JSON.stringify({ jsonrpc: "2.0", id: "last", method: "tools/list" }),
  }).catch(() => undefined);
  tally.serving_after = last?.status === 200 && (await last.text()).includes("test_simple_text");
  stopping = true;
  child.kill("SIGTERM");
  return tally;
}

const dir = mkdtempSync(join(tmpdir(), "toolgen-mcp-fuzz-"));
try {
  const load = loadavg().map((x) => Math.round(x * 100) / 100);
  const stdio = await fuzzStdio(dir, fuzzMessages(COUNT, SEED));
  const http = await fuzzHttp(dir, fuzzMessages(COUNT, SEED + 1));
  const summary = (t: Tally) => ({
    ...t,
    answered_percent: Math.round((t.answered / t.owed_answers) * 10_000) / 100,
  });
  writeBenchResult("mcp-fuzz", `npm run bench:mcp-fuzz -- --messages ${COUNT} --seed ${SEED}`, {
    load_average_1_5_15_at_start: load,
    server:
      "toolgen serve mcp --tools test/fixtures/mcp/local-tools.ts --config (everything-style upstream) --expose all --prefix never --timeout 2000",
    generator: "fast-check fc.sample over bench/mcp-fuzz-messages.ts (seed for stdio; seed + 1 for HTTP)",
    stdio: summary(stdio),
    http: summary(http),
  });
  if (stdio.crashes + http.crashes > 0 || !stdio.serving_after || !http.serving_after) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
