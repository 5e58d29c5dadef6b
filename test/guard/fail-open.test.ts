// Never brick a session: bad input and internal trouble allow, exit 0 and leave a line in guard.log;
// GIT_HANDOFF_BYPASS=1 allows and is audited; `git config handoff.guard off` turns the guard off.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/repo';
import { denial, guard, ME, OTHER, payload, readLog } from './helpers';

describe('fail open', () => {
  it('allows and logs every malformed input', async () => {
    const repo = makeRepo({ commit: true });
    const cases: Array<[unknown, RegExp]> = [
      ['not json at all', /not JSON/],
      ['', /not JSON/],
      ['[1,2,3]', /an array/],
      ['"a string"', /string/],
      ['null', /object/],
      ['{"hook_event_name":', /not JSON/],
    ];
    for (const [input, line] of cases) {
      const r = await guard(repo, input as string);
      expect(r).toMatchObject({ exitCode: 0, stdout: '' });
      expect(readLog(repo)).toMatch(line);
    }
    const huge = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: repo.dir, tool_input: { file_path: 'x', content: 'x'.repeat(5 * 1024 * 1024) } });
    const started = Date.now();
    expect(await guard(repo, huge)).toMatchObject({ exitCode: 0, stdout: '' });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(readLog(repo)).toMatch(/larger than/);
  });

  it('allows payloads with wrong types, without throwing', async () => {
    const repo = makeRepo({ commit: true });
    for (const over of [
      { tool_input: 'rm -rf /' },
      { tool_input: { command: 42 } },
      { tool_input: { command: ['git', 'update-ref'] } },
      { session_id: 12345 },
      { session_id: 'bad id with spaces; rm -rf' },
      { hook_event_name: 7 },
      { cwd: 99 },
      { tool_name: ['Bash'] },
    ]) {
      const before = readLog(repo).length;
      const r = await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', over));
      expect(r.exitCode).toBe(0);
      expect(denial(r)).toBeNull();
      expect(readLog(repo).slice(before), JSON.stringify(over)).toMatch(/bad input: /);
    }
  });

  it('allows outside any repository and logs to the user cache directory on bad input there', async () => {
    const repo = makeRepo();
    const dir = tempDir();
    const r = await repo.cli(['guard'], { input: 'garbage', cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('');
    expect(readFileSync(path.join(repo.home, '.cache', 'git-handoff', 'guard.log'), 'utf8')).toMatch(/not JSON/);
    const p = { ...payload(repo, 'claude-code/pre-tool-use-bash.json'), cwd: dir, tool_input: { command: 'git reset --hard HEAD~3' } };
    expect(await guard(repo, p)).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('when git itself fails under a rule: a call naming what the guard protects is denied, any other allowed; both logged', async () => {
    const repo = makeRepo({ commit: true });
    repo.commit(`theirs\n\nClaude-Session-Id: ${OTHER}`, { 'x.txt': 'x' });
    const bin = tempDir();
    writeFileSync(path.join(bin, 'git'), '#!/bin/sh\necho "fatal: broken git" >&2\nexit 128\n', { mode: 0o755 });
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const r = await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git reset --hard HEAD~1' } }), env);
    expect(r.exitCode).toBe(0);
    // the repository is found without git; the rule's first git step fails (exit 128, or EPIPE on the input it is given)
    expect(denial(r)).toMatch(/could not check this call \(it failed: (could not run git|git \S+ failed: fatal: broken git).*names what the guard protects/s);
    expect(readLog(repo)).toMatch(/internal error: .*(could not run git|broken git).*denied/);
    // reading handoff.protect needs git: a Write of an ordinary file cannot be checked, and names nothing protected
    const w = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, 'src', 'app.ts'), content: 'x' } }), env);
    expect(w).toMatchObject({ exitCode: 0, stdout: '' });
    expect(readLog(repo)).toMatch(/internal error: .*git.*; allowed/);
  });
});

describe('bypass and off switch', () => {
  it('GIT_HANDOFF_BYPASS=1 allows what would be denied, and audits it', async () => {
    const repo = makeRepo({ commit: true });
    const p = payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git update-ref -d refs/handoffs/main/auth-refactor' } });
    expect(denial(await guard(repo, p))).toBeTruthy();
    expect(await guard(repo, p, { GIT_HANDOFF_BYPASS: '1' })).toMatchObject({ exitCode: 0, stdout: '' });
    const audit = readFileSync(path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ by: 'guard', bypass: true, session: ME, would: 'deny', action: 'git update-ref -d refs/handoffs/main/auth-refactor' });
    expect(audit[0].t).toMatch(/^\d{4}-/);
  });

  it('handoff.guard off turns the guard into a no-op for that repository', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['config', 'handoff.guard', 'off']);
    const p = payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git update-ref -d refs/handoffs/main/auth-refactor' } });
    // Allowed; the session is told once that nothing is checked.
    const first = await guard(repo, p);
    expect(denial(first)).toBeNull();
    expect(first.answer.hookSpecificOutput.additionalContext).toContain('guard is off');
    expect(await guard(repo, p)).toMatchObject({ exitCode: 0, stdout: '' });
    const s = await guard(repo, payload(repo, 'claude-code/session-start.json'));
    expect(s.answer.hookSpecificOutput.additionalContext).toContain('guard is off');
    repo.git(['config', 'handoff.guard', 'on']);
    expect(denial(await guard(repo, p))).toBeTruthy();
    expect(existsSync(path.join(repo.dir, '.git', 'handoff', 'guard-config.json'))).toBe(true);
  });
});
