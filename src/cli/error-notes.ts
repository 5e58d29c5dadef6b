// What the CLI adds to an error before it prints it (loaded on the error path only): a refusal's retry command keeps
// the flags that selected the handoff (-C, --branch, --person: from another branch, a take-over would otherwise write a
// new handoff there); a topic that is not there names what was probably meant (the same topic on another branch with
// its --branch, or a topic of this branch one typo away); a command refused for another session's sake (exit 3) is
// kept in the refusals record (src/handoff/state/refusals.ts) beside the guard's and the hooks', for `status` and `web`.
import { quote } from 'shell-quote';
import { shellWord } from '../terminal-text';
import { HandoffError, toHandoffError } from '../errors';
import { openRepo } from '../git/repo';
import { noteRefusal } from '../handoff/state/refusals';
import { resolveSession } from '../handoff/state/session';
import { parseRef } from '../handoff/store/names';
import { listHandoffs } from '../handoff/store/store';
import { splitAtDashes, suggest } from './argv';

/** The error as the CLI prints it, `argv` the command line as typed, `args` without the pager and colour switches. */
export function explained(e: unknown, argv: string[], args: string[], command: string | undefined): unknown {
  noteCommandRefusal(e, argv);
  return withTopicHint(withSelectingFlags(e, argv), args, command);
}

/** The selecting flags of an argv, each as written on a command line. */
function selectingFlags(argv: readonly string[]): string[] {
  const out: string[] = [];
  const [before] = splitAtDashes(argv);
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
function withSelectingFlags(e: unknown, argv: readonly string[]): unknown {
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

/** The not-found error with a hint added, or the error as it was. */
function withTopicHint(e: unknown, argv: string[], command: string | undefined): unknown {
  if (!(e instanceof HandoffError) || e.code !== 'not-found' || typeof e.data.ref !== 'string') return e;
  const p = parseRef(e.data.ref);
  if (!p || p.branch === null) return e;
  let hint: string | null = null;
  try {
    const rows = listHandoffs(openRepo(), { all: true });
    const elsewhere = [...new Set(rows.filter((r) => r.topic === p.topic && r.branch !== p.branch).map((r) => r.branch))];
    const here = [...new Set(rows.filter((r) => r.branch === p.branch).map((r) => r.topic))];
    const near = suggest(p.topic, here);
    const rest = argv.filter((x) => x !== command);
    const withBranch = (b: string) => `git handoff ${command} ${rest.filter((x, i) => x !== '--branch' && rest[i - 1] !== '--branch').map((x) => quote([x])).join(' ')} --branch ${quote([b])}`;
    if (elsewhere.length) hint = `it is on branch ${elsewhere.join(', ')}: ${withBranch(elsewhere[0])}`;
    else if (near && near !== p.topic) hint = `did you mean ${near}? git handoff ${command} ${rest.map((x) => (x === p.topic ? near : quote([x]))).join(' ')}`;
  } catch {
    return e;
  }
  return hint ? new HandoffError(e.kind, e.code, `${e.message}\n${hint}`, { ...e.data, hint }) : e;
}

/** Records `e` when it refused the command for another session's sake; nothing else, and never a failure. */
function noteCommandRefusal(e: unknown, argv: string[]): void {
  const err = toHandoffError(e);
  if (err.exitCode !== 3) return;
  try {
    const data = (err.data ?? {}) as { session?: unknown };
    let session: string | null = typeof data.session === 'string' ? data.session : null;
    try {
      session ??= resolveSession(undefined)?.id ?? null;
    } catch {
      // an invalid id in the environment: the record names none
    }
    noteRefusal(openRepo().commonDir, { by: `git handoff ${argv.find((a) => !a.startsWith('-')) ?? ''}`.trim(), session, client: null, what: `git handoff ${argv.map(shellWord).join(' ')}`, why: err.message });
  } catch {
    // not a repository: nothing to keep it in
  }
}
