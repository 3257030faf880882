// A minimal stdio MCP server over a list of tools ({ name, description, inputSchema, run }), written with the
// MCP SDK's low-level Server so that it runs under plain node. The two upstream servers of this example use it.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export async function serveTools(name, tools) {
  const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const found = tools.find((t) => t.name === params.name);
    if (!found) return { isError: true, content: [{ type: "text", text: `no tool ${params.name}` }] };
    const text = JSON.stringify(await found.run(params.arguments ?? {}));
    return { content: [{ type: "text", text: `${text} (answered by ${name}, pid ${process.pid})` }] };
  });
  await server.connect(new StdioServerTransport());
}
