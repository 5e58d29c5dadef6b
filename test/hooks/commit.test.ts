// The commit hooks under real `git commit`: the session trailer, one session per message, and staged
// paths of another live session refused; a person is never refused for ownership.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { A, B, gitAs, head, hookedRepo, lease, ledgerWrite, messageOf, blockedByA, script, stagedTakeBack } from './helpers';

const HOUR = 3_600_000;

describe('prepare-commit-msg and commit-msg', () => {
  it("adds the session's trailer to an agent's commit and none to a person's", async () => {
    const repo = await hookedRepo();
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'agent work', '-m', 'body line']).status).toBe(0);
    expect(messageOf(repo)).toBe(`agent work\n\nbody line\n\nClaude-Session-Id: ${A}\nHandoff-Client: cli\n\n`);
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'person work']).status).toBe(0);
    expect(messageOf(repo)).toBe('person work\n\n');
    // the client's own variable is enough
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'claude'], { CLAUDE_CODE_SESSION_ID: B }).status).toBe(0);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${B}`);
  });

  it('adds the trailer once, keeps an existing one, and does not turn an empty (aborted) message into a commit', async () => {
    const repo = await hookedRepo();
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', `own\n\nClaude-Session-Id: ${A}`]).status).toBe(0);
    expect(messageOf(repo).match(/Claude-Session-Id/g)).toHaveLength(1);
    const before = head(repo);
    const r = gitAs(repo, A, ['commit', '--allow-empty', '-F', '-'], {});
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/empty commit message/);
    expect(head(repo)).toBe(before);
  });

  it('puts the trailer above the diff of `commit -v` and on merge commits', async () => {
    const repo = await hookedRepo();
    repo.write('v.txt', 'Claude-Session-Id: in the diff\n');
    repo.git(['add', 'v.txt']);
    const editor = `sed -i '1s/^/edited in the editor/'`;
    expect(gitAs(repo, A, ['commit', '-q', '-v'], { GIT_EDITOR: editor }).status).toBe(0);
    expect(messageOf(repo)).toBe(`edited in the editor\n\nClaude-Session-Id: ${A}\nHandoff-Client: cli\n\n`);
    repo.git(['checkout', '-q', '-b', 'side', 'HEAD~1']);
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'side work']).status).toBe(0);
    expect(gitAs(repo, A, ['merge', '-q', '--no-ff', '--no-edit', 'main']).status).toBe(0);
    expect(messageOf(repo)).toBe(`Merge branch 'main' into side\n\nClaude-Session-Id: ${A}\nHandoff-Client: cli\n\n`);
  });

  it('refuses two sessions in one message, for a person too, and leaves HEAD unchanged', async () => {
    const repo = await hookedRepo();
    const before = head(repo);
    const msg = `mixed\n\nClaude-Session-Id: ${A}\nClaude-Session-Id: ${B}`;
    for (const who of [A, null]) {
      const r = gitAs(repo, who, ['commit', '--allow-empty', '-m', msg]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('carries the ids of two sessions');
      expect(r.stderr).toContain('aaaaaaaa, bbbbbbbb');
      expect(r.stderr).toMatch(/To fix:\n  1\. /);
      expect(head(repo)).toBe(before);
    }
    // the same id twice is one session
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', `twice\n\nClaude-Session-Id: ${A}\nClaude-Session-Id: ${A}`]).status).toBe(0);
  });

  it("refuses a message claiming another session: amending another session's commit without -m", async () => {
    const repo = await hookedRepo();
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'by A']).status).toBe(0);
    const before = head(repo);
    const r = gitAs(repo, B, ['commit', '--amend', '--no-edit', '--allow-empty']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('claims session aaaaaaaa, but session bbbbbbbb is committing');
    expect(head(repo)).toBe(before);
    // a person may amend it (never refused for ownership), and so may its own session
    expect(gitAs(repo, A, ['commit', '-q', '--amend', '--no-edit', '--allow-empty']).status).toBe(0);
    expect(gitAs(repo, null, ['commit', '-q', '--amend', '--no-edit', '--allow-empty']).status).toBe(0);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}`);
  });
});

describe('the session trailer, whatever the subject', () => {
  const trailer = `\n\nClaude-Session-Id: ${A}\nHandoff-Client: cli\n\n`;
  it('a subject git keeps that looks like a comment (-m, -F, commentChar auto or `;`) and an edited message: one trailer each, and another session cannot reset the commit away', async () => {
    const repo = await hookedRepo();
    const editor = script(path.join(repo.dir, '..', 'editor.sh'), `#!/bin/sh\nprintf 'edited subject\\n# a comment line\\n' > "$1.new"\ncat "$1" >> "$1.new"\nmv "$1.new" "$1"\n`);
    writeFileSync(path.join(repo.dir, '..', 'msg.txt'), 'from a file\n\n# see issue 42\n');
    const cases: Array<[string[], string, string]> = [
      [['commit', '-q', '--allow-empty', '-m', '#42 fix the crash'], '', '#42 fix the crash'],
      [['-c', 'core.commentChar=auto', 'commit', '-q', '--allow-empty', '-m', ':sparkles: add the feature'], '', ':sparkles: add the feature'],
      [['-c', 'core.commentChar=;', 'commit', '-q', '--allow-empty', '-m', '; semicolon subject'], '', '; semicolon subject'],
      [['commit', '-q', '--allow-empty', '-F', path.join(repo.dir, '..', 'msg.txt')], '', 'from a file\n\n# see issue 42'],
      [['commit', '-q', '--allow-empty'], editor, 'edited subject'],
      [['-c', 'core.commentChar=auto', 'commit', '-q', '--allow-empty'], editor.replace(/$/, ''), 'edited subject'],
    ];
    for (const [args, ed, kept] of cases) {
      const r = gitAs(repo, A, args, ed ? { GIT_EDITOR: ed } : {});
      expect(r.status, r.stderr).toBe(0);
      expect(messageOf(repo)).toBe(`${kept}${trailer}`);
      const tip = head(repo);
      const refused = gitAs(repo, B, ['reset', '-q', '--hard', 'HEAD~1']);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain(`commit ${tip.slice(0, 12)} by session aaaaaaaa`);
      expect(head(repo)).toBe(tip);
    }
  });
});

describe('the session trailer follows commit.cleanup', () => {
  it('with commit.cleanup=strip a -m of comment lines only is empty to git: no trailer makes it a commit; with verbatim it is kept and trailered', async () => {
    const repo = await hookedRepo();
    const before = head(repo);
    for (const config of [['-c', 'commit.cleanup=strip'], []]) {
      if (!config.length) repo.git(['config', 'commit.cleanup', 'strip']);
      const r = gitAs(repo, A, [...config, 'commit', '--allow-empty', '-m', '#42 only a comment']);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/empty commit message/);
      expect(head(repo)).toBe(before);
    }
    // an editor that leaves the message as git wrote it (GIT_EDITOR=:, as a CI sets it): comments only, aborted
    repo.git(['config', '--unset', 'commit.cleanup']);
    const r = gitAs(repo, A, ['commit', '--allow-empty'], { GIT_EDITOR: ':' });
    expect(r.stderr).toMatch(/empty commit message/);
    expect(head(repo)).toBe(before);
    repo.git(['config', 'commit.cleanup', 'verbatim']);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', '#42 kept verbatim']).status).toBe(0);
    expect(messageOf(repo)).toBe(`#42 kept verbatim\n\nClaude-Session-Id: ${A}\nHandoff-Client: cli\n\n`);
  });

  it("git commit's own --cleanup (or its abbreviation) wins over commit.cleanup, as git reads it", async () => {
    const repo = await hookedRepo();
    const before = head(repo);
    for (const cleanup of [['--cleanup=strip'], ['--cleanup', 'strip'], ['--clean=strip']]) {
      const r = gitAs(repo, A, ['commit', '--allow-empty', ...cleanup, '-m', '#42 only a comment']);
      expect(r.stderr).toMatch(/empty commit message/);
      expect(head(repo)).toBe(before);
    }
    repo.git(['config', 'commit.cleanup', 'strip']);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '--cleanup=verbatim', '-m', '#42 kept verbatim']).status).toBe(0);
    expect(messageOf(repo)).toBe(`#42 kept verbatim\n\nClaude-Session-Id: ${A}\nHandoff-Client: cli\n\n`);
  });
});

describe("a session's commit: staged paths of another live session", () => {
  it("two sessions in one worktree: the second cannot commit the first one's files; the printed fix works", async () => {
    const repo = await hookedRepo();
    repo.write('src/a.ts', 'by A\n');
    repo.write("src/it's mine.ts", 'by A\n');
    repo.write('src/b.ts', 'by B\n');
    ledgerWrite(repo, A, ['src/a.ts', "src/it's mine.ts"]);
    lease(repo, A);
    ledgerWrite(repo, B, ['src/b.ts']);
    repo.git(['add', '-A']);
    const before = head(repo);
    const r = gitAs(repo, B, ['commit', '-m', 'B takes everything']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('2 staged paths were last written by another live session');
    expect(r.stderr).toMatch(/session aaaaaaaa \(live, last seen [^)]+\): src\/a\.ts, src\/it's mine\.ts$/m);
    expect(r.stderr).toContain(`git handoff release --session ${A}`);
    expect(r.stderr).not.toContain('GIT_HANDOFF_BYPASS');
    expect(head(repo)).toBe(before);
    // step 1, pasted into a shell as printed
    const step = /1\. leave their files out and commit only yours: (git restore .*)$/m.exec(r.stderr)![1];
    const { spawnSync } = await import('node:child_process');
    expect(spawnSync('sh', ['-c', step], { cwd: repo.dir, env: repo.env }).status).toBe(0);
    expect(gitAs(repo, B, ['commit', '-q', '-m', 'B commits its own']).status).toBe(0);
    expect(repo.git(['show', '--name-only', '--format=', 'HEAD']).stdout.trim()).toBe('src/b.ts');
    // and A may commit its own files
    repo.git(['add', '-A']);
    expect(gitAs(repo, A, ['commit', '-q', '-m', 'A commits its own']).status).toBe(0);
  });

  it('sequential sessions: once the first one\'s lease and activity are older than handoff.leaseTTL, the next may commit', async () => {
    const repo = await hookedRepo();
    repo.write('notes.md', 'first\n');
    ledgerWrite(repo, A, ['notes.md'], 2 * HOUR);
    lease(repo, A, 2 * HOUR);
    repo.git(['add', '-A']);
    expect(gitAs(repo, B, ['commit', '-q', '-m', 'B after A']).status).toBe(0);
    // with a longer TTL the same session counts as live again
    repo.write('notes.md', 'second\n');
    ledgerWrite(repo, A, ['notes.md'], 2 * HOUR);
    repo.git(['add', '-A']);
    repo.git(['config', 'handoff.leaseTTL', '3h']);
    expect(gitAs(repo, B, ['commit', '-q', '-m', 'B again']).status).toBe(1);
  });

  it('matches the worktree however the guard spelled its path (through a symlink)', async () => {
    const repo = await hookedRepo();
    const link = path.join(repo.home, 'link-to-repo');
    symlinkSync(repo.dir, link);
    repo.write('lib.ts', 'A\n');
    ledgerWrite(repo, A, ['lib.ts'], 0, link);
    repo.git(['add', '-A']);
    const r = gitAs(repo, B, ['commit', '-m', 'B']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/session aaaaaaaa \(live, [^)]+\): lib\.ts$/m);
    expect((await repo.cli(['release', '--session', A])).exitCode).toBe(0);
    expect(gitAs(repo, B, ['commit', '-q', '-m', 'B after release']).status).toBe(0);
  });

  it('a released session no longer blocks anyone', async () => {
    const repo = await blockedByA();
    const rel = await repo.cli(['release', '--session', A]);
    expect(rel.exitCode, String(rel.stderr)).toBe(0);
    expect(String(rel.stdout)).toContain('lease removed; its claims on 1 path dropped');
    expect(gitAs(repo, B, ['commit', '-q', '-m', 'after release']).status).toBe(0);
  });

  it('a person is never refused for ownership; a bypass lets a session through and is audited', async () => {
    const repo = await hookedRepo();
    repo.write('a.txt', 'A\n');
    ledgerWrite(repo, A, ['a.txt']);
    lease(repo, A);
    repo.git(['add', '-A']);
    expect(gitAs(repo, null, ['commit', '-q', '-m', 'person commits A\'s file']).status).toBe(0);
    repo.write('a.txt', 'A again\n');
    ledgerWrite(repo, A, ['a.txt']);
    repo.git(['add', '-A']);
    const r = gitAs(repo, B, ['commit', '-q', '-m', 'bypassed'], { GIT_HANDOFF_BYPASS: '1' });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('bypassed with GIT_HANDOFF_BYPASS=1');
    const audit = readFileSync(path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ source: 'githook', hook: 'prepare-commit-msg', session: B });
    expect(audit[0].found[0]).toContain('a.txt');
  });
});

describe('sessions', () => {
  it('lists live and stale sessions per worktree with the paths each wrote', async () => {
    const repo = await hookedRepo();
    ledgerWrite(repo, A, ['src/x.ts', 'src/y.ts']);
    lease(repo, A);
    ledgerWrite(repo, B, ['docs/z.md'], 2 * HOUR);
    const r = await repo.cli(['sessions', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const rows = JSON.parse(String(r.stdout));
    const wt = repo.git(['rev-parse', '--show-toplevel']).stdout.trim();
    expect(rows).toEqual([
      expect.objectContaining({ worktree: wt, session: A, status: 'live', lease: true, paths: ['src/x.ts', 'src/y.ts'] }),
      expect.objectContaining({ worktree: wt, session: B, status: 'stale', lease: false, paths: ['docs/z.md'] }),
    ]);
    const text = await repo.cli(['sessions']);
    expect(String(text.stdout)).toMatch(/aaaaaaaa\s+\S+\s+live\s+yes\s+just now\s+2: src\/x\.ts, src\/y\.ts/);
    const rel = await repo.cli(['release', '--json'], { env: { GIT_HANDOFF_SESSION: B } });
    expect(JSON.parse(String(rel.stdout))).toMatchObject({ session: B, lease: false, paths: ['docs/z.md'] });
    const after = JSON.parse(String((await repo.cli(['sessions', '--json'])).stdout));
    expect(after.find((s: any) => s.session === B)).toMatchObject({ status: 'released', paths: [] });
    expect((await repo.cli(['release'])).exitCode).toBe(5);
  });
});

describe('with the agent guard', () => {
  it("a file written through Claude Code's Write tool (the guard's ledger and lease) cannot be committed by another session", async () => {
    const repo = await hookedRepo();
    const wt = repo.git(['rev-parse', '--show-toplevel']).stdout.trim();
    // the before-tool hook records the call (it counts once the file shows the call ran), then the tool writes
    const payload = {
      session_id: A,
      cwd: wt,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: path.join(wt, 'src/app.ts'), content: 'export const x = 1;\n' },
    };
    const g = await repo.cli(['guard'], { input: JSON.stringify(payload) });
    expect(g.exitCode, String(g.stderr)).toBe(0);
    repo.write('src/app.ts', 'export const x = 1;\n');
    repo.git(['add', '-A']);
    const r = gitAs(repo, B, ['commit', '-m', 'B commits A\'s file']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/session aaaaaaaa \(live, [^)]+\): src\/app\.ts$/m);
    expect(gitAs(repo, A, ['commit', '-q', '-m', 'A commits its own file']).status).toBe(0);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}`);
  });
});

// Issue 13 (item 10): an invalid session id is an error, never a person; plumbing is held where a hook sees it.
describe('invalid session ids and plumbing', () => {
  it('refuses a commit whose session id is invalid, in every variable a session comes from, and makes no commit', async () => {
    const repo = await hookedRepo();
    const before = head(repo);
    for (const env of <Record<string, string>[]>[{ GIT_HANDOFF_SESSION: 'not valid' }, { GIT_HANDOFF_SESSION: 'x\n\nClaude-Session-Id: forged' }, { CLAUDE_CODE_SESSION_ID: 'a;b' }, { GEMINI_SESSION_ID: 'é' }]) {
      const r = gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'work'], env);
      expect(r.status, JSON.stringify(env)).not.toBe(0);
      expect(r.stderr).toMatch(/invalid one is refused rather than taken for a person/);
      expect(head(repo)).toBe(before);
    }
    // unset, it is a person's commit again
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'person']).status).toBe(0);
  });

  it("plumbing: commit-tree + update-ref refs/heads/… dropping another session's commit is refused for a session (reference-transaction)", async () => {
    const repo = await hookedRepo();
    const base = head(repo);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A work']).status).toBe(0);
    const tip = head(repo);
    const tree = repo.git(['rev-parse', 'HEAD^{tree}']).stdout.trim();
    const replacement = repo.git(['commit-tree', tree, '-p', base, '-m', 'B replaces A']).stdout.trim();
    for (const args of [['update-ref', 'refs/heads/main', replacement], ['update-ref', 'refs/heads/main', replacement, tip]]) {
      const r = gitAs(repo, B, args);
      expect(r.status).not.toBe(0);
      expect(head(repo)).toBe(tip);
    }
    // by an invalid id: an error as well
    expect(gitAs(repo, null, ['update-ref', 'refs/heads/main', replacement], { GIT_HANDOFF_SESSION: 'bad id' }).status).not.toBe(0);
    expect(head(repo)).toBe(tip);
    // a person (no session) is not held to it: SECURITY.md says so
    expect(gitAs(repo, null, ['update-ref', 'refs/heads/main', replacement]).status).toBe(0);
  });
});

// Issue 52: what the stub once decided on its own reading is the handler's, and the handler holds every rule.
describe("a session's commit is decided by node, whatever the stub reads", () => {
  it("a message claiming another session past a line that holds `-- >8 --` (not git's scissors) is refused", async () => {
    const repo = await hookedRepo();
    const before = head(repo);
    // git reads the last paragraph's trailer, B's; the stub once stopped reading at that line, after A's own
    const r = gitAs(repo, A, ['commit', '--allow-empty', '-m', `work\n\nClaude-Session-Id: ${A}\n\n-- >8 --\n\nClaude-Session-Id: ${B}`]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('claims session bbbbbbbb, but session aaaaaaaa is committing');
    expect(head(repo)).toBe(before);
  });

  it("staged content that takes back a live session's commit, the session known by its lease alone, is refused; with --no-verify too", async () => {
    const repo = await hookedRepo();
    const before = stagedTakeBack(repo);
    expect(messageOf(repo)).toContain('Handoff-Client: cli');
    // A holds the worktree's lease and has written no ledger entry here
    lease(repo, A);
    for (const extra of [[], ['--no-verify']]) {
      const r = gitAs(repo, B, ['commit', ...extra, '-m', 'B takes it back']);
      expect(r.status, extra.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/take back a commit of another session/);
      expect(r.stderr).toMatch(/by session aaaaaaaa \(cli\)/);
      expect(head(repo)).toBe(before);
    }
    // an explicit revert says so in the history: it passes
    repo.git(['reset', '-q', '--hard']);
    expect(gitAs(repo, B, ['revert', '--no-edit', 'HEAD']).status).toBe(0);
  });

  it("an agent's commit with its own lease and ledger here: one node process, one bundle, no git started from it", async () => {
    const repo = await hookedRepo();
    lease(repo, A);
    ledgerWrite(repo, A, ['a.txt']);
    repo.write('a.txt', 'A\n');
    repo.git(['add', '-A']);
    const trace = path.join(repo.dir, '.git', 'trace.jsonl');
    expect(gitAs(repo, A, ['commit', '-q', '-m', 'mine'], { GIT_HANDOFF_TRACE: trace }).status).toBe(0);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}\nHandoff-Client: cli\n`);
    const lines = readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(new Set(lines.map((l) => l.pid)).size).toBe(1);
    expect(lines.filter((l) => l.phase === 'load').map((l) => l.detail)).toEqual(['fast.cjs']);
    expect(lines.filter((l) => l.phase === 'git')).toEqual([]);
  });
});
