/**
 * Load on `toolgen serve mcp --http` (a child process on 127.0.0.1): 16 concurrent MCP clients (the SDK's, one
 * session each) over the 2,479-API StableToolBench catalog and over 50,000 tools (the same APIs, each written
 * as 20 variants), a fixed number of requests each: search_tools with the StableToolBench test queries and
 * call_tool of a local tool. Reports p50/p99 of search and call, throughput, and the server's RSS at start, after
 * a warm-up round (the same requests, not counted) and after the measured round; a ping round trip measured in the same run is the reference the latencies
 * are also given against. Loopback only.
 *   npm run bench:mcp-load [-- --clients 16 --searches 100 --calls 25]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import { quantile } from "../src/eval/metrics.ts";
import { SHARED_DATA } from "../test/helpers/shared-data.ts";
import { FIXTURES } from "../test/helpers/spawn-router.ts";
import { spawnHttpRouter } from "../test/server/spawn-http.ts";
import { writeBenchResult } from "./lib/result.ts";

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const CLIENTS = arg("--clients", 16);
const SEARCHES = arg("--searches", 100);
const CALLS = arg("--calls", 25);
const PINGS = 10;
const DIR = join(SHARED_DATA, "stabletoolbench");
const ms = (x: number): number => Math.round(x * 100) / 100;

function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Math.round((Number(kb) / 1024) * 10) / 10;
}

/** 50,000 tools: each StableToolBench API written as numbered variants (a tool list catalog). */
function syntheticCatalog(apis: string, file: string, size: number): void {
  const base = loadCatalog(apis);
  const tools = Array.from({ length: size }, (_, i) => {
    const e = base[i % base.length]!;
    const variant = Math.floor(i / base.length);
    return {
      name: `${e.id.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 100)}_v${variant}`,
      description: `${e.description} (variant ${variant})`,
      parameters: e.parameters,
    };
  });
  writeFileSync(file, JSON.stringify(tools));
}

async function run(catalog: string, queries: string[]) {
  const { child, url } = await spawnHttpRouter([
    "--catalog",
    catalog,
    "--tools",
    join(FIXTURES, "local-tools.ts"),
  ]);
  const rssStart = rssMiB(child.pid!);
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      const client = new Client({ name: `load-${i}`, version: "0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
  const timed = async (into: number[], call: () => Promise<unknown>): Promise<void> => {
    const t0 = performance.now();
    const result = (await call()) as { isError?: boolean };
    into.push(performance.now() - t0);
    if (result?.isError) throw new Error(`a request failed: ${JSON.stringify(result)}`);
  };
  const search = (c: Client, q: string) =>
    c.callTool({ name: "search_tools", arguments: { query: q, k: 5 } });
  const call = (c: Client, n: number) =>
    c.callTool({ name: "call_tool", arguments: { id: "reverse_text", arguments: { text: `load ${n}` } } });
  const pings: number[] = [];
  const searches: number[] = [];
  const calls: number[] = [];
  const round = (into: { pings: number[]; searches: number[]; calls: number[] }) =>
    Promise.all(
      clients.map(async (c, i) => {
        for (let p = 0; p < PINGS; p++) await timed(into.pings, () => c.ping());
        for (let s = 0; s < SEARCHES; s++) {
          await timed(into.searches, () => search(c, queries[(i * SEARCHES + s) % queries.length]!));
          if (s % Math.max(1, Math.floor(SEARCHES / CALLS)) === 0) await timed(into.calls, () => call(c, s));
        }
      }),
    );
  // A warm-up round, the same as the measured one, not counted: memory is compared from its end.
  await round({ pings: [], searches: [], calls: [] });
  const rssWarm = rssMiB(child.pid!);
  const started = performance.now();
  await round({ pings, searches, calls });
  const seconds = (performance.now() - started) / 1000;
  const rssEnd = rssMiB(child.pid!);
  await Promise.all(clients.map((c) => c.close()));
  child.kill("SIGTERM");
  const p = (xs: number[], q: number): number => ms(quantile(xs, q));
  const pingP50 = quantile(pings, 0.5);
  return {
    tools: loadCatalog(catalog).length + 2,
    requests: { pings: pings.length, searches: searches.length, calls: calls.length },
    ping_ms: { p50: p(pings, 0.5), p99: p(pings, 0.99) },
    search_ms: {
      p50: p(searches, 0.5),
      p99: p(searches, 0.99),
      p99_over_ping_p50: ms(quantile(searches, 0.99) / pingP50),
    },
    call_ms: {
      p50: p(calls, 0.5),
      p99: p(calls, 0.99),
      p99_over_ping_p50: ms(quantile(calls, 0.99) / pingP50),
    },
    throughput_requests_per_s: Math.round((pings.length + searches.length + calls.length) / seconds),
    rss_mib: {
      at_start: rssStart,
      after_warm_up: rssWarm,
      after_run: rssEnd,
      growth_over_run_percent: Math.round(((rssEnd - rssWarm) / rssWarm) * 1000) / 10,
    },
  };
}

const apis = join(DIR, "apis.json");
if (!existsSync(apis)) {
  process.stderr.write(`SKIP: ${apis} is absent (see ../shared/data/README.md); no figures written\n`);
  process.exitCode = 1;
} else {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-mcp-load-"));
  try {
    const catalog = loadCatalog(apis);
    const queries = ["G1_instruction", "G1_category", "G1_tool", "G2_instruction", "G2_category"].flatMap(
      (f) => loadQueries(join(DIR, `${f}.json`), catalog).map((q) => q.query),
    );
    const big = join(dir, "tools-50000.json");
    syntheticCatalog(apis, big, 50_000);
    const load = loadavg().map((x) => Math.round(x * 100) / 100);
    const small = await run(apis, queries);
    const large = await run(big, queries);
    writeBenchResult(
      "mcp-load",
      `npm run bench:mcp-load -- --clients ${CLIENTS} --searches ${SEARCHES} --calls ${CALLS}`,
      {
        load_average_1_5_15_at_start: load,
        load_average_1_5_15_at_end: loadavg().map((x) => Math.round(x * 100) / 100),
        server: "toolgen serve mcp --catalog FILE --tools test/fixtures/mcp/local-tools.ts --http 0 (bm25)",
        clients: CLIENTS,
        per_client: { pings: PINGS, searches: SEARCHES, calls: CALLS },
        queries: "StableToolBench G1/G2 test queries, in turn",
        stabletoolbench_2479: small,
        synthetic_50000: large,
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
