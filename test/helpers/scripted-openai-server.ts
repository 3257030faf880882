import {
  completion,
  FakeOpenAIServer,
  finishChunk,
  sse,
  status,
  textChunks,
  usageChunk,
  type Handler,
} from "./fake-openai-server.ts";

/** One scripted reply: text and/or tool calls (arguments as an object; they travel as a JSON string). */
export interface WireReply {
  content?: string;
  tool_calls?: { name: string; arguments: Record<string, unknown> }[];
}

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
  stream?: boolean;
  [key: string]: unknown;
}

export type WireScript = (WireReply | string | ((body: ChatRequestBody) => WireReply | string))[];

let callCounter = 0;

/**
 * The chat room's fake OpenAI server (a real HTTP server on 127.0.0.1) playing a model: each request gets the
 * next scripted reply, as a JSON completion or, when the request streams, as SSE chunks cut into small pieces
 * with tool-call arguments split across chunks. A request past the end gets a 400 with a clear message.
 */
export async function scriptedServer(script: WireScript): Promise<FakeOpenAIServer> {
  const server = await new FakeOpenAIServer().start();
  server.enqueue(...script.map(toHandler));
  server.enqueue(status(400, { error: { message: "the scripted server ran out of replies" } }));
  return server;
}

export function bodies(server: FakeOpenAIServer): ChatRequestBody[] {
  return server.requests.map((r) => r.body as ChatRequestBody);
}

function toHandler(entry: WireScript[number]): Handler {
  return (request, response, socket) => {
    const body = request.body as ChatRequestBody;
    const raw = typeof entry === "function" ? entry(body) : entry;
    const reply: WireReply = typeof raw === "string" ? { content: raw } : raw;
    const calls = (reply.tool_calls ?? []).map((call) => ({
      id: `call_${++callCounter}`,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    const finish = calls.length > 0 ? "tool_calls" : "stop";
    if (!body.stream) {
      const message = {
        role: "assistant",
        content: reply.content ?? null,
        ...(calls.length ? { tool_calls: calls } : {}),
      };
      return completion(message, finish, { prompt_tokens: 10, completion_tokens: 5 })(
        request,
        response,
        socket,
      );
    }
    const chunks: unknown[] = textChunks(reply.content ?? "", 5);
    calls.forEach((call, index) => {
      const args = call.function.arguments;
      const half = Math.ceil(args.length / 2);
      const first = {
        index,
        id: call.id,
        type: "function",
        function: { name: call.function.name, arguments: args.slice(0, half) },
      };
      chunks.push({ choices: [{ index: 0, delta: { tool_calls: [first] } }] });
      chunks.push({
        choices: [
          { index: 0, delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] } },
        ],
      });
    });
    chunks.push(finishChunk(finish), { ...usageChunk, usage: { prompt_tokens: 10, completion_tokens: 5 } });
    return sse(chunks, { pieceBytes: 7 })(request, response, socket);
  };
}
