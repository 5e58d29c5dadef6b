// Issue 13, held against a deliberate attacker through the real `git-handoff guard`: another user's repository and
// symlinked state (3, 17), throws that used to allow a whole line (4), unreadable write targets and symlinked
// directories (5), forged lineage (7), oversized and quadratic inputs against a real watchdog (15), forged local
// state (16).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, refOf, tempDir, type TestRepo } from '../helpers/repo';
import { denial, guard, ME, OTHER, payload, readLog, writeHandoff } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';
const bash = (repo: TestRepo, command: string, env: Record<string, string> = {}) =>
  guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }), env);
const writeTool = (repo: TestRepo, file: string, content: string) =>
  guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: file, content } }));
const NOBODY = 65534;
const chownTree = (dir: string, uid: number) => execFileSync('chown', ['-R', `${uid}:${uid}`, dir]);
const asRoot = process.geteuid?.() === 0;

async function withHandoff(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  await writeHandoff(repo, 'auth-refactor', 'their note', OTHER);
  return repo;
}

describe('state is never written through a symlink or into a file of another user (3)', () => {
  it('a symlinked guard.log, audit.jsonl or handoff directory leaves the victim untouched', async () => {
    const repo = await withHandoff();
    const victimDir = tempDir();
    const victim = path.join(victimDir, '.bashrc');
    writeFileSync(victim, 'original\n');
    mkdirSync(path.join(repo.dir, '.git', 'handoff'), { recursive: true });
    symlinkSync(victim, path.join(repo.dir, '.git', 'handoff', 'guard.log'));
    symlinkSync(victim, path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'));
    // bad input logs a line; a bypass appends to the audit trail
    expect(await guard(repo, 'not json')).toMatchObject({ exitCode: 0, stdout: '' });
    const bypassed = await bash(repo, `git update-ref -d ${REF}`, { GIT_HANDOFF_BYPASS: '1' });
    // the bypass cannot be recorded, so it is not granted
    expect(denial(bypassed)).toMatch(/could not check this call/);
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
    expect(lstatSync(path.join(repo.dir, '.git', 'handoff', 'guard.log')).isSymbolicLink()).toBe(true);

    // the whole state directory a symlink to the victim's directory: nothing is created there
    const repo2 = await withHandoff();
    symlinkSync(victimDir, path.join(repo2.dir, '.git', 'handoff-real'));
    execFileSync('rm', ['-rf', path.join(repo2.dir, '.git', 'handoff')]);
    symlinkSync(victimDir, path.join(repo2.dir, '.git', 'handoff'));
    expect(await guard(repo2, 'not json')).toMatchObject({ exitCode: 0, stdout: '' });
    expect(readdirSync(victimDir).sort()).toEqual(['.bashrc']);
  });

  it.runIf(asRoot)('in a repository owned by another user (not in safe.directory) the guard does nothing and writes nothing', async () => {
    const repo = await withHandoff();
    execFileSync('rm', ['-rf', path.join(repo.dir, '.git', 'handoff')]);
    chownTree(repo.dir, NOBODY);
    const denied = `git update-ref -d ${REF}`;
    // git itself refuses to run here ("dubious ownership"): the guard stays out, silently
    expect(await bash(repo, denied)).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await guard(repo, 'not json')).toMatchObject({ exitCode: 0, stdout: '' });
    expect(existsSync(path.join(repo.dir, '.git', 'handoff'))).toBe(false);
    // listed in the user's global safe.directory (never the repository's own config), it is guarded again
    repo.git(['config', '--file', path.join(repo.dir, '.git', 'config'), 'safe.directory', '*'], { allowFail: true });
    expect(denial(await bash(repo, denied))).toBeNull();
    repo.git(['config', '--global', '--add', 'safe.directory', repo.dir]);
    expect(denial(await bash(repo, denied))).toMatch(/moves a handoff ref directly/);
  });

  it.runIf(asRoot)('install, doctor and the hooks do nothing in a repository owned by another user (17)', async () => {
    const repo = await withHandoff();
    chownTree(repo.dir, NOBODY);
    const hooks = readdirSync(path.join(repo.dir, '.git', 'hooks')).sort();
    const install = await repo.cli(['install', '--hooks']);
    expect(install.exitCode).not.toBe(0);
    expect(String(install.stderr)).toMatch(/dubious ownership|not a git repository/);
    expect(readdirSync(path.join(repo.dir, '.git', 'hooks')).sort()).toEqual(hooks);
    const agent = await repo.cli(['install', '--agent', 'claude']);
    expect(agent.exitCode).not.toBe(0);
    expect(existsSync(path.join(repo.dir, '.claude'))).toBe(false);
    const doctor = await repo.cli(['doctor']);
    expect(doctor.exitCode).not.toBe(0);
    expect(existsSync(path.join(repo.dir, '.git', 'handoff', 'guard.log'))).toBe(false);
  });
});

describe('the classifier is total; what it cannot decide is refused when it names protected things (4)', () => {
  it('a rule that cannot read one command no longer lets the rest of the line through', async () => {
    const repo = await withHandoff();
    // a worktree whose .git names a missing git directory
    const broken = path.join(repo.dir, 'broken');
    mkdirSync(broken);
    writeFileSync(path.join(broken, '.git'), 'gitdir: /nonexistent/gitdir\n');
    for (const command of [
      `git -C broken reset 2>/dev/null; git update-ref ${REF} HEAD`,
      `git -C broken reset --hard HEAD~1 2>/dev/null; git update-ref -d ${REF}`,
      `git add 'x[' 2>/dev/null; git update-ref -d ${REF}`,
      `find . -name 'a[' -delete; git update-ref -d ${REF}`,
      `git -C "$(printf broken)" rebase x; git push -f origin ${REF}`,
    ]) {
      expect(denial(await bash(repo, command)), command).toMatch(/handoff ref/);
    }
    expect(readLog(repo)).not.toMatch(/internal error/);
    // and a harmless command in the broken directory alone is allowed
    expect(await bash(repo, 'git -C broken status')).toMatchObject({ exitCode: 0, stdout: '' });
  });
});

describe('write targets the guard cannot resolve, and symlinked directories (5)', () => {
  it('the Write tool through a symlinked directory or file is judged where it leads', async () => {
    const repo = await withHandoff();
    const theirs = `<!-- claude-session: ${OTHER} -->\ntheir note\n`;
    repo.write('memory/handoff-main-auth-refactor.md', theirs);
    symlinkSync(path.join(repo.dir, 'memory'), path.join(repo.dir, 'notes'));
    symlinkSync(path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md'), path.join(repo.dir, 'todo.md'));
    for (const file of [path.join(repo.dir, 'notes', 'handoff-main-auth-refactor.md'), path.join(repo.dir, 'todo.md')]) {
      const r = await writeTool(repo, file, `<!-- claude-session: ${ME} -->\nmine now\n`);
      expect(denial(r), file).toMatch(/belongs to session/);
    }
    // a symlink into the ref store
    symlinkSync(path.join(repo.dir, '.git', 'refs'), path.join(repo.dir, 'r'));
    expect(denial(await writeTool(repo, path.join(repo.dir, 'r', 'handoffs', 'main', 'auth-refactor'), '0'.repeat(40)))).toMatch(/ref store/);
    expect(readFileSync(path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md'), 'utf8')).toBe(theirs);
    // an ordinary file through a symlinked directory is still fine
    symlinkSync(path.join(repo.dir), path.join(repo.dir, 'here'));
    expect(await writeTool(repo, path.join(repo.dir, 'here', 'src', 'app.ts'), 'x')).toMatchObject({ exitCode: 0, stdout: '' });
  });
});

describe('forged lineage: CLAUDE_PID counts only when that process is an ancestor of the hook (7)', () => {
  it('a hand-made SessionStart {"source":"clear"} naming another process inherits nothing', async () => {
    const repo = makeRepo({ commit: true });
    const dir = tempDir();
    const start = (session: string, source: string) => JSON.stringify(payload(repo, 'claude-code/session-start.json', { source }, session));
    writeFileSync(path.join(dir, 'a.json'), start('aaaa1111-victim', 'startup'));
    // session A runs in its own client process: a shell that stays alive (its pid is A's CLAUDE_PID)
    const client = spawn('sh', ['-c', `CLAUDE_PID=$$ ${BIN} guard < a.json > a.out; echo > ready; exec sleep 60`], { cwd: dir, env: repo.env, stdio: 'ignore' });
    try {
      for (let i = 0; i < 600 && !existsSync(path.join(dir, 'ready')); i++) await new Promise((r) => setTimeout(r, 100));
      const aPid = String(client.pid);
      expect((await repo.cli(['write', 'auth-refactor', '-m', 'A'], { env: { GIT_HANDOFF_SESSION: 'aaaa1111-victim', GIT_HANDOFF_CLIENT: 'claude-code' } })).exitCode).toBe(0);
      // B forges A's pid: that process is alive, but not in B's parent chain, so B is not A's successor
      const forged = await guard(repo, JSON.parse(start('bbbb2222-attacker', 'clear')), { CLAUDE_PID: aPid });
      expect(JSON.stringify(forged.answer ?? '')).not.toMatch(/continuing session/);
      const w = await repo.cli(['write', 'auth-refactor', '-m', 'B'], { env: { GIT_HANDOFF_SESSION: 'bbbb2222-attacker' } });
      expect(w.exitCode).toBe(3);
      expect(repo.git(['log', '-1', '--format=%B', REF]).stdout).toContain('Claude-Session-Id: aaaa1111-victim');
    } finally {
      client.kill();
    }
  });
});

describe('bounded inputs, linear patterns and a real watchdog (15)', () => {
  it('quadratic and oversized commands are decided quickly: refused when they name protected things', async () => {
    const repo = await withHandoff();
    const cases: Array<[string, 'deny' | 'allow']> = [
      // git refuses the unknown switch `!` itself; what matters is the time it takes to see that
      [`git push -${'f'.repeat(200 * 1024)}! origin ${REF}`, 'allow'],
      [`git push -${'f'.repeat(200 * 1024)} origin ${REF}`, 'deny'],
      ['git ' + '1'.repeat(640 * 1024), 'deny'],
      ['1'.repeat(640 * 1024) + ' > out.txt', 'allow'],
      [`git update-ref ${'refs/'.repeat(60 * 1024)}`, 'deny'],
      ['git add x;'.repeat(3000), 'deny'],
    ];
    for (const [command, expected] of cases) {
      const started = Date.now();
      const r = await bash(repo, command);
      expect(r.exitCode).toBe(0);
      expect(denial(r) === null ? 'allow' : 'deny', command.slice(0, 40)).toBe(expected);
      // well inside the watchdog (15 s) even on a loaded machine
      expect(Date.now() - started, command.slice(0, 40)).toBeLessThan(15_000);
    }
    expect(refOf(repo, REF)).not.toBeNull();
  });

  it('past its budget the guard refuses a call that names protected things and allows any other', async () => {
    const repo = await withHandoff();
    const budget = { GIT_HANDOFF_GUARD_BUDGET_MS: '1' };
    // a line long enough that reading it takes longer than 1 ms
    const heavy = `${'echo a > /dev/null; '.repeat(4000)}git update-ref -d ${REF}`;
    expect(denial(await bash(repo, heavy, budget))).toMatch(/could not check this call|moves a handoff ref/);
    expect(denial(await bash(repo, `${'echo a > /dev/null; '.repeat(4000)}echo done > out.txt`, budget))).toBeNull();
  });
});

describe('forged local state (16)', () => {
  it('a forged guard-config.json cannot turn the guard off while git config says nothing', async () => {
    const repo = await withHandoff();
    const denied = `git update-ref -d ${REF}`;
    // a Write of an ordinary file reads the configuration, which writes the cache
    await writeTool(repo, path.join(repo.dir, 'src', 'a.ts'), 'x');
    const file = path.join(repo.dir, '.git', 'handoff', 'guard-config.json');
    const cache = JSON.parse(readFileSync(file, 'utf8'));
    expect(cache.mac).toMatch(/^[0-9a-f]{64}$/);
    for (const forged of [
      { ...cache, entries: [...cache.entries, ['handoff.guard', ['off']]] },
      { key: cache.key, entries: [['handoff.guard', ['off']]] },
    ]) {
      writeFileSync(file, JSON.stringify(forged));
      const r = await bash(repo, denied);
      expect(denial(r)).toMatch(/moves a handoff ref directly/);
    }
    // git config is the source of truth: turned off there, it is off
    repo.git(['config', 'handoff.guard', 'off']);
    expect(denial(await bash(repo, denied))).toBeNull();
  });

  it('a forged guard-config.json cannot narrow handoff.protect for the sh front the clients run either', async () => {
    const repo = await withHandoff();
    repo.git(['config', 'handoff.protect', 'docs/**']);
    mkdirSync(path.join(repo.dir, 'docs'));
    // the front as a client runs it: `sh -c 'git-handoff-guard --client=claude-code'`, the payload on stdin
    const front = (file: string) => {
      const dir = path.join(repo.dir, '.git', 'handoff', 'guard');
      for (const f of existsSync(dir) ? readdirSync(dir).filter((x) => x.endsWith('.beat')) : []) writeFileSync(path.join(dir, f), `${Date.now()}\n`);
      const input = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: file, content: 'x' } }));
      const out = execFileSync('sh', ['-c', `"${path.join(BIN, '..', 'git-handoff-guard')}" --client=claude-code`], { cwd: repo.dir, env: repo.env, input, encoding: 'utf8' });
      return denial({ exitCode: 0, stdout: out.trim(), stderr: '', answer: out.trim() ? JSON.parse(out) : null });
    };
    // the session is seen, its lease fresh and the configuration cached (the front's conditions to answer alone)
    await writeTool(repo, path.join(repo.dir, 'src', 'a.ts'), 'x');
    expect(front('src/b.ts')).toBeNull();
    expect(front('docs/notes.md')).toMatch(/protected handoff file/);
    const file = path.join(repo.dir, '.git', 'handoff', 'guard-config.json');
    const cache = JSON.parse(readFileSync(file, 'utf8'));
    expect(JSON.stringify(cache.entries)).toMatch(/handoff\.protect/);
    // the cache rewritten without handoff.protect, newer than every config file: still protected
    writeFileSync(file, JSON.stringify({ ...cache, entries: cache.entries.filter(([k]: [string]) => k !== 'handoff.protect') }));
    expect(front('docs/notes.md')).toMatch(/protected handoff file/);
    // and from an included file, or the environment, all the same
    repo.git(['config', '--unset', 'handoff.protect']);
    writeFileSync(path.join(repo.home, 'extra.gitconfig'), '[handoff]\n\tprotect = docs/**\n');
    repo.git(['config', 'include.path', path.join(repo.home, 'extra.gitconfig')]);
    await writeTool(repo, path.join(repo.dir, 'src', 'a.ts'), 'x');
    expect(front('docs/notes.md')).toMatch(/protected handoff file/);
  });

  it('the guard refuses writing its own records by shell or by the Write tool', async () => {
    const repo = await withHandoff();
    for (const command of [
      ': > .git/handoff/audit.jsonl',
      'truncate -s 0 .git/handoff/audit.jsonl',
      'rm -f .git/handoff/ledger/*.jsonl',
      'echo {} > .git/handoff/guard-config.json',
      'cp /dev/null "$(git rev-parse --git-common-dir)/handoff/audit.jsonl"',
      'rm .git/hooks/reference-transaction',
      "printf 'ref: refs/handoffs/main/auth-refactor\\n' > .git/HEAD",
      "printf '[remote \"o\"]\\n\\tfetch = +refs/handoffs/*:refs/handoffs/*\\n' >> .git/config",
    ]) {
      expect(denial(await bash(repo, command)), command).toBeTruthy();
    }
    expect(denial(await writeTool(repo, path.join(repo.dir, '.git', 'handoff', 'guard-config.json'), '{}'))).toMatch(/records/);
  });

  it('logs rotate instead of growing without bound; the code cache keeps a bounded number of files', async () => {
    const repo = await withHandoff();
    const log = path.join(repo.dir, '.git', 'handoff', 'guard.log');
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(log, 'x'.repeat(1024 * 1024));
    await guard(repo, 'not json');
    expect(readFileSync(log, 'utf8')).toMatch(/^\S+ bad input: not JSON/);
    expect(existsSync(`${log}.1`)).toBe(true);
    // sixty caches of mistyped subcommands already there: one more command leaves at most 48
    const v8 = path.join(repo.home, '.cache', 'git-handoff', 'v8');
    mkdirSync(v8, { recursive: true, mode: 0o700 });
    await repo.cli(['list']);
    const real = readdirSync(v8).find((f) => f.endsWith('.bin'))!;
    expect(real).toBeTruthy();
    const stem = real.slice(0, real.lastIndexOf('-') + 1);
    for (let i = 0; i < 60; i++) writeFileSync(path.join(v8, `${stem}typo${String.fromCharCode(97 + (i % 26))}${i}x.bin`), 'x', { mode: 0o600 });
    await repo.cli(['wirte-typo']);
    expect(readdirSync(v8).filter((f) => f.endsWith('.bin')).length).toBeLessThanOrEqual(48);
  });
});
