import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 (random port) that answers like a served virtualized ToolGen model behind
 * vLLM's OpenAI-compatible server or llama.cpp's server, and refuses (400, as they do) a request without the
 * fields each needs for ToolGen retrieval. Its "model" scores a tool token by the query words its name contains;
 * two ordinary tokens always score higher, as a real model's raw log-probabilities can.
 */
export type ServerKind = "vllm" | "llamacpp";

export interface Recorded {
  url: string;
  body: Record<string, unknown>;
}

const ORDINARY: [number, string][] = [
  [90001, "The"],
  [90002, "I"],
];

export class FakeToolGenServer {
  readonly requests: Recorded[] = [];
  baseURL = "";
  private server: Server | undefined;
  private readonly textOf = new Map<number, string>();

  constructor(
    readonly kind: ServerKind,
    /** Tool token text → id in the served vocabulary (what the virtualized tokenizer holds). */
    private readonly vocab: ReadonlyMap<string, number>,
    private readonly options: { model?: string; maxLogprobs?: number; noLogprobs?: boolean } = {},
  ) {
    for (const [text, id] of vocab) this.textOf.set(id, text);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
        this.requests.push({ url: req.url ?? "", body });
        const [status, answer] = this.answer(req.url ?? "", body);
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server?.close(() => r()));
  }

  private error(message: string): [number, unknown] {
    return this.kind === "vllm"
      ? [400, { object: "error", message, type: "BadRequestError", code: 400 }]
      : [400, { error: { code: 400, message, type: "invalid_request_error" } }];
  }

  private tokenize(text: string): number[] {
    const out: number[] = [];
    let i = 0;
    while (i < text.length) {
      const end = text.startsWith("<<", i) ? text.indexOf(">>", i) : -1;
      const token = end >= 0 ? text.slice(i, end + 2) : undefined;
      if (token !== undefined && this.vocab.has(token)) {
        out.push(this.vocab.get(token)!);
        i = end + 2;
      } else out.push(50000 + text.charCodeAt(i++));
    }
    return out;
  }

  private answer(url: string, b: Record<string, unknown>): [number, unknown] {
    if (url === "/tokenize") {
      if (this.kind === "vllm") {
        if (typeof b.prompt !== "string" || b.model !== (this.options.model ?? "toolgen-8b"))
          return this.error("tokenize needs model and prompt");
        const tokens = this.tokenize(b.prompt);
        return [200, { tokens, count: tokens.length, max_model_len: 8192 }];
      }
      if (typeof b.content !== "string") return this.error("tokenize needs content");
      return [200, { tokens: this.tokenize(b.content) }];
    }
    if (url !== "/v1/chat/completions") return [404, { error: "not found" }];
    const messages = b.messages as Array<{ role: string; content: string }> | undefined;
    if (b.model !== (this.options.model ?? "toolgen-8b"))
      return this.error(`model ${String(b.model)} does not exist`);
    if (!Array.isArray(messages) || messages.at(-1)?.role !== "user")
      return this.error("messages must end with a user turn");
    if (Array.isArray(b.guided_choice)) {
      const content = String(b.guided_choice[0]);
      return [
        200,
        {
          id: "cmpl-2",
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        },
      ];
    }
    // Retrieval asks for log-probabilities at temperature 0; the agent's action step needs only the restriction.
    const ranking = b.logprobs === true;
    if (b.max_tokens !== 1) return this.error("expected max_tokens 1");
    const top = ranking ? b.top_logprobs : 0;
    if (ranking && (b.temperature !== 0 || !Number.isInteger(top) || (top as number) < 1))
      return this.error("retrieval needs temperature 0 and top_logprobs");
    if (ranking && (top as number) > (this.options.maxLogprobs ?? 20))
      return this.error(
        `Requested sample logprobs of ${String(top)}, which is greater than max allowed: ${this.options.maxLogprobs ?? 20}`,
      );
    let allowed: Set<number>;
    if (this.kind === "vllm") {
      const ids = b.allowed_token_ids;
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((x) => this.textOf.has(x as number)))
        return this.error("allowed_token_ids must list vocabulary ids");
      if (ranking && b.return_tokens_as_token_ids !== true)
        return this.error("expected return_tokens_as_token_ids");
      allowed = new Set(ids as number[]);
    } else {
      const bias = b.logit_bias;
      if (ranking && b.n_probs !== top) return this.error("n_probs must match top_logprobs");
      if (!Array.isArray(bias) || !bias.every((p) => Array.isArray(p) && this.textOf.has(p[0]) && p[1] > 0))
        return this.error("logit_bias must be [[id, positive bias], …] over tool tokens");
      allowed = new Set(bias.map((p: number[]) => p[0]!));
    }
    const words = messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join(" ")
      .toLowerCase()
      .split(/\W+/)
      .filter(Boolean);
    const first = Math.min(...this.textOf.keys());
    const scored: [number, string, number][] = [...this.textOf].map(([id, text]) => {
      const parts = text
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean);
      const hits = words.filter((w) =>
        parts.some((p) => p === w || (w.length >= 4 && p.startsWith(w))),
      ).length;
      return [id, text, hits - 10 - (id - first) * 1e-4];
    });
    for (const [id, text] of ORDINARY) scored.push([id, text, -0.05]);
    scored.sort((x, y) => y[2] - x[2]);
    const chosen = scored.find(([id]) => allowed.has(id))!;
    const entry = ([id, text, lp]: [number, string, number]) =>
      this.kind === "vllm"
        ? { token: `token_id:${id}`, logprob: lp, bytes: null }
        : { id, token: text, logprob: lp, bytes: [] };
    return [
      200,
      {
        id: "cmpl-1",
        object: "chat.completion",
        model: b.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: chosen[1] },
            logprobs:
              this.options.noLogprobs || !ranking
                ? null
                : {
                    content: [{ ...entry(chosen), top_logprobs: scored.slice(0, top as number).map(entry) }],
                  },
            finish_reason: "length",
          },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 },
      },
    ];
  }
}
