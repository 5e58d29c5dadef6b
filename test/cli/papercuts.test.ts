// The first hour's papercuts (issue 27), each through the built CLI: what a message says, and that its advice works.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, ROOT, type TestRepo } from '../helpers/repo';

async function run(repo: TestRepo, args: string[], code = 0, env: Record<string, string | undefined> = {}) {
  const r = await repo.cli(args, { env });
  expect(r.exitCode, `${args.join(' ')}\n${r.stderr}`).toBe(code);
  return { out: String(r.stdout), err: String(r.stderr) };
}

const write = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};

describe('papercuts', () => {
  it('no session id names --person, and --person works where it is named (sync --resolve takes it)', async () => {
    const repo = makeRepo({ commit: true });
    const { err } = await run(repo, ['write', 'auth-refactor', '-m', 'x'], 5);
    expect(err).toContain('--person to act as the person in git config');
    await run(repo, ['write', 'auth-refactor', '--person', '-m', 'x']);
    // sync --resolve knows --person (it used to suggest --version); with nothing diverged it says so, not "unknown argument"
    const r = await repo.cli(['sync', '--resolve', 'auth-refactor', '--keep', 'local', '--person']);
    expect(String(r.stderr)).not.toMatch(/Unknown argument|did you mean --version/);
  });

  it('a topic on another branch names the --branch that reaches it; a mistyped topic gets "did you mean", and both commands work', async () => {
    const repo = makeRepo({ commit: true });
    await run(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x']);
    repo.git(['checkout', '-q', '-b', 'feature']);
    const other = await run(repo, ['show', 'auth-refactor', '--no-receipt'], 2);
    const step = /git handoff (show .*--branch main)$/m.exec(other.err)![1].split(' ');
    expect(step).toEqual(['show', 'auth-refactor', '--no-receipt', '--branch', 'main']);
    expect((await run(repo, step)).out).toContain('Goal: x');
    repo.git(['checkout', '-q', 'main']);
    const typo = await run(repo, ['log', 'auth-refactr'], 2);
    expect(typo.err).toMatch(/did you mean auth-refactor\? git handoff log auth-refactor$/m);
    expect(json(await repo.cli(['show', 'auth-refactr', '--json'])).error.data.hint).toContain('did you mean auth-refactor?');
  });

  it('--to claude is client:claude-code', async () => {
    const repo = makeRepo({ commit: true });
    await run(repo, ['write', 'release-plan', '--person', '--to', 'claude', '-m', 'x']);
    expect(json(await repo.cli(['show', 'release-plan', '--json'])).to).toEqual(['client:claude-code']);
  });

  it('read receipts name each reader once, by what they did', async () => {
    const repo = makeRepo({ commit: true });
    await run(repo, ['write', 'auth-refactor', '--session', 'sess-a', '--to', 'session:sess-b', '--to', 'session:sess-c', '-m', 'Goal: x']);
    // addressed to both: sess-b is shown it at session start, then opens it; sess-c is only shown it
    await run(repo, ['boot'], 0, { GIT_HANDOFF_SESSION: 'sess-b' });
    await run(repo, ['show', 'auth-refactor', '--session', 'sess-b']);
    await run(repo, ['boot'], 0, { GIT_HANDOFF_SESSION: 'sess-c' });
    const { out } = await run(repo, ['show', 'auth-refactor', '--no-receipt']);
    expect(out).toMatch(/^read by sess-b · shown at session start to sess-c$/m);
    expect(out).not.toMatch(/sess-b \(surfaced\)|\(2\)/);
  });

  it('list with filters that leave nothing says so; a renamed branch points at its handoffs, and the carry-over command works', async () => {
    const repo = makeRepo({ commit: true });
    await run(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x']);
    await run(repo, ['show', 'auth-refactor', '--session', 's2']);
    expect((await run(repo, ['list', '--for-me', '--unread', '--session', 's2'])).out).toBe('no handoffs unread by you on branch main (1 without that filter: git handoff list)');
    expect((await run(repo, ['list', '--tag', 'nope'])).out).toBe('no handoffs tagged nope on branch main (1 without that filter: git handoff list)');
    repo.git(['checkout', '-q', '-b', 'feature']);
    await run(repo, ['write', 'login-loop', '--session', 's1', '-m', 'Goal: fix the loop']);
    repo.git(['branch', '-m', 'feature', 'feature-2']);
    const { out } = await run(repo, ['list']);
    expect(out).toContain('feature-2 was renamed from feature, and its 1 handoff stays there (login-loop): git handoff list --branch feature');
    const carry = /to carry it to feature-2, on the record: (.*)$/m.exec(out)![1];
    const r = await execa('sh', ['-c', carry.replace(/git handoff/g, `"${path.join(ROOT, 'bin', 'git-handoff')}"`)], { cwd: repo.dir, env: { ...repo.env, GIT_HANDOFF_SESSION: 's1' }, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(refOf(repo, 'refs/handoffs/feature-2/login-loop')).not.toBeNull();
    expect(refOf(repo, 'refs/handoffs/feature/login-loop')).toBeNull();
    expect((await run(repo, ['show', 'login-loop', '--raw', '--no-receipt'])).out).toBe('Goal: fix the loop');
  });

  it('-h examples are whole lines at any width; list headers name the JSON key', async () => {
    const repo = makeRepo({ commit: true });
    for (const columns of ['80', '200']) {
      const { out } = await run(repo, ['write', '-h'], 0, { COLUMNS: columns });
      const examples = out.slice(out.indexOf('Examples:'));
      expect(examples).toContain('\n  git handoff write release-checklist --person --to client:claude-code -m "…"\n');
      expect(examples).toContain('\n  # as the person in git config, for the next Claude Code session\n');
    }
    await run(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'x']);
    const { out } = await run(repo, ['list']);
    expect(out.split('\n')[0].split(/\s+/)).toEqual(['BRANCH', 'TOPIC', 'SESSION', 'UPDATED', 'SYNC']);
    expect(Object.keys(json(await repo.cli(['list', '--json']))[0])).toContain('session');
  });

  it('install --agent cursor writes a whole .cursor/hooks.json, no placeholders', async () => {
    const repo = makeRepo({ commit: true });
    const { out } = await run(repo, ['install', '--agent', 'cursor', '--no-hooks']);
    expect(out).toContain('.cursor/hooks.json: wired');
    const text = readFileSync(path.join(repo.dir, '.cursor', 'hooks.json'), 'utf8');
    expect(text).not.toContain('[...');
    const file = JSON.parse(text);
    expect(Object.keys(file.hooks)).toEqual(['preToolUse', 'sessionStart', 'stop', 'preCompact', 'sessionEnd']);
    for (const entries of Object.values(file.hooks) as any[]) for (const e of entries) expect(e.command).toBe('git-handoff guard --client=cursor');
  });

  it('doctor with only the plugin: no "install --agent claude" advice; a plugin copy older than the CLI is broken and says install again', async () => {
    const repo = makeRepo({ commit: true });
    const market = path.join(repo.home, '.local', 'share', 'git-handoff', 'claude-marketplace');
    const folder = path.join(market, 'git-handoff');
    cpSync(path.join(ROOT, 'dist', 'claude-plugin'), folder, { recursive: true });
    write(path.join(market, '.claude-plugin', 'marketplace.json'), { name: 'git-handoff', plugins: [{ name: 'git-handoff', source: './git-handoff' }] });
    write(path.join(repo.home, '.claude', 'plugins', 'known_marketplaces.json'), { 'git-handoff': { source: { source: 'directory', path: market }, installLocation: market } });
    write(path.join(repo.home, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: { 'git-handoff@git-handoff': [{ scope: 'user', installPath: '/nonexistent' }] } });
    write(path.join(repo.home, '.claude', 'settings.json'), { enabledPlugins: { 'git-handoff@git-handoff': true } });
    const items = json(await repo.cli(['doctor', '--json'])).items;
    expect(items.find((i: any) => i.component === 'agent claude').detail).toBe('not wired (.claude/settings.json not present); not needed: the git-handoff plugin answers here (below)');
    const plugin = items.find((i: any) => i.component.startsWith('plugin claude'));
    expect(plugin.status).toBe('ok');
    expect(plugin.detail).not.toContain('older than');
    const pkg = path.join(folder, 'package.json');
    // an older guard is not ok (issue 40 item 7): broken, doctor exits 1, with the command that replaces it
    write(pkg, { ...JSON.parse(readFileSync(pkg, 'utf8')), version: '0.0.9' });
    const doctor = await repo.cli(['doctor', '--json']);
    expect(doctor.exitCode).toBe(1);
    const stale = json(doctor).items.find((i: any) => i.component.startsWith('plugin claude'));
    expect(stale.status).toBe('broken');
    expect(stale.detail).toMatch(/git-handoff 0\.0\.9\); older than this git-handoff \(\d+\.\d+\.\d+\), so the client runs a guard without this build's checks: install again with git handoff install --agent claude --plugin/);
  });
});
