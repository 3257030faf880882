// The toolgen command lines of a shell block, checked against the CLI's commander program: the command exists
// and every option it uses is one that command accepts.
import type { Command, Option } from "commander";

export interface ToolgenLine {
  /** 1-based line within the block where the command starts. */
  line: number;
  /** The words after `toolgen`. */
  args: string[];
}

/**
 * Splits shell text into commands (a list of words each), one per `&&`, `||`, `|`, `;` or line, after joining
 * lines that end in a backslash; quotes are removed as the shell would, `# comments` and a `$ ` prompt dropped.
 */
export function shellCommands(code: string): Array<{ line: number; words: string[] }> {
  const out: Array<{ line: number; words: string[] }> = [];
  const lines = code.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const first = i;
    let text = lines[i]!.replace(/^\s*\$ /, "");
    while (text.endsWith("\\") && i + 1 < lines.length) text = text.slice(0, -1) + " " + lines[++i];
    let words: string[] = [];
    let word: string | undefined;
    let quote: string | undefined;
    const end = () => {
      if (word !== undefined) words.push(word);
      word = undefined;
    };
    const split = () => {
      end();
      if (words.length > 0) out.push({ line: first + 1, words });
      words = [];
    };
    for (let c = 0; c < text.length; c++) {
      const ch = text[c]!;
      if (quote) {
        if (ch === quote) quote = undefined;
        else if (ch === "\\" && quote === '"' && /["\\$`]/.test(text[c + 1] ?? "")) word += text[++c]!;
        else word += ch;
      } else if (ch === "'" || ch === '"') {
        quote = ch;
        word ??= "";
      } else if (ch === "\\") word = (word ?? "") + (text[++c] ?? "");
      else if (/\s/.test(ch)) end();
      else if (ch === "#" && word === undefined) break;
      else if (ch === ";" || ch === "|" || ch === "&") {
        split();
        if (text[c + 1] === ch) c++;
      } else word = (word ?? "") + ch;
    }
    split();
  }
  return out;
}

const PREFIXES = new Set(["time", "exec", "env", "sudo"]);

/** The words after `toolgen` when a command runs it (`npx toolgen`, `node bin/toolgen.mjs`, `toolgen`). */
export function toolgenArgs(words: string[]): string[] | undefined {
  let i = 0;
  while (i < words.length && (PREFIXES.has(words[i]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
  const program = words[i];
  if (program === "toolgen") return words.slice(i + 1);
  if (program === "npx") {
    let j = i + 1;
    while (words[j]?.startsWith("-")) j++;
    return words[j] === "toolgen" ? words.slice(j + 1) : undefined;
  }
  if (program === "node") {
    let j = i + 1;
    while (words[j]?.startsWith("-")) j++;
    return words[j] !== undefined && /(^|\/)bin\/toolgen\.mjs$/.test(words[j]!)
      ? words.slice(j + 1)
      : undefined;
  }
  return undefined;
}

/** Where `args` goes wrong for the program: an unknown command or subcommand, or an option not accepted. */
export function checkArgs(program: Command, args: string[]): string[] {
  const problems: string[] = [];
  let cmd = program;
  const path = ["toolgen"];
  const accepted = (): Option[] => {
    const all: Option[] = [];
    for (let c: Command | null = cmd; c; c = c.parent) all.push(...c.options);
    return all;
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") break;
    if (/^--?[A-Za-z]/.test(word)) {
      const name = word.startsWith("--") ? word.split("=")[0]! : word.slice(0, 2);
      if (name === "--help" || name === "-h") continue;
      const option = accepted().find((o) => o.long === name || o.short === name);
      if (!option) {
        const names = accepted().map((o) => o.long ?? o.short);
        problems.push(`${path.join(" ")}: unknown option ${name} (accepted: ${names.join(", ") || "none"})`);
        continue;
      }
      const inline = word.includes("=") || (!word.startsWith("--") && word.length > 2);
      if (inline || (!option.required && !option.optional)) continue;
      // The option's value (or values, for a variadic one) is not a command word.
      if (option.required || !args[i + 1]?.startsWith("-")) i++;
      if (option.variadic) while (i + 1 < args.length && !args[i + 1]!.startsWith("-")) i++;
      continue;
    }
    if (word === "help") break; // `toolgen help train`
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      cmd = sub;
      path.push(word);
    } else if (cmd.commands.length > 0 && cmd.registeredArguments.length === 0) {
      const names = cmd.commands.map((c) => c.name());
      problems.push(`${path.join(" ")}: unknown command "${word}" (accepted: ${names.join(", ")})`);
      break;
    }
  }
  return problems;
}
