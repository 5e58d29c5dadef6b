// `git handoff uninstall` takes back what install made, from what a user sees: the git hooks an agent install
// brought (kept for another agent's or a hooks install, said so), the folders a plugin install made, and the state
// git-handoff made (leases, ledger, lineage, guard state) while the handoffs and their record stay, said why.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { cliOk as ok } from '../cli/helpers';

const REF = 'refs/handoffs/main/auth-refactor';
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
