// `git handoff completion [bash|zsh]`: scripts that plug into git's own completion (`git handoff <TAB>`),
// answered by yargs's --get-yargs-completions plus topics and branches read from the repository.
import { openRepo } from '../../git/repo';
import { listHandoffs } from '../../handoff/store/store';
import { command } from '../context';

const BASH = `# git-handoff completion for bash: git's completion calls _git_handoff for \`git handoff …\`.
# Install: git handoff completion bash >> ~/.bashrc   (needs git's bash completion loaded first)
_git_handoff() {
  local IFS=$'\\n' cur="\${COMP_WORDS[COMP_CWORD]}"
  local words=("\${COMP_WORDS[@]:2:COMP_CWORD-1}")
  COMPREPLY=( $(compgen -W "$(git-handoff --get-yargs-completions git-handoff "\${words[@]}" 2>/dev/null)" -- "$cur") )
}
_git_handoff_direct() {
  local IFS=$'\\n' cur="\${COMP_WORDS[COMP_CWORD]}"
  COMPREPLY=( $(compgen -W "$(git-handoff --get-yargs-completions "\${COMP_WORDS[@]:0:COMP_CWORD+1}" 2>/dev/null)" -- "$cur") )
}
complete -o bashdefault -o default -F _git_handoff_direct git-handoff
`;

const ZSH = `# git-handoff completion for zsh: zsh's _git calls _git-handoff for \`git handoff …\`.
# Install: git handoff completion zsh > "\${fpath[1]}/_git-handoff"   (or source it from ~/.zshrc)
_git-handoff() {
  local -a reply
  reply=(\${(f)"$(git-handoff --get-yargs-completions git-handoff \${words[2,CURRENT]} 2>/dev/null)"})
  compadd -- \${reply%%:*}
}
compdef _git-handoff git-handoff 2>/dev/null
`;

export const completionCommand = command({
  command: 'completion [shell]',
  describe: 'print a shell completion script (bash or zsh) for `git handoff`',
  builder: (y) =>
    y
      .positional('shell', { type: 'string', choices: ['bash', 'zsh'], describe: 'default: from $SHELL' })
      .example('$0 completion bash >> ~/.bashrc', ''),
  handler: (a) => {
    const shell = a.shell ?? (process.env.SHELL?.includes('zsh') ? 'zsh' : 'bash');
    process.stdout.write(shell === 'zsh' ? ZSH : BASH);
  },
});

const TOPIC_COMMANDS = new Set(['show', 'log', 'write', 'archive']);

/** Extra candidates: branch names after --branch, topics of the branch for commands that take one. */
export function repositoryCompletions(current: string, argv: { _: Array<string | number>; branch?: string }, words: string[]): string[] {
  try {
    const repo = openRepo();
    const prev = words[words.length - 2];
    if (prev === '--branch') {
      return repo.listRefs(['refs/heads/']).map((r) => r.ref.slice('refs/heads/'.length));
    }
    // yargs hands over the words with the program name first and the word being completed last
    const positional = argv._.slice(1).map(String);
    const cmd = positional[0] ?? '';
    if (TOPIC_COMMANDS.has(cmd) && positional.length <= 2 && !current.startsWith('-')) {
      const branch = argv.branch ?? repo.branch;
      return branch ? listHandoffs(repo, { branch }).map((r) => r.topic) : [];
    }
    if (cmd === 'restore' && !current.startsWith('-')) {
      return listHandoffs(repo, { all: true, archived: true }).map((r) => r.ref);
    }
  } catch {
    /* outside a repository: nothing to add */
  }
  return [];
}
