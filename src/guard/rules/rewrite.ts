// Rewriting another session's commits (commit --amend, rebase, reset, a branch moved by update-ref or a forced push or
// fetch) is refused: git reads the commits it would drop or replace, and their trailers name the owners.
import type { Repo } from '../../git/repo';
import { expands } from '../shell/lex';
import { readTextOr } from '../../read-file';
import path from 'node:path';
import { claimedSessions } from '../../handoff/store/document';
import { foreignCommits, onlyInArgs } from '../../handoff/store/ownership';
import type { SimpleCommand } from '../shell/command';
import { literalOutput } from '../shell/written';
import { short } from '../../handoff/state/session';
import type { GitInvocation } from '../shell/git';
import { given } from '../shell/options';
import { gitOptions, lastValue } from './git-options';
import { refspec } from './refs';

const REBASE_CONTROL = new Set(['--continue', '--abort', '--skip', '--quit', '--edit-todo', '--show-current-patch']);
const MAX_COMMITS = 2000;

/** The branch `checkout -B`, `switch -C` or `branch -f` resets, moved to the start given (HEAD when none is given). */
function forceCreate(inv: GitInvocation): RefMove[] {
  const o = gitOptions(inv);
  const ops = o.dashdash < 0 ? o.operands : o.operands.slice(0, o.dashdash);
  const other = given(o, 'dDmMcClu', '--delete', '--move', '--copy', '--list', '--edit-description', '--set-upstream-to', '--unset-upstream', '--show-current');
  const branch =
    inv.sub === 'checkout' ? lastValue(o, '-B') : inv.sub === 'switch' ? lastValue(o, '-C', '--force-create') : inv.sub === 'branch' && given(o, 'f', '--force') && !other ? ops.shift() : undefined;
  return branch ? [{ ref: `refs/heads/${branch}`, to: ops[0] ?? 'HEAD' }] : [];
}

/** A branch (or remote-tracking branch, for a push) a command deletes (`to` null) or points at another revision. */
interface RefMove {
  ref: string;
  to: string | null;
}

/** The branches a command deletes or points elsewhere, a branch reset by force-creating it included. */
const refMoves = (inv: GitInvocation): RefMove[] => [...movedRefs(inv), ...forceCreate(inv)];
/** A transfer's remote that is this same repository: git runs a push or fetch to it as its own branches moved. */
const HERE = new Set(['.', './', '.git']);

/** The branches (a push: the remote-tracking ones) a command deletes or points elsewhere, decided without git. */
function movedRefs(inv: GitInvocation): RefMove[] {
  const o = gitOptions(inv);
  const ops = o.operands;
  if (inv.sub === 'branch') {
    if (given(o, 'r', '--remotes')) return [];
    if (given(o, 'dD', '--delete')) return ops.map((b) => ({ ref: `refs/heads/${b}`, to: null }));
    const forced = given(o, 'MC') || (given(o, 'mc', '--move', '--copy') && given(o, 'f', '--force'));
    if (!forced || ops.length === 0) return [];
    const [from, onto] = ops.length > 1 ? ops : ['HEAD', ops[0]];
    return [{ ref: `refs/heads/${onto}`, to: from }];
  }
  if (inv.sub === 'update-ref') {
    const ref = ops[0];
    if (given(o, '', '--stdin') || !ref || !(ref === 'HEAD' || ref.startsWith('refs/heads/'))) return [];
    // a value not on the line (from xargs) or built by an expansion may be any commit: judged as the branch deleted
    const to = ops[1];
    return [{ ref, to: given(o, 'd') || to === undefined || expands(to) ? null : to }];
  }
  if (inv.sub === 'symbolic-ref') {
    if (ops.length < 2 || given(o, 'd', '--delete')) return [];
    if (ops[0] === 'HEAD') return [{ ref: ops[1], to: 'HEAD' }];
    return ops[0].startsWith('refs/heads/') ? [{ ref: ops[0], to: ops[1] }] : [];
  }
  if (inv.sub === 'push') {
    const [remote, ...specs] = ops;
    const deleting = given(o, 'd', '--delete');
    const forced = given(o, 'f', '--force', '--force-with-lease', '--force-if-includes');
    if (!remote || (!forced && !deleting && !specs.some((x) => x.startsWith('+') || x.startsWith(':')))) return [];
    const branch = (dst: string) => dst.replace(/^refs\/heads\//, '');
    const where = (dst: string) => (HERE.has(remote) ? `refs/heads/${branch(dst)}` : dst === 'HEAD' ? 'HEAD@{push}' : `refs/remotes/${remote}/${branch(dst)}`);
    return (specs.length ? specs : ['HEAD']).flatMap((spec): RefMove[] => {
      const { src, dst } = refspec(spec);
      if (deleting || src === '') return [{ ref: where(deleting ? spec.replace(/^\+/, '') : dst), to: null }];
      return forced || spec.startsWith('+') ? [{ ref: where(dst), to: src }] : [];
    });
  }
  if (inv.sub === 'fetch') {
    // `git fetch . [+]<src>:<dst>` forced (`+` or -f): a branch reset to <src>
    const [remote, ...specs] = ops;
    if (!remote || !HERE.has(remote)) return [];
    const forced = given(o, 'f', '--force');
    return specs.flatMap((spec): RefMove[] => {
      const m = /^(\+?)([^:]*):(.+)$/.exec(spec);
      if (!m || (!m[1] && !forced)) return [];
      const dst = m[3].startsWith('refs/') ? m[3] : `refs/heads/${m[3]}`;
      return dst.startsWith('refs/heads/') ? [{ ref: dst, to: m[2] === '' ? null : m[2] }] : [];
    });
  }
  return [];
}

/** The existing tags `git tag -d` deletes or `git tag -f` moves (a tag on another session's commit is theirs to move). */
function tagsChanged(inv: GitInvocation): string[] {
  if (inv.sub !== 'tag') return [];
  const o = gitOptions(inv);
  if (given(o, 'd', '--delete')) return o.operands;
  return given(o, 'f', '--force') && o.operands[0] ? [o.operands[0]] : [];
}

/** Whether the command can drop or replace commits at all (decided without git). */
export function rewrites(inv: GitInvocation): boolean {
  if (inv.sub === 'tag') return tagsChanged(inv).length > 0;
  if (refMoves(inv).length > 0) return true;
  if (inv.sub === 'commit') return inv.args.includes('--amend');
  if (inv.sub === 'rebase') return !inv.args.some((a) => REBASE_CONTROL.has(a));
  if (inv.sub === 'reset') return true;
  if (inv.sub === 'filter-branch') return !inv.args.some((a) => a === '-h' || a === '--help');
  return false;
}

const commitOf = (repo: Repo, rev: string) => {
  // a NUL cannot stand in an argument (a revision no ref can be)
  if (rev.includes('\0')) return null;
  const r = repo.git(['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`], { allowFail: true });
  return r.status === 0 ? r.stdout.trim() : null;
};

const revList = (repo: Repo, range: string[]) => {
  if (range.some((a) => a.includes('\0'))) return [];
  const r = repo.git(['rev-list', `--max-count=${MAX_COMMITS}`, ...range, '--'], { allowFail: true });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean) : [];
};

/** The commits the command would drop from the branch or replace by rewritten copies. */
function rewrittenCommits(repo: Repo, inv: GitInvocation): string[] {
  if (inv.sub === 'tag') return tagsChanged(inv).flatMap((t) => commitOf(repo, `refs/tags/${t}`) ?? []);
  const moves = refMoves(inv);
  if (moves.length) {
    // deleted: what no other branch, tag or remote-tracking ref holds; moved: what the new value does not contain (a new branch: none)
    const deleted = moves.filter((m) => m.to === null && commitOf(repo, m.ref)).map((m) => m.ref);
    const moved = moves.flatMap((m) => {
      const [old, to] = m.to === null ? [null, null] : [commitOf(repo, m.ref), commitOf(repo, m.to)];
      return old && to ? revList(repo, [old, `^${to}`]) : [];
    });
    return [...new Set([...(deleted.length ? revList(repo, onlyInArgs(deleted)) : []), ...moved])];
  }
  const head = commitOf(repo, 'HEAD');
  if (!head) return [];
  if (inv.sub === 'commit') return [head];
  // filter-branch rewrites every commit reachable from what it is given (HEAD when given nothing).
  if (inv.sub === 'filter-branch') return revList(repo, [head]);
  if (inv.sub === 'reset') {
    const o = gitOptions(inv);
    const rest = o.dashdash < 0 ? o.operands : o.operands.slice(0, o.dashdash);
    // `git reset [<rev>] [--] <paths>`, `-p` and a bare `git reset` keep the branch where it is.
    if (given(o, 'p', '--patch') || rest.length > 1 || rest.length < o.operands.length) return [];
    const target = rest[0] !== undefined ? commitOf(repo, rest[0]) : null;
    return target ? revList(repo, [head, `^${target}`]) : [];
  }
  // rebase [--onto X] [upstream [branch]] | --root [branch]
  const positional = gitOptions(inv).operands;
  const root = inv.args.includes('--root');
  const tip = commitOf(repo, (root ? positional[0] : positional[1]) ?? 'HEAD');
  if (!tip) return [];
  if (root) return revList(repo, [tip]);
  const upstream = commitOf(repo, positional[0] ?? '@{upstream}');
  return upstream ? revList(repo, [tip, `^${upstream}`]) : [];
}

/** The refusal for a rewrite of commits that carry another session's id, or null (own or a person's commits). */
export function foreignRewriteProblem(repo: Repo, inv: GitInvocation, session: string, show: string): string | null {
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
  return (
    `\`${show}\` would rewrite commit ${first.slice(0, 12)} of session ${short(owner, [session, ...others])}` +
    (foreign.length > 1 ? ` (and ${foreign.length - 1} more commit(s) of ${others.map((s) => short(s, [session, ...others])).join(', ')})` : '') +
    `; you are session ${session}. Rewriting another session's commits takes its work out of the history it builds on.\n` +
    `Ways on:\n` +
    `  1. make a new commit on top instead (git commit …, or git revert ${first.slice(0, 12)} to undo it on the record);\n` +
    `  2. do your work in a separate worktree: git worktree add ../<dir> -b <new-branch>;\n` +
    `  3. ask the person to make or approve this rewrite.`
  );
}

/**
 * Why a commit made by plumbing (commit-tree, hash-object -t commit), which meets no commit hook, would claim another
 * session, or null: its message as the line gives it, read for trailers; one the guard cannot read whole is refused.
 */
export function plumbingClaimProblem(inv: GitInvocation, cmd: SimpleCommand, session: string | null, show: string): string | null {
  const o = gitOptions(inv);
  if (inv.sub !== 'commit-tree' && !(inv.sub === 'hash-object' && lastValue(o, '-t') === 'commit')) return null;
  const dir = inv.cwd ?? cmd.cwd;
  let unread: string | null = null;
  const inline = (v: string) => {
    if (expands(v)) unread ??= v;
    return v;
  };
  // `-F -`: the message is its input, read below
  let fromInput = false;
  const read = (f: string) => {
    if (f === '-') {
      fromInput = true;
      return '';
    }
    if (/[$`*?[]/.test(f)) {
      unread ??= f;
      return '';
    }
    const text = readTextOr(dir ? path.resolve(dir, f) : f);
    if (text === null) unread ??= f;
    return text ?? '';
  };
  // hash-object reads its message from the files it is given
  const files = inv.sub === 'hash-object' ? o.operands : [];
  const texts = [...o.all('-m').map(inline), ...o.all('-F').map(read), ...files.map(read)];
  if (cmd.stdinFrom) {
    const piped = literalOutput(cmd.stdinFrom);
    if (piped) texts.push(...piped);
    else unread ??= `the output of \`${cmd.stdinFrom.argv.join(' ').slice(0, 60)}\``;
  }
  texts.push(...cmd.redirects.flatMap((r) => (r.op === '<<' ? [inline(r.body ?? '')] : r.op === '<' ? [read(r.target)] : [])));
  if (fromInput && !cmd.stdinFrom && !cmd.redirects.some((r) => r.op === '<<' || r.op === '<')) unread ??= 'its input';
  const other = claimedSessions(texts.join('\n').split('\n')).find((s) => s !== session);
  if (other === undefined && unread === null) return null;
  const claims = other !== undefined ? `whose message claims session ${short(other, session ? [session] : [])}` : `from a message the guard cannot read before it runs (${unread!.slice(0, 80)})`;
  return (
    `\`${show}\` makes a commit ${claims}${session ? `; you are session ${session}` : ''}. ` +
    `Commits made by plumbing meet no commit hook: a message naming another session would pass its work off as theirs. ` +
    `Make the commit with git commit (the hooks add your own trailer), or leave the Claude-Session-Id line out.`
  );
}
