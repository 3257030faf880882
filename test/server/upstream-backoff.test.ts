import { describe, expect, it } from "vitest";
import { UpstreamServer } from "../../src/server/upstream.ts";
import { UPSTREAM } from "../helpers/spawn-router.ts";

describe("an upstream that keeps failing", () => {
  it("is retried once at once, then answered as unavailable without a start until its backoff has passed", async () => {
    const upstream = new UpstreamServer(
      {
        name: "broken",
        command: process.execPath,
        args: ["-e", "process.stderr.write('no config\\n'); process.exit(3)"],
      },
      { onStderr: () => undefined, startTimeoutMs: 10_000 },
    );
    try {
      await expect(upstream.callTool("x", {})).rejects.toThrow(/cannot start upstream MCP server "broken"/);
      await expect(upstream.callTool("x", {})).rejects.toThrow(/cannot start upstream MCP server "broken"/);
      expect(upstream.starts).toBe(2);
      const t0 = performance.now();
      await expect(upstream.callTool("x", {})).rejects.toThrow(
        /"broken" is unavailable: it failed 2 times in a row; next try in 0\.\d s/,
      );
      expect(performance.now() - t0).toBeLessThan(100); // answered at once, never a hang
      expect(upstream.starts).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 600));
      await expect(upstream.callTool("x", {})).rejects.toThrow(/cannot start/);
      expect(upstream.starts).toBe(3);
    } finally {
      await upstream.close();
    }
  });

  it("reports an upstream that exits on its own, and starts it again on the next request", async () => {
    const warnings: string[] = [];
    const upstream = new UpstreamServer(
      { name: "fixture", command: process.execPath, args: [UPSTREAM] },
      { onStderr: () => undefined, onWarning: (line) => warnings.push(line) },
    );
    try {
      await expect(upstream.callTool("crash", {})).rejects.toThrow(/exited during the call to "crash"/);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/upstream MCP server "fixture" exited.*restarts on the next request/);
      const echo = await upstream.callTool("echo", { text: "back" });
      expect(echo.isError).toBeFalsy();
      expect(upstream.starts).toBe(2);
    } finally {
      await upstream.close();
    }
  });
});
