// `toolgen --help` lists the commands from src/cli/main.ts's table without loading them; this keeps that table
// equal to what the command modules register, and checks that a command line loads only its own command.
import { Help } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, COMMANDS } from "../../src/cli/main.ts";

describe("the CLI's command table", () => {
  it("lists every command with the term and description its module registers", async () => {
    const full = await buildProgram(["node", "toolgen"], true);
    const help = new Help();
    const registered = Object.fromEntries(
      full.commands.map((c) => [c.name(), { term: help.subcommandTerm(c), description: c.description() }]),
    );
    const listed = Object.fromEntries(
      Object.entries(COMMANDS).map(([name, c]) => [name, { term: c.term, description: c.description }]),
    );
    expect(listed).toEqual(registered);
  });

  it("registers only the requested command, or listing stubs for --help and unknown names", async () => {
    const names = async (...args: string[]) =>
      (await buildProgram(["node", "toolgen", ...args])).commands.map((c) => c.name());
    expect(await names("serve", "mcp", "--catalog", "x.json")).toEqual(["serve"]);
    expect(await names("help", "export")).toEqual(["export"]);
    expect(await names("--help")).toEqual(Object.keys(COMMANDS));
    expect(await names("chta")).toEqual(Object.keys(COMMANDS));
    const stub = (await buildProgram(["node", "toolgen", "--help"])).commands.find(
      (c) => c.name() === "chat",
    )!;
    expect(stub.options).toEqual([]); // a stub: the real command (and its imports) was not loaded
  });
});
