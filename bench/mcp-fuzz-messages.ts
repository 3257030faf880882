/**
 * The messages of the MCP fuzz bench (bench/mcp-fuzz.ts), drawn by fast-check from a fixed seed: well-formed
 * requests with wrongly typed or random params, notifications and stray responses sent out of order, envelopes
 * with wrong types, truncated JSON, garbage, batches and oversized lines. Each carries what a conforming server
 * owes it: one response (a request, or anything that is not a JSON-RPC message), none (a notification, a
 * response), or either (an envelope the spec leaves unclear, e.g. a request id that is a float or null).
 */
import fc from "fast-check";

export type Owed = "response" | "none" | "either";

export interface FuzzMessage {
  kind: string;
  /** The JSON-RPC id the answer must carry; set by the runner for well-formed requests (`ID` placeholder). */
  wantsId: boolean;
  owed: Owed;
  /** The text to send (a line over stdio, a body over HTTP); `ID` is replaced by the runner's unique id. */
  text: string;
}

/** Replaced by the runner with the message's unique id (`"__ID__"` is a request's whole id). */
export const ID_TEXT = "__ID__";
export const ID_PLACEHOLDER = `"${ID_TEXT}"`;
/** Over the server's 4 MiB limit for one line or body. */
const OVERSIZED_BYTES = 4 * 2 ** 20 + 1024;

const json = fc.jsonValue({ maxDepth: 3 });
const methods = fc.constantFrom(
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "sampling/createMessage",
  "no/such/method",
  "",
);
const toolNames = fc.constantFrom(
  "search_tools",
  "call_tool",
  "get_tool",
  "reverse_text",
  "convert_temperature",
  "test_simple_text",
  "test_image_content",
  "test_multiple_content_types",
  "test_tool_with_progress",
  "test_tool_with_logging",
  "test_sampling",
  "test_elicitation",
  "test_error_handling",
  "structured_sum",
  "no_such_tool",
);
const callArguments = fc.oneof(
  json,
  fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 4 }),
  fc.record({ query: fc.oneof(fc.string(), json), k: fc.oneof(fc.integer(), json) }, { requiredKeys: [] }),
  fc.record({ id: fc.oneof(toolNames, json), arguments: fc.oneof(json, fc.string()) }, { requiredKeys: [] }),
  fc.record({ text: fc.oneof(fc.string(), json), a: json, b: json }, { requiredKeys: [] }),
);
const params = fc.oneof(
  json,
  fc.record(
    {
      name: fc.oneof(toolNames, json),
      arguments: callArguments,
      _meta: fc.record({ progressToken: fc.oneof(fc.string(), fc.integer(), json) }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    { uri: fc.oneof(fc.constantFrom("test://static-text", "test://template/1/data", "x://y"), json) },
    { requiredKeys: [] },
  ),
  fc.record(
    { level: fc.oneof(fc.constantFrom("debug", "info", "error", "loud"), json) },
    { requiredKeys: [] },
  ),
  fc.record({ ref: json, argument: json }, { requiredKeys: [] }),
);
const withParams = (base: Record<string, unknown>, p: unknown): Record<string, unknown> =>
  p === undefined ? base : { ...base, params: p };

const request = fc.tuple(methods, fc.option(params, { nil: undefined })).map(([method, p]) => ({
  kind: "request",
  wantsId: true,
  owed: "response" as Owed,
  text: JSON.stringify(withParams({ jsonrpc: "2.0", id: "__ID__", method }, p)),
}));
const notification = fc
  .tuple(
    fc.constantFrom(
      "notifications/initialized",
      "notifications/cancelled",
      "notifications/progress",
      "notifications/roots/list_changed",
      "notifications/unknown",
    ),
    fc.option(params, { nil: undefined }),
  )
  .map(([method, p]) => ({
    kind: "notification (out of order)",
    wantsId: false,
    owed: "none" as Owed,
    text: JSON.stringify(withParams({ jsonrpc: "2.0", method }, p)),
  }));
const strayResponse = fc
  .tuple(fc.integer({ min: -5, max: 1_000_000 }), json, fc.boolean())
  .map(([id, value, failed]) => ({
    kind: "response to nothing",
    wantsId: false,
    owed: "none" as Owed,
    text: JSON.stringify(
      failed
        ? { jsonrpc: "2.0", id, error: { code: -1, message: String(value) } }
        : { jsonrpc: "2.0", id, result: value },
    ),
  }));
const wrongEnvelope = fc
  .tuple(methods, json, fc.constantFrom("jsonrpc", "method", "id"))
  .map(([method, junk, broken]) => {
    if (broken === "jsonrpc")
      return {
        kind: "wrong jsonrpc",
        owed: "response" as Owed,
        body: { jsonrpc: junk === "2.0" ? 1 : junk, id: 1, method },
      };
    if (broken === "method")
      return {
        kind: "method not a string",
        owed: "response" as Owed,
        body: { jsonrpc: "2.0", id: 1, method: [junk] },
      };
    // A float, null, boolean or object id: the spec and the SDK read these differently; either is acceptable.
    return {
      kind: "id of a wrong type",
      owed: "either" as Owed,
      body: { jsonrpc: "2.0", id: junk === null ? 1.5 : junk, method },
    };
  })
  .map(({ kind, owed, body }) => ({ kind, wantsId: false, owed, text: JSON.stringify(body) }));
const truncated = fc.tuple(request, fc.double({ min: 0.05, max: 0.95, noNaN: true })).map(([r, at]) => ({
  kind: "truncated JSON",
  wantsId: false,
  owed: "response" as Owed,
  text: r.text.replace(ID_PLACEHOLDER, "1").slice(0, Math.max(1, Math.floor(r.text.length * at))),
}));
const garbage = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 200 }),
    fc.string({ unit: "binary", minLength: 1, maxLength: 200 }),
  )
  .map((s) => s.replace(/[\r\n]/g, " "))
  .filter((s) => s.trim() !== "")
  .map((text) => ({ kind: "garbage", wantsId: false, owed: "response" as Owed, text }));
const batch = fc.array(request, { minLength: 1, maxLength: 3 }).map((rs) => ({
  kind: "batch (array)",
  wantsId: false,
  owed: "response" as Owed,
  // Ids unique within the session, as the spec asks of a client: "<message id>-1", "<message id>-2", ...
  text: `[${rs.map((r, i) => r.text.replace(ID_PLACEHOLDER, `"${ID_TEXT}-${i + 1}"`)).join(",")}]`,
}));
const oversized = fc.constant(0).map(() => ({
  kind: "oversized",
  wantsId: false,
  owed: "response" as Owed,
  text: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "reverse_text", arguments: { text: "x".repeat(OVERSIZED_BYTES) } },
  }),
}));

/** `count` messages from a fixed seed; about one in 500 is oversized (they cost 4 MiB each). */
export function fuzzMessages(count: number, seed: number): FuzzMessage[] {
  const one = fc.oneof(
    { arbitrary: request, weight: 200 },
    { arbitrary: notification, weight: 50 },
    { arbitrary: strayResponse, weight: 30 },
    { arbitrary: wrongEnvelope, weight: 50 },
    { arbitrary: truncated, weight: 60 },
    { arbitrary: garbage, weight: 60 },
    { arbitrary: batch, weight: 30 },
    { arbitrary: oversized, weight: 1 },
  );
  return fc.sample(one, { numRuns: count, seed });
}
