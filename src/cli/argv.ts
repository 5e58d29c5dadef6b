// Checks yargs cannot make on its own: a topic that starts with "-", clusters of short flags that hide a -h,
// unknown commands and options with a suggestion, and which help an error points to.
import { HandoffError } from '../errors';

/** Short options that take a value (`-C <path>`, `-m <text>`, `-F <file>`): `-mtext` is that option with a value. */
const VALUED_SHORT = new Set(['C', 'm', 'F']);
/** Short options that take none and may be grouped (`-qh`). */
const BOOLEAN_SHORT = new Set(['q', 'h']);

/** What people type for a command under another name, by the command it means. */
const SYNONYMS: Record<string, string> = Object.fromEntries(
  Object.entries({
    archive: ['delete', 'rm', 'remove', 'del', 'close'],
    restore: ['unarchive', 'undelete'],
    'rename-branch': ['carry', 'move-branch'],
    list: ['ls'],
    show: ['cat', 'view', 'read', 'get'],
    log: ['history'],
    write: ['new', 'create', 'add', 'save', 'update'],
    fetch: ['pull'],
    '--version': ['version'],
  }).flatMap(([command, words]) => words.map((w) => [w, command])),
);

/** Edit distance counting a swap of two neighbours as one (`mnie` → `mine`), for suggestions only. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The closest of `known` to `word` when it is close enough to be a typo (or a known synonym). */
export function suggest(word: string, known: string[]): string | null {
  const w = word.toLowerCase();
  if (SYNONYMS[w] && (known.includes(SYNONYMS[w]) || SYNONYMS[w].startsWith('-'))) return SYNONYMS[w];
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(w, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  if (best === null) return null;
  // a typo: at most a third of the word wrong (one letter in short words), or the start of a longer name
  if (bestD <= Math.max(1, Math.floor(best.length / 3))) return best;
  const prefixed = known.filter((k) => k.startsWith(w) && w.length >= 3);
  return prefixed.length === 1 ? prefixed[0] : null;
}

/** argv split at its first `--`: the words that may be options, and `--` with what follows it. */
export function splitAtDashes(argv: readonly string[]): [string[], string[]] {
  const dd = argv.indexOf('--');
  return dd < 0 ? [[...argv], []] : [argv.slice(0, dd), argv.slice(dd)];
}

/** The command argv names (the first word that is not an option or the value of -C). */
export function commandOf(argv: string[]): { name: string; index: number } | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return null;
    if (a === '-C') i++;
    else if (!a.startsWith('-')) return { name: a, index: i };
  }
  return null;
}

/** `git handoff help [<command>]` is `git handoff [<command>] -h` (git turns `--help` into `man git-handoff`). */
export function helpAlias(argv: string[]): string[] {
  const c = commandOf(argv);
  if (c?.name !== 'help') return argv;
  return [...argv.slice(0, c.index), ...argv.slice(c.index + 1), '--help'];
}

/** Where an error sends the user: the command's own help when a command was named. */
export const helpOf = (command: string | null | undefined) => (command ? `git handoff ${command} -h` : 'git handoff -h');

const TOPIC_HINT = 'a topic cannot start with "-" (topics are lowercase words joined by "-", e.g. auth-refactor)';

/**
 * Rejects, before yargs reads them, the arguments it would misread: `-auth` (parsed as -a -u -t -h, so help and
 * exit 0 instead of a write), anything starting with "-" after `--`, and unknown commands. Returns argv with
 * what follows `--` moved next to the command name (yargs does not fill positionals from after `--`).
 */
export function precheck(argv: string[], commands: string[]): string[] {
  // the shell's completion request: words being typed, not a command
  if (argv.includes('--get-yargs-completions')) return argv;
  const cmd = commandOf(argv);
  const help = helpOf(cmd && commands.includes(cmd.name) ? cmd.name : null);
  if (cmd && !commands.includes(cmd.name) && !cmd.name.startsWith('__')) {
    const s = suggest(cmd.name, commands);
    throw new HandoffError(
      'usage',
      'unknown-command',
      `"${cmd.name}" is not a git handoff command${s ? `; did you mean \`git handoff ${s}\`?` : ''} (\`git handoff -h\` lists the commands)`,
      { command: cmd.name, suggestion: s },
    );
  }
  const [before, rest] = splitAtDashes(argv);
  for (let i = 0; i < before.length; i++) {
    const a = before[i];
    if (a === '-C') {
      i++;
      continue;
    }
    if (!/^-[^-]./.test(a) || VALUED_SHORT.has(a[1]) || [...a.slice(1)].every((ch) => BOOLEAN_SHORT.has(ch))) continue;
    // a value of a valued option (`-m -auth`) is taken as it is
    const prev = before[i - 1];
    if (prev && (/^-[CmF]$/.test(prev) || prev === '--message' || prev === '--file')) continue;
    throw new HandoffError(
      'usage',
      'bad-option',
      `"${a}" is not an option (it would be read as ${[...a.slice(1)].map((ch) => `-${ch}`).join(' ')}); ${TOPIC_HINT}. See \`${help}\``,
      { argument: a },
    );
  }
  if (!rest.length) return argv;
  const after = rest.slice(1);
  const dashed = after.find((a) => a.startsWith('-'));
  if (dashed !== undefined) {
    throw new HandoffError('usage', 'bad-argument', `"${dashed}" after \`--\` is taken as a topic or name, and ${TOPIC_HINT}. See \`${help}\``, { argument: dashed });
  }
  // right after the command name, where yargs takes them as positionals (an array option like -m would swallow them at the end)
  const at = cmd ? cmd.index + 1 : before.length;
  return [...before.slice(0, at), ...after, ...before.slice(at)];
}
