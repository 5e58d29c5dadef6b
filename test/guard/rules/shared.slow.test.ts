// A shared checkout nobody can wreck: while another live session in this worktree has uncommitted paths in the
// ledger, sweeping and destructive git commands are refused with the exact safe command, and that command works.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload, wroteFile } from '../helpers';

const THEIRS = ['notes/theirs-new.md', 'src/theirs.ts'];
const MINE = ['mine-new.txt', 'src/mine.ts'];

const wrote = (repo: TestRepo, session: string, file: string) => wroteFile(repo, file, session);
const bash = (repo: TestRepo, command: string, session = ME) => guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, session));

/** OTHER (lease holder) changed src/theirs.ts and created notes/theirs-new.md; ME changed src/mine.ts and created mine-new.txt. */
async function shared(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  repo.commit('code', { 'src/theirs.ts': 'theirs v1\n', 'src/mine.ts': 'mine v1\n' });
  repo.git(['branch', 'feature']);
  repo.write('src/theirs.ts', 'theirs v2\n');
  repo.write('notes/theirs-new.md', 'their new file\n');
  for (const f of THEIRS) await wrote(repo, OTHER, f);
  repo.write('src/mine.ts', 'mine v2\n');
  repo.write('mine-new.txt', 'my new file\n');
  for (const f of MINE) await wrote(repo, ME, f);
  return repo;
}

/** Runs a command line in the repository as the agent's shell would. */
const sh = (repo: TestRepo, command: string) => execFileSync('sh', ['-c', command], { cwd: repo.dir, env: repo.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const safeOf = (reason: string) => /instead \(it touches only the paths you wrote\):\n {2}(.+)/.exec(reason)?.[1] ?? null;
const worktreeOf = (reason: string) => /in your own worktree: (git worktree add .+)/.exec(reason)?.[1] ?? null;
const dirty = (repo: TestRepo) => repo.git(['status', '--porcelain', '--untracked-files=all']).stdout.split('\n').filter(Boolean).map((l) => l.slice(3)).sort();
const file = (repo: TestRepo, f: string) => readFileSync(path.join(repo.dir, f), 'utf8');

const REFUSED = [
  'git add -A',
  'git add --all',
  'git add .',
  'git add src',
  'git add -u',
  'git commit -am "wip"',
  'git commit -a -m wip',
  'git stash',
  'git stash push -u',
  'git checkout feature',
  'git checkout -b topic-x',
  'git switch feature',
  'git switch -c topic-y',
  'git reset --hard',
  'git reset --hard HEAD',
  'git checkout -- .',
  'git checkout .',
  'git restore .',
  'git clean -f',
  'git clean -fd',
  'cd src && git add .',
  'bash -lc "git add -A && git commit -m wip"',
  'git -C src add .',
];

const ALLOWED = [
  'git status',
  'git diff',
  'git log --oneline -3',
  'git add src/mine.ts mine-new.txt',
  'git add -- src/mine.ts',
  'git stash list',
  'git stash push -- src/mine.ts',
  'git checkout main',
  'git switch main',
  'git reset',
  'git restore --staged .',
  'git restore src/mine.ts',
  'git clean -n',
  'git commit -m "only what is staged"',
];

// Issue 13 (item 9): more ways to destroy or sweep the other session's work, and what a rule failing on them used to let through.
const REFUSED_TOO = [
  'git checkout -f',
  'git checkout --force',
  'git checkout -f main',
  'git read-tree -u --reset HEAD',
  'git read-tree -u -m HEAD',
  'git checkout-index -f -a',
  'git checkout-index --force --all',
  'git checkout-index -f src/theirs.ts',
  'git rm -f src/theirs.ts',
  'git rm -rf src',
  'git switch --discard-changes main',
  'git switch -f main',
  'git add --pathspec-from-file=list.txt',
  'git add --pathspec-from-file list.txt',
  'printf "src/theirs.ts" | git add --pathspec-from-file=-',
  'git commit --pathspec-from-file=list.txt -m x',
  'git stash push --pathspec-from-file=list.txt',
  'git restore --pathspec-from-file=list.txt',
  'git mv -f src/mine.ts src/theirs.ts',
  // their path taken away (git rm itself refuses a changed file without -f), reset over it, an orphan branch
  'git rm src/theirs.ts',
  'git mv src/theirs.ts src/moved.ts',
  'git reset --merge',
  'git reset --keep HEAD',
  'git switch --orphan fresh',
  // an unescaped glob used to make the rule throw, and the whole line was allowed
  "git add 'x[' 2>/dev/null; git reset --hard",
  "git checkout -- 'src/th[' ; git reset --hard",
  "git restore 'src/[t]heirs.ts'",
  // an exclude alone covers everything else
  "git stash push -- ':!src/mine.ts'",
];
// a pathspec read past its magic (`:(literal)`, `:/`) covers only its path
const ALLOWED_TOO = ["git stash push -- ':(literal)src/mine.ts'", "git restore ':/src/mine.ts'", 'git rm src/mine.ts', 'git rm --cached src/theirs.ts', 'git rm -f src/mine.ts', 'git checkout-index -a', 'git read-tree HEAD', 'git checkout-index -f src/mine.ts', 'git mv src/mine.ts src/mine2.ts'];

describe('a shared checkout', () => {
  it('refuses the other destructive spellings (checkout -f, read-tree -u, checkout-index -f, rm -f, switch --discard-changes, --pathspec-from-file)', async () => {
    const repo = await shared();
    for (const command of REFUSED_TOO) {
      const reason = denial(await bash(repo, command));
      expect(reason, command).toBeTruthy();
      expect(reason, command).toContain(`session ${OTHER.slice(0, 8)}`);
      expect(reason, command).toMatch(/src\/theirs\.ts/);
    }
    for (const command of ALLOWED_TOO) expect(await bash(repo, command), command).toMatchObject({ exitCode: 0, stdout: '' });
    // a refused command really destroys: run as the shell would, and the other session's change is gone
    sh(repo, 'git checkout-index -f -a');
    expect(file(repo, 'src/theirs.ts')).toBe('theirs v1\n');
  });

  it('refuses each sweeping or destructive command, naming the other session and its paths; lets the rest through', async () => {
    const repo = await shared();
    for (const command of REFUSED) {
      const reason = denial(await bash(repo, command));
      expect(reason, command).toBeTruthy();
      expect(reason, command).toContain(`session ${OTHER.slice(0, 8)}`);
      // clean takes untracked files only, the others tracked ones (or both).
      expect(reason, command).toMatch(command.includes('clean') ? /notes\/theirs-new\.md/ : /src\/theirs\.ts/);
      expect(reason, command).toContain(`You are session ${ME.slice(0, 8)}`);
      expect(reason, command).toContain('git worktree add');
    }
    for (const command of ALLOWED) expect(await bash(repo, command), command).toMatchObject({ exitCode: 0, stdout: '' });
    // The protection goes both ways: a live session beside the lease holder keeps its paths too.
    expect(denial(await bash(repo, 'git add src', OTHER))).toContain(`session ${ME.slice(0, 8)}`);
  });

  it('git handoff commands and read-only git pass while everything else is refused', async () => {
    const repo = await shared();
    for (const command of ['git handoff list', 'git handoff show', 'git handoff log auth-refactor', 'git handoff boot', 'git handoff sessions', 'git handoff doctor', `git handoff list --mine --session ${OTHER}`, `git handoff show --session ${OTHER}`]) {
      const r = await bash(repo, command);
      expect(denial(r), command).toBeNull();
    }
    const w = await bash(repo, 'git handoff write cache-layer -m "state"');
    expect(denial(w)).toBeNull();
    expect(w.answer.hookSpecificOutput.updatedInput.command).toContain(`GIT_HANDOFF_SESSION='${ME}'`);
    // Writing as another session stays refused: that would be impersonation.
    expect(denial(await bash(repo, `git handoff write cache-layer -m x --session ${OTHER}`))).toContain('writes only as itself');
  });

  it('the safe command in each refusal works: it takes only this session\'s paths and leaves the other\'s alone', async () => {
    const cases: Array<{ command: string; check: (repo: TestRepo) => void }> = [
      {
        command: 'git add -A',
        check: (repo) => expect(repo.git(['diff', '--cached', '--name-only']).stdout.split('\n').filter(Boolean).sort()).toEqual(MINE),
      },
      {
        command: 'git commit -am "wip: mine"',
        check: (repo) => {
          // commit -a takes tracked changes only: so does the safe command.
          expect(repo.git(['show', '--name-only', '--format=%s', 'HEAD']).stdout.split('\n').filter(Boolean)).toEqual(['wip: mine', 'src/mine.ts']);
          expect(dirty(repo)).toEqual(['mine-new.txt', ...THEIRS]);
        },
      },
      {
        command: 'git stash',
        check: (repo) => {
          // Like `git stash`, only tracked changes: the untracked file of ours stays.
          expect(dirty(repo)).toEqual(['mine-new.txt', ...THEIRS]);
          expect(repo.git(['stash', 'list']).stdout).toContain('stash@{0}');
        },
      },
      {
        command: 'git stash push -u',
        check: (repo) => expect(dirty(repo)).toEqual(THEIRS),
      },
      { command: 'git reset --hard', check: (repo) => { expect(file(repo, 'src/mine.ts')).toBe('mine v1\n'); expect(file(repo, 'src/theirs.ts')).toBe('theirs v2\n'); } },
      { command: 'git checkout -- .', check: (repo) => { expect(file(repo, 'src/mine.ts')).toBe('mine v1\n'); expect(file(repo, 'src/theirs.ts')).toBe('theirs v2\n'); } },
      { command: 'git restore .', check: (repo) => { expect(file(repo, 'src/mine.ts')).toBe('mine v1\n'); expect(file(repo, 'src/theirs.ts')).toBe('theirs v2\n'); } },
      { command: 'git clean -f', check: (repo) => { expect(existsSync(path.join(repo.dir, 'mine-new.txt'))).toBe(false); expect(existsSync(path.join(repo.dir, 'notes/theirs-new.md'))).toBe(true); } },
    ];
    for (const c of cases) {
      const repo = await shared();
      const reason = denial(await bash(repo, c.command))!;
      const safe = safeOf(reason);
      expect(safe, c.command).toBeTruthy();
      // The safe command passes the guard itself, then does its job.
      expect(denial(await bash(repo, safe!)), safe!).toBeNull();
      sh(repo, safe!);
      c.check(repo);
      expect(file(repo, 'src/theirs.ts')).toBe('theirs v2\n');
    }
  });

  it('switching branches: the worktree command in the refusal gives this session its own checkout', async () => {
    const repo = await shared();
    for (const [command, branch] of [['git checkout feature', 'feature'], ['git switch -c topic-y', 'topic-y']]) {
      const add = worktreeOf(denial(await bash(repo, command))!)!;
      expect(add, command).toMatch(/^git worktree add /);
      expect(denial(await bash(repo, add))).toBeNull();
      sh(repo, add);
      const dir = path.join(path.dirname(repo.dir), `repo-${branch}`);
      expect(repo.git(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: dir }).stdout.trim()).toBe(branch);
    }
    expect(repo.git(['rev-parse', '--abbrev-ref', 'HEAD']).stdout.trim()).toBe('main');
    expect(file(repo, 'src/theirs.ts')).toBe('theirs v2\n');
  });

  it('allows everything once the other session released the worktree, or its lease expired', async () => {
    const repo = await shared();
    expect(denial(await bash(repo, 'git add -A'))).toBeTruthy();
    // This agent may not release the other session (that would be writing as it)…
    expect(denial(await bash(repo, `git handoff release --session ${OTHER}`))).toContain('writes only as itself');
    // …but that session, or the person, may.
    const rel = await repo.cli(['release', '--json'], { env: { GIT_HANDOFF_SESSION: OTHER } });
    expect(JSON.parse(String(rel.stdout))).toMatchObject({ session: OTHER, lease: true, paths: THEIRS });
    for (const command of REFUSED) expect(denial(await bash(repo, command)), command).toBeNull();

    const again = await shared();
    expect(denial(await bash(again, 'git stash'))).toBeTruthy();
    again.git(['config', 'handoff.leaseTTL', '1s']);
    await new Promise((res) => setTimeout(res, 1200));
    for (const command of ['git stash', 'git reset --hard', 'git checkout feature', 'git clean -f']) expect(denial(await bash(again, command)), command).toBeNull();
  });
});
