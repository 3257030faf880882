import type { Command } from "commander";
import { CommandError, runAction } from "./run-action.ts";

/** A command's place in the tree: its words after `toolgen`, its subcommands and its long options. */
export interface CompletionNode {
  path: string;
  description: string;
  subcommands: string[];
  options: { flag: string; description: string; takesValue: boolean }[];
}

/** Every command of the program, parents first (the root's path is ""). */
export function completionTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string): void => {
    const visible = command.commands.filter((c) => c.name() !== "help");
    nodes.push({
      path,
      description: command.description(),
      subcommands: visible.map((c) => c.name()),
      options: [
        ...command.options
          .filter((o) => o.long !== undefined && !o.hidden)
          .map((o) => ({ flag: o.long!, description: o.description, takesValue: o.required || o.optional })),
        { flag: "--help", description: "display help for command", takesValue: false },
      ],
    });
    for (const c of visible) visit(c, path === "" ? c.name() : `${path} ${c.name()}`);
  };
  visit(program, "");
  return nodes;
}

const SHELLS = ["bash", "zsh", "fish"] as const;

/** Single quotes for a shell word (bash, zsh and fish alike): ' becomes '\'' (fish: \'). */
const quote = (text: string, fish = false): string =>
  `'${text.replace(/\s+/g, " ").replace(/'/g, fish ? "\\'" : "'\\''")}'`;

function bashScript(nodes: CompletionNode[]): string {
  const cases = (pick: (n: CompletionNode) => string[]) =>
    nodes.map((n) => `    ${quote(n.path)}) echo ${quote(pick(n).join(" "))} ;;`).join("\n");
  return `# toolgen completion for bash (made by \`toolgen completion bash\` from the CLI's own command table)
_toolgen_subcommands() {
  case "$1" in
${cases((n) => n.subcommands)}
  esac
}
_toolgen_options() {
  case "$1" in
${cases((n) => n.options.map((o) => o.flag))}
  esac
}
# $2 is the word being completed; the words before it are sliced, not indexed, so that zsh (1-based arrays,
# through bashcompinit) reads them as bash does
_toolgen() {
  local cur="$2" path="" word
  for word in "\${COMP_WORDS[@]:1:$((COMP_CWORD - 1))}"; do
    if [[ " $(_toolgen_subcommands "$path") " == *" $word "* ]]; then path="\${path:+$path }$word"; fi
  done
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_toolgen_options "$path")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_toolgen_subcommands "$path")" -- "$cur"))
  fi
}
complete -o default -F _toolgen toolgen
`;
}

function zshScript(nodes: CompletionNode[]): string {
  return `#compdef toolgen
# toolgen completion for zsh: the bash completion through zsh's bashcompinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(nodes)}`;
}

function fishScript(nodes: CompletionNode[]): string {
  const lines = [
    "# toolgen completion for fish (made by `toolgen completion fish` from the CLI's own command table)",
  ];
  const on = (path: string): string => {
    const words = path.split(" ").filter(Boolean);
    const node = nodes.find((n) => n.path === path)!;
    const seen = words.map((w) => `__fish_seen_subcommand_from ${w}`);
    // below a command whose subcommand is not typed yet, offer its subcommands; never after one is typed
    if (words.length === 0) seen.push(node.subcommands.length > 0 ? "__fish_use_subcommand" : "true");
    else if (node.subcommands.length > 0)
      seen.push(`not __fish_seen_subcommand_from ${node.subcommands.join(" ")}`);
    return quote(seen.join("; and "), true);
  };
  for (const node of nodes) {
    const condition = on(node.path);
    for (const sub of node.subcommands) {
      const child = nodes.find((n) => n.path === (node.path ? `${node.path} ${sub}` : sub))!;
      lines.push(`complete -c toolgen -f -n ${condition} -a ${sub} -d ${quote(child.description, true)}`);
    }
    for (const o of node.options) {
      const value = o.takesValue ? " -r" : "";
      lines.push(
        `complete -c toolgen -n ${condition} -l ${o.flag.slice(2)}${value} -d ${quote(o.description, true)}`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

/** The completion script for one shell, from the program with every command registered. */
export function completionScript(shell: string, program: Command): string {
  const nodes = completionTree(program);
  switch (shell) {
    case "bash":
      return bashScript(nodes);
    case "zsh":
      return zshScript(nodes);
    case "fish":
      return fishScript(nodes);
    default:
      throw new CommandError(`unknown shell "${shell}" (accepted: ${SHELLS.join(", ")})`);
  }
}

/**
 * `toolgen completion bash|zsh|fish`: prints a completion script. It needs every command's options, so it
 * builds the whole program (main.ts passes `full`, which loads every command module once).
 */
export function register(program: Command, full: () => Promise<Command>): void {
  program
    .command("completion")
    .description("print a shell completion script (bash, zsh or fish)")
    .argument("<shell>", SHELLS.join(" | "))
    .addHelpText(
      "after",
      `
Install:
  bash  echo 'source <(toolgen completion bash)' >> ~/.bashrc
  zsh   toolgen completion zsh > "\${fpath[1]}/_toolgen"   (or: source <(toolgen completion zsh) in ~/.zshrc)
  fish  toolgen completion fish > ~/.config/fish/completions/toolgen.fish`,
    )
    .action(
      runAction(async (shell: string) => {
        if (!(SHELLS as readonly string[]).includes(shell)) completionScript(shell, program); // throws
        process.stdout.write(completionScript(shell, await full()));
      }),
    );
}
