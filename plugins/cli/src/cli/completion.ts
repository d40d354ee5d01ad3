// `basin completion bash|zsh|fish`: a completion script generated from the command tree itself.
import type { CliContext } from '@basin/core';

type Command = CliContext['program'];
import { CliExit, EXIT } from '@basin/core';

interface Node {
  path: string[];
  subs: string[];
  options: string[];
}

function walk(cmd: Command, prefix: string[] = [], into: Node[] = []): Node[] {
  into.push({ path: prefix, subs: cmd.commands.map((c) => c.name()), options: cmd.options.map((o) => o.long ?? o.short ?? '').filter(Boolean).concat('--help') });
  for (const c of cmd.commands) walk(c, [...prefix, c.name()], into);
  return into;
}

function bash(nodes: Node[]): string {
  const cases = nodes.map((n) => `      "${n.path.join(' ')}") words="${[...n.subs, ...n.options].join(' ')}"; break ;;`).join('\n');
  // the longest known command path among the words typed so far (option values are skipped by the fallback)
  return `# basin completion for bash: eval "$(basin completion bash)" or save to /etc/bash_completion.d/basin
_basin() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" key="" w words=""
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$w" in -*) ;; *) key="\${key:+$key }$w" ;; esac
  done
  while :; do
    case "$key" in
${cases}
    esac
    [ -z "$key" ] && break
    case "$key" in *" "*) key="\${key% *}" ;; *) key="" ;; esac
  done
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -F _basin basin
`;
}

function zsh(nodes: Node[]): string {
  return `#compdef basin
# basin completion for zsh: save as _basin in a directory on $fpath
autoload -U bashcompinit && bashcompinit
${bash(nodes).replace(/^# .*\n/, '')}`;
}

function fish(nodes: Node[]): string {
  const lines = ['# basin completion for fish: basin completion fish > ~/.config/fish/completions/basin.fish', 'complete -c basin -f'];
  for (const n of nodes) {
    const cond = n.path.length ? `__fish_seen_subcommand_from ${n.path[n.path.length - 1]}` : '__fish_use_subcommand';
    for (const s of n.subs) lines.push(`complete -c basin -n '${cond}' -a '${s}'`);
    for (const o of n.options) if (o.startsWith('--')) lines.push(`complete -c basin -n '${cond}' -l '${o.slice(2)}'`);
  }
  return lines.join('\n') + '\n';
}

export function completionScript(program: Command, shell: string): string {
  const nodes = walk(program);
  if (shell === 'bash') return bash(nodes);
  if (shell === 'zsh') return zsh(nodes);
  if (shell === 'fish') return fish(nodes);
  throw new CliExit(EXIT.config, `basin completion: unknown shell "${shell}"; use bash, zsh or fish.`);
}
