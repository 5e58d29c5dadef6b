// Rewriting another session's commits (commit --amend, rebase, reset over them, a branch moved by update-ref or a
// forced push or fetch to this same repository) is refused: git reads the
// commits the command would drop or replace, and their Claude-Session-Id trailers name the owners.
import type { Repo } from '../../git/repo';
import { foreignCommits } from '../../handoff/store/ownership';
import { short } from '../../handoff/state/session';
import type { GitInvocation } from '../shell/git';
import { asWritten } from './as-written';

const REBASE_CONTROL = new Set(['--continue', '--abort', '--skip', '--quit', '--edit-todo', '--show-current-patch']);
const REBASE_VALUED = new Set(['--onto', '-s', '--strategy', '-X', '--strategy-option', '-x', '--exec', '--empty', '-C', '--whitespace']);
const MAX_COMMITS = 2000;

// `git checkout -B <b> [<start>]`, `git switch -C <b> [<start>]`, `git branch -f <b> [<start>]`: a branch reset to <start>
const FORCE_CREATE: Record<string, Set<string>> = { checkout: new Set(['-B']), switch: new Set(['-C', '--force-create']), branch: new Set(['-f', '--force']) };
const BRANCH_OTHER = new Set(['-d', '-D', '--delete', '-m', '-M', '--move', '-c', '-C', '--copy', '--list', '-l', '--edit-description', '--set-upstream-to', '-u', '--unset-upstream', '--show-current']);

/** The branch a force-create resets and the start it resets it to (HEAD when none is given), or null. */
function forceCreate(inv: GitInvocation): { branch: string; start: string } | null {
  const flags = FORCE_CREATE[inv.sub];
  if (!flags) return null;
  const dashdash = inv.args.indexOf('--');
  const args = dashdash < 0 ? inv.args : inv.args.slice(0, dashdash);
  if (inv.sub === 'branch' && args.some((a) => BRANCH_OTHER.has(a))) return null;
  const at = args.findIndex((a) => flags.has(a));
  if (at < 0) return null;
  // checkout -B/switch -C take the name as the flag's value; branch -f takes positional <name> [<start>]
  const rest = (inv.sub === 'branch' ? args.filter((_, i) => i !== at) : args.slice(at + 1)).filter((a) => !a.startsWith('-'));
  return rest[0] ? { branch: rest[0], start: rest[1] ?? 'HEAD' } : null;
}

const UPDATE_REF_VALUED = new Set(['-m', '--message']);
const TRANSFER_VALUED = new Set(['--upload-pack', '--receive-pack', '--exec', '--depth', '--deepen', '--shallow-since', '--shallow-exclude', '-j', '--jobs', '--negotiation-tip', '--refmap', '-o', '--push-option', '--recurse-submodules', '--server-option', '--repo', '--signed', '--force-with-lease']);

/**
 * The branches moved by plumbing or by a transfer to this same repository, each with where it goes (null: deleted):
 * `git update-ref refs/heads/<b>|HEAD <new>` (`-d`), and `git push|fetch . [+]<src>:<dst>` forced (`+` or -f), which
 * git runs as a branch reset to <src>.
 */
function branchMoves(inv: GitInvocation): Array<{ ref: string; to: string | null }> {
  if (inv.sub === 'update-ref') {
    if (inv.args.includes('--stdin')) return [];
    const pos: string[] = [];
    for (let i = 0; i < inv.args.length; i++) {
      if (UPDATE_REF_VALUED.has(inv.args[i])) i++;
      else if (inv.args[i] === '--') pos.push(...inv.args.slice(i + 1)), (i = inv.args.length);
      else if (!inv.args[i].startsWith('-')) pos.push(inv.args[i]);
    }
    if (pos[0] === undefined || !/^(HEAD|refs\/heads\/.+)$/.test(pos[0])) return [];
    if (inv.args.includes('-d')) return [{ ref: pos[0], to: null }];
    return pos[1] !== undefined ? [{ ref: pos[0], to: pos[1] }] : [];
  }
  if (inv.sub !== 'push' && inv.sub !== 'fetch') return [];
  const pos: string[] = [];
  for (let i = 0; i < inv.args.length; i++) {
    if (TRANSFER_VALUED.has(inv.args[i])) i++;
    else if (!inv.args[i].startsWith('-')) pos.push(inv.args[i]);
  }
  if (pos[0] !== '.' && pos[0] !== './' && pos[0] !== '.git') return [];
  const forced = inv.args.some((a) => a === '--force' || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(a));
  return pos.slice(1).flatMap((spec) => {
    const m = /^(\+?)([^:]*):(.+)$/.exec(spec);
    if (!m || (!m[1] && !forced)) return [];
    const dst = m[3].startsWith('refs/') ? m[3] : `refs/heads/${m[3]}`;
    return dst.startsWith('refs/heads/') ? [{ ref: dst, to: m[2] === '' ? null : m[2] }] : [];
  });
}

/** Whether the command can drop or replace commits at all (decided without git). */
export function rewrites(inv: GitInvocation): boolean {
  if (FORCE_CREATE[inv.sub]) return forceCreate(inv) !== null;
  if (inv.sub === 'update-ref' || inv.sub === 'push' || inv.sub === 'fetch') return branchMoves(inv).length > 0;
  if (inv.sub === 'commit') return inv.args.includes('--amend');
  if (inv.sub === 'rebase') return !inv.args.some((a) => REBASE_CONTROL.has(a));
  if (inv.sub === 'reset') return true;
  if (inv.sub === 'filter-branch') return !inv.args.some((a) => a === '-h' || a === '--help');
  return false;
}

const commitOf = (repo: Repo, rev: string) => {
  const r = repo.git(['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`], { allowFail: true });
  return r.status === 0 ? r.stdout.trim() : null;
};

const revList = (repo: Repo, range: string[]) => {
  const r = repo.git(['rev-list', `--max-count=${MAX_COMMITS}`, ...range, '--'], { allowFail: true });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean) : [];
};

/** The commits the command would drop from the branch or replace by rewritten copies. */
function rewrittenCommits(repo: Repo, inv: GitInvocation): string[] {
  const forced = forceCreate(inv);
  if (forced) {
    // the commits of the branch as it is that <start> does not contain (none when the branch is new)
    const old = commitOf(repo, `refs/heads/${forced.branch}`);
    const start = commitOf(repo, forced.start);
    return old && start ? revList(repo, [old, `^${start}`]) : [];
  }
  const moves = branchMoves(inv);
  if (moves.length) {
    // the commits of the branch as it is that its new place does not contain (deleted: that no other ref holds)
    return moves.flatMap(({ ref, to }) => {
      const old = commitOf(repo, ref);
      if (!old) return [];
      // (--exclude before --branches names a branch without refs/heads/)
      if (to === null) return revList(repo, [old, '--not', `--exclude=${ref.replace(/^refs\/heads\//, '')}`, '--branches', '--tags', '--remotes']);
      const target = commitOf(repo, to);
      return target ? revList(repo, [old, `^${target}`]) : [];
    });
  }
  const head = commitOf(repo, 'HEAD');
  if (!head) return [];
  if (inv.sub === 'commit') return [head];
  // filter-branch rewrites every commit reachable from what it is given (HEAD when given nothing).
  if (inv.sub === 'filter-branch') return revList(repo, [head]);
  if (inv.sub === 'reset') {
    const dashdash = inv.args.indexOf('--');
    const before = dashdash < 0 ? inv.args : inv.args.slice(0, dashdash);
    const rest = before.filter((a) => !a.startsWith('-'));
    // `git reset [<rev>] [--] <paths>`, `-p` and a bare `git reset` keep the branch where it is.
    if (inv.args.some((a) => a === '-p' || a === '--patch') || rest.length > 1 || (dashdash >= 0 && inv.args.length > dashdash + 1)) return [];
    const target = rest[0] !== undefined ? commitOf(repo, rest[0]) : null;
    if (!target) return [];
    return revList(repo, [head, `^${target}`]);
  }
  // rebase [--onto X] [upstream [branch]] | --root [branch]
  const positional: string[] = [];
  for (let i = 0; i < inv.args.length; i++) {
    const a = inv.args[i];
    if (REBASE_VALUED.has(a)) i++;
    else if (!a.startsWith('-')) positional.push(a);
  }
  const root = inv.args.includes('--root');
  const tip = commitOf(repo, (root ? positional[0] : positional[1]) ?? 'HEAD');
  if (!tip) return [];
  if (root) return revList(repo, [tip]);
  const upstream = commitOf(repo, positional[0] ?? '@{upstream}');
  if (!upstream) return [];
  return revList(repo, [tip, `^${upstream}`]);
}

/** The refusal for a rewrite of commits that carry another session's id, or null (own or a person's commits). */
export function foreignRewriteProblem(repo: Repo, inv: GitInvocation, session: string, line?: string): string | null {
  const oids = rewrittenCommits(repo, inv);
  if (oids.length === 0) return null;
  // the same answer the reference-transaction hook gives after git moved the files: asked here, before
  const found = foreignCommits(repo, oids, session);
  if (found.length === 0) return null;
  const owners = new Map(found.map((f) => [f.oid, f.session]));
  const foreign = oids.filter((o) => owners.has(o));
  const first = foreign[0];
  const owner = owners.get(first)!;
  const others = [...new Set(found.map((f) => f.session))];
  const cmd = asWritten(line, inv);
  return (
    `\`${cmd}\` would rewrite commit ${first.slice(0, 12)} of session ${short(owner, [session, ...others])}` +
    (foreign.length > 1 ? ` (and ${foreign.length - 1} more commit(s) of ${others.map((s) => short(s, [session, ...others])).join(', ')})` : '') +
    `; you are session ${session}. Rewriting another session's commits takes its work out of the history it builds on.\n` +
    `Ways on:\n` +
    `  1. make a new commit on top instead (git commit …, or git revert ${first.slice(0, 12)} to undo it on the record);\n` +
    `  2. do your work in a separate worktree: git worktree add ../<dir> -b <new-branch>;\n` +
    `  3. ask the person to make or approve this rewrite.`
  );
}
