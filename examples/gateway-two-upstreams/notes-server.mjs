// Upstream MCP server 2: a note book kept in memory for as long as the server runs.
import { serveTools } from "./serve-tools.mjs";

const notes = [];
await serveTools("notes", [
  {
    name: "add_note",
    description: "Save a short text note in the note book",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }) => ({ saved: notes.push(text) }),
  },
  {
    name: "list_notes",
    description: "List every note saved in the note book",
    inputSchema: { type: "object", properties: {} },
    run: () => notes,
  },
]);
