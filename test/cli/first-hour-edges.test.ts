// Issue 40, items 1–8: the edges where typing or handoffs got lost (rename, edit, quoting), where uninstall left
// what install created, and where --branch departed from git's rules; each from what a user sees.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { denial, guard, payload } from '../guard/helpers';
import { BIN, makeRepo, refOf, type TestRepo } from '../helpers/repo';

const REF = 'refs/handoffs/main/auth-refactor';

async function ok(repo: TestRepo, args: string[], env: Record<string, string> = {}) {
  const r = await repo.cli(args, { env });
  expect(r.exitCode, `${args.join(' ')}\n${r.stderr}`).toBe(0);
  return String(r.stdout);
}

describe('edit of another session’s handoff (item 2)', () => {
  it('is refused before the editor opens, and the way on is edit --take-over', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: theirs']);
    const tip = refOf(repo, REF);
    const opened = path.join(repo.home, 'editor-opened');
    const r = await repo.cli(['edit', 'auth-refactor', '--session', 's2'], { env: { GIT_EDITOR: `touch '${opened}'; :` } });
    expect(r.exitCode).toBe(3);
    expect(existsSync(opened)).toBe(false);
    expect(String(r.stderr)).toContain('git handoff edit auth-refactor --take-over --reason "<why>"');
    expect(String(r.stderr)).not.toContain('write auth-refactor --take-over');
    expect(refOf(repo, REF)).toBe(tip);
    // with --take-over the editor opens and the version is written
    await ok(repo, ['edit', 'auth-refactor', '--session', 's2', '--take-over', '--reason', 'owner gone'], { GIT_EDITOR: `touch '${opened}'; sed -i 's/theirs/mine/'` });
    expect(existsSync(opened)).toBe(true);
    expect(await ok(repo, ['show', 'auth-refactor', '--raw'])).toBe('Goal: mine');
  });

  it('a handoff taken over while the editor was open: the write is refused and what was typed is kept, the message says where', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: mine']);
    // the editor: another session takes the handoff over meanwhile, then the person types
    const editor = `'${BIN}' write auth-refactor --session s2 --take-over --reason race -m 'Goal: theirs' >/dev/null && sed -i 's/mine/typed by hand/'`;
    const r = await repo.cli(['edit', 'auth-refactor', '--session', 's1'], { env: { GIT_EDITOR: editor } });
    expect(r.exitCode).toBe(3);
    const m = /kept in (\S+) \(to write it: git handoff write auth-refactor -F \1\)/.exec(String(r.stderr));
    expect(m, String(r.stderr)).not.toBeNull();
    expect(readFileSync(m![1], 'utf8')).toBe('Goal: typed by hand\n');
    expect(await ok(repo, ['show', 'auth-refactor', '--raw'])).toBe('Goal: theirs');
  });
});

describe('a refusal quotes the refused step as written (item 3)', () => {
  it('a substitution at the end of the step, and a subshell around it, stay whole', async () => {
    const repo = makeRepo({ commit: true });
    for (const [command, quoted] of [
      ['git update-ref refs/handoffs/main/x $(git rev-parse HEAD)', '`git update-ref refs/handoffs/main/x $(git rev-parse HEAD)`'],
      ['(git update-ref refs/handoffs/main/x $(git rev-parse HEAD))', '`git update-ref refs/handoffs/main/x $(git rev-parse HEAD)`'],
      ['echo a && (cd . ; git update-ref -d refs/handoffs/main/x) || true', '`cd . ; git update-ref -d refs/handoffs/main/x`'],
    ]) {
      const why = denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } })));
      expect(why, command).toContain(quoted);
    }
  });
});

describe('write --branch follows git’s branch names (item 8)', () => {
  it('names git refuses exit 2 and write nothing; a typo of a branch is refused with a suggestion unless --new-branch', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['branch', 'feature/login']);
    const bad = ['has space', 'bad..branch', 'x.lock', 'a~b', 'ends/'];
    const refused = await Promise.all(bad.map((b) => repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', b])));
    refused.forEach((r, i) => {
      expect(r.exitCode, bad[i]).toBe(2);
      expect(String(r.stderr), bad[i]).toContain('git does not allow this as a branch name');
    });
    const typo = await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'mian']);
    expect(typo.exitCode).toBe(2);
    expect(String(typo.stderr)).toContain('did you mean main?');
    const slash = await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'feature/logn', '--json']);
    expect(slash.exitCode).toBe(2);
    expect(JSON.parse(String(slash.stdout)).error).toMatchObject({ code: 'unknown-branch', data: { suggestion: 'feature/login' } });
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
    // meant: --new-branch writes it; a branch far from any is written with a warning; a known one silently
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'mian', '--new-branch']);
    expect(refOf(repo, 'refs/handoffs/mian/auth-refactor')).not.toBeNull();
    const planned = await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'release-2027']);
    expect(planned.exitCode).toBe(0);
    expect(String(planned.stderr)).toContain('no branch release-2027 here or on a remote yet');
    const known = await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'feature/login']);
    expect(known.exitCode).toBe(0);
    expect(String(known.stderr)).toBe('');
    // a remote's branch counts as known
    repo.git(['update-ref', 'refs/remotes/origin/hotfix-42', 'HEAD']);
    expect((await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'hotfix-42'])).stderr).toBe('');
  });
});

const HOOKS = ['prepare-commit-msg', 'commit-msg', 'pre-commit', 'pre-push', 'reference-transaction'];
const hooksIn = (repo: TestRepo) => HOOKS.filter((h) => existsSync(path.join(repo.dir, '.git', 'hooks', h)));

describe('uninstall --agent takes back the git hooks its install brought (item 4)', () => {
  it('the last agent install undone removes them; another agent’s, or hooks installed on their own, keep them, said so', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['install', '--agent', 'claude']);
    await ok(repo, ['install', '--agent', 'gemini']);
    expect(hooksIn(repo)).toEqual(HOOKS);
    const first = await ok(repo, ['uninstall', '--agent', 'claude']);
    expect(first).toContain('git hooks kept: install --agent gemini brought them too; git handoff uninstall --hooks removes them');
    expect(hooksIn(repo)).toEqual(HOOKS);
    const last = await ok(repo, ['uninstall', '--agent', 'gemini']);
    expect(last).toContain('reference-transaction: removed');
    expect(hooksIn(repo)).toEqual([]);
    // hooks a person installed on their own stay with an agent's uninstall
    await ok(repo, ['install', '--hooks']);
    await ok(repo, ['install', '--agent', 'claude']);
    expect(await ok(repo, ['uninstall', '--agent', 'claude'])).toContain('git hooks kept: nothing records that install --agent brought them');
    expect(hooksIn(repo)).toEqual(HOOKS);
  });
});

describe('plugin uninstalls remove the folders their install made (item 6)', () => {
  it('OpenCode in a HOME with no ~/.config: uninstall leaves no ~/.config behind', async () => {
    const repo = makeRepo({ commit: true });
    const config = path.join(repo.home, '.config');
    expect(existsSync(config)).toBe(false);
    await ok(repo, ['install', '--agent', 'opencode', '--plugin']);
    expect(existsSync(path.join(config, 'opencode', 'plugin', 'git-handoff.js'))).toBe(true);
    const out = await ok(repo, ['uninstall', '--agent', 'opencode', '--plugin']);
    expect(out).toContain(`${path.join(config, 'opencode', 'plugin')}: removed (an empty folder)`);
    expect(existsSync(config)).toBe(false);
  });
});

describe('uninstall removes the state it made, and keeps the handoffs, said so (item 5)', () => {
  const refs = (repo: TestRepo) => repo.git(['for-each-ref', '--format=%(refname)']).stdout.split('\n').filter(Boolean);

  it('install then uninstall with no handoff ever written leaves no record and no .git/handoff', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['install']);
    await ok(repo, ['list']);
    const out = await ok(repo, ['uninstall']);
    // a repository that never held a handoff gets no record at all (nor a witness outside .git), so none to remove
    expect(out).not.toContain('refs/handoff-record');
    expect(existsSync(path.join(repo.home, '.local', 'state', 'git-handoff'))).toBe(false);
    expect(refs(repo)).toEqual(['refs/heads/main']);
    expect(existsSync(path.join(repo.dir, '.git', 'handoff'))).toBe(false);
  });

  it('after real use: leases, ledger, lineage and guard state go; the handoff and its record stay, and the output says why', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['install', '--agent', 'claude']);
    const start = { session_id: 's1', hook_event_name: 'SessionStart', source: 'startup', cwd: repo.dir };
    expect((await repo.cli(['guard', '--client', 'claude'], { input: JSON.stringify(start) })).exitCode).toBe(0);
    const wrote = { session_id: 's1', hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: path.join(repo.dir, 'a.txt'), content: 'a\n' }, cwd: repo.dir };
    repo.write('a.txt', 'a\n');
    expect((await repo.cli(['guard', '--client', 'claude'], { input: JSON.stringify(wrote) })).exitCode).toBe(0);
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x']);
    const state = path.join(repo.dir, '.git', 'handoff');
    expect(refs(repo).some((r) => r.startsWith('refs/handoff-leases/'))).toBe(true);
    expect(existsSync(path.join(state, 'lineage'))).toBe(true);
    await ok(repo, ['show', 'auth-refactor']);
    expect(existsSync(path.join(state, 'versions.json'))).toBe(true);
    await ok(repo, ['list', '--all']);
    expect(existsSync(path.join(state, 'listing'))).toBe(true);
    const out = await ok(repo, ['uninstall']);
    expect(out).toContain('refs/handoff-leases/*: removed (1 worktree lease)');
    expect(out).toMatch(/kept: your handoffs \(1 ref under refs\/handoffs\/ .*refs\/handoff-record \(the loss record that restores them\).*: they are data, not wiring/);
    expect(refs(repo).sort()).toEqual(['refs/handoff-record', REF, 'refs/heads/main'].sort());
    for (const n of ['guard', 'guard-config.json', 'lineage', 'ledger', 'processes', 'record-seen.json', 'versions.json', 'listing']) expect(existsSync(path.join(state, n)), n).toBe(false);
    expect(await ok(repo, ['show', 'auth-refactor', '--raw'])).toBe('Goal: x');
  });
});

describe('a renamed branch keeps its handoffs (item 1)', () => {
  it('boot and the SessionStart view point at rename-branch, which carries them on the record; another session’s needs --take-over', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['checkout', '-q', '-b', 'feature/login']);
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: port login']);
    await ok(repo, ['write', 'login-bug-fix', '--session', 's2', '-m', 'Goal: theirs']);
    const oldTip = refOf(repo, 'refs/handoffs/feature%2Flogin/auth-refactor');
    repo.git(['branch', '-m', 'feature/login', 'feature/auth']);
    const carry = 'git handoff rename-branch feature/login feature/auth';
    expect(await ok(repo, ['boot', '--session', 's1'])).toContain(`to carry them to feature/auth, on the record: ${carry}`);
    const start = { session_id: 's1', hook_event_name: 'SessionStart', source: 'startup', cwd: repo.dir };
    const hook = await repo.cli(['guard', '--client', 'claude'], { input: JSON.stringify(start) });
    expect(hook.exitCode).toBe(0);
    expect(String(hook.stdout)).toContain(carry);
    // s1 does not own login-bug-fix: refused, nothing moved
    const refused = await repo.cli(['rename-branch', 'feature/login', 'feature/auth', '--session', 's1']);
    expect(refused.exitCode).toBe(3);
    expect(String(refused.stderr)).toContain(`${carry} --take-over --reason "<why>"`);
    expect(refOf(repo, 'refs/handoffs/feature%2Flogin/auth-refactor')).toBe(oldTip);
    // the command as printed (the current branch is the default new name), with the takeover
    await ok(repo, ['rename-branch', 'feature/login', '--session', 's1', '--take-over', '--reason', 'branch renamed']);
    expect(refOf(repo, 'refs/handoffs/feature%2Flogin/auth-refactor')).toBeNull();
    expect(repo.git(['rev-parse', 'refs/handoffs/feature%2Fauth/auth-refactor^']).stdout.trim()).toBe(oldTip);
    expect(await ok(repo, ['show', 'auth-refactor', '--raw'])).toBe('Goal: port login');
    const boot = await ok(repo, ['boot', '--session', 's1']);
    expect(boot).toContain('2 handoffs on branch feature/auth');
    expect(boot).not.toContain('rename-branch');
    const archived = await ok(repo, ['list', '--archived', '--all', '--json']);
    expect(JSON.parse(archived).map((r: any) => `${r.branch}/${r.topic}`).sort()).toEqual(['feature/login/auth-refactor', 'feature/login/login-bug-fix']);
    // nothing left to carry
    expect((await repo.cli(['rename-branch', 'feature/login', '--session', 's1'])).exitCode).toBe(2);
  });
});
