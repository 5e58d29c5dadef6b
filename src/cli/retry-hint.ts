// A refusal's retry command runs as printed: the flags that selected the handoff (-C, --branch, --person) are kept
// in the `git handoff <command> <target>` it gives (run from another branch without --branch, a take-over would
// otherwise write a new handoff there).
import { HandoffError } from '../errors';
import { shellWord } from '../clients/event';

/** The selecting flags of an argv, each as written on a command line. */
function selectingFlags(argv: readonly string[]): string[] {
  const out: string[] = [];
  const dd = argv.indexOf('--');
  const before = dd < 0 ? argv : argv.slice(0, dd);
  for (let i = 0; i < before.length; i++) {
    const a = before[i];
    if ((a === '-C' || a === '--branch') && i + 1 < before.length) out.push(`${a} ${shellWord(before[++i])}`);
    else if (a.startsWith('--branch=')) out.push(`--branch ${shellWord(a.slice('--branch='.length))}`);
    else if (a.startsWith('-C') && a.length > 2) out.push(`-C ${shellWord(a.slice(2).replace(/^=/, ''))}`);
    else if (a === '--person') out.push('--person');
  }
  return out;
}

/** The error with its retry commands carrying the selecting flags of `argv` (an ownership refusal; others as they are). */
export function withSelectingFlags(e: unknown, argv: readonly string[]): unknown {
  if (!(e instanceof HandoffError) || (e.code !== 'owned-by-another-session' && e.code !== 'owner-live')) return e;
  const flags = selectingFlags(argv);
  if (flags.length === 0) return e;
  const message = e.message
    .split('\n')
    .map((line) =>
      line.replace(/git handoff (?:(write|archive|restore|edit|redact) \S+|(rename-branch) \S+ \S+)/, (whole, _one, rename) => {
        // rename-branch names its branches itself: it takes no --branch
        const add = flags.filter((f) => !(f.startsWith('--branch') && (rename || line.includes('--branch'))));
        return add.length ? `${whole} ${add.join(' ')}` : whole;
      }),
    )
    .join('\n');
  const out = new HandoffError(e.kind, e.code, message, e.data);
  out.stack = e.stack;
  return out;
}
