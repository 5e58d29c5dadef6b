// src/guard/locate.ts and the guard's own records against an attacker, through the real `git-handoff guard` and the
// sh front: a forged guard-config.json cannot turn the guard off or narrow handoff.protect, its records cannot be
// written by a session, and its logs and code cache stay bounded.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/repo';
import { bash, denial, guard, payload, withHandoff, writeTool } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';

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
