// The real Claude Code CLI, offline against a scripted Messages API, in a repository wired by
// `git handoff install --agent claude`: it refuses a raw ref deletion and a foreign handoff write as the
// model sees them, and lets ordinary work (and `git handoff write`) through.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { eventGroups } from '../../src/install/agents';
import { WIRING } from '../../src/clients/records';
import { refOf, type TestRepo } from '../helpers/repo';
import { converse } from './claude-script';
import { CLAUDE_DIR, CLAUDE_OFFLINE, CLAUDE_VERSION, PATH_WITH_BIN, useClaude, wiredForClaude } from './deps';

const OTHER = 'other-session-77aa';

useClaude();
const wired = () => wiredForClaude();

/** One offline Claude Code turn that calls `tool` with `input`; returns the tool results it sent back. */
async function turn(repo: TestRepo, tool: string, input: unknown): Promise<{ results: Array<{ text: string; error: boolean }>; log: string }> {
  const log = path.join(repo.home, `requests-${Date.now()}.jsonl`);
  const r = await execa('bash', [path.join(CLAUDE_OFFLINE, 'run-claude.sh'), repo.dir, tool, JSON.stringify(input), log], {
    env: { ...repo.env, PATH: PATH_WITH_BIN, CLAUDE_CODE_DIR: CLAUDE_DIR, CLAUDE_CODE_VERSION: CLAUDE_VERSION },
    extendEnv: false,
    reject: false,
    timeout: 180_000,
  });
  const results = String(r.stdout)
    .split('\n')
    .filter((l) => l.startsWith('tool_result: '))
    .map((l) => {
      const m = /^tool_result: (.*?)( \(error\))?\s*$/.exec(l)!;
      let text: string;
      try {
        const v = JSON.parse(m[1]);
        text = typeof v === 'string' ? v : JSON.stringify(v);
      } catch {
        text = m[1];
      }
      return { text, error: !!m[2] };
    });
  return { results, log: existsSync(log) ? readFileSync(log, 'utf8') : '' };
}

/** Every text block of every message Claude Code sent to the API. */
function sentText(log: string): string {
  const texts: string[] = [];
  for (const line of log.split('\n').filter(Boolean)) {
    let body: any;
    try {
      body = JSON.parse(JSON.parse(line).body);
    } catch {
      continue;
    }
    for (const m of body.messages ?? []) for (const c of Array.isArray(m.content) ? m.content : []) if (typeof c.text === 'string') texts.push(c.text);
  }
  return texts.join('\n');
}

describe('Claude Code, offline', () => {
  it('refuses a raw handoff ref deletion; the ref stays', async () => {
    const repo = await wired();
    const w = await repo.cli(['write', 'auth-refactor', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } });
    expect(w.exitCode).toBe(0);
    const ref = 'refs/handoffs/main/auth-refactor';
    const before = refOf(repo, ref);
    const { results, log } = await turn(repo, 'Bash', { command: `git update-ref -d ${ref}` });
    expect(results).toHaveLength(1);
    expect(results[0].error).toBe(true);
    expect(results[0].text).toContain('PreToolUse:Bash hook error');
    expect(results[0].text).toContain('git handoff archive');
    expect(refOf(repo, ref)).toBe(before);
    // SessionStart put the boot view, wrapped, into the conversation.
    expect(sentText(log)).toMatch(/<untrusted-content source="git-handoff" ref="refs\/handoffs\/main\/auth-refactor">\n[^<]*their note\n<\/untrusted-content>/);
  });

  it('refuses a Write over another session\'s handoff file; the file is unchanged', async () => {
    const repo = await wired();
    const f = path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md');
    repo.write('memory/handoff-main-auth-refactor.md', `<!-- claude-session: ${OTHER} -->\n# theirs\n`);
    const { results } = await turn(repo, 'Write', { file_path: f, content: '# mine now\n' });
    expect(results[0].error).toBe(true);
    expect(results[0].text).toContain(`session ${OTHER.slice(0, 8)}`);
    expect(readFileSync(f, 'utf8')).toBe(`<!-- claude-session: ${OTHER} -->\n# theirs\n`);
  });

  it('lets a session write its own handoff file (the sh front hands each call to node, whose first look allows it); one without the marker is refused', async () => {
    const repo = await wired();
    const me = randomUUID();
    const rel = 'memory/handoff-main-auth-refactor.md';
    const f = path.join(repo.dir, rel);
    const mark = `<!-- claude-session: ${me} -->`;
    repo.write(rel, `${mark}\n# mine\n`);
    const trace = path.join(repo.home, 'trace.jsonl');
    const write = (content: string) => ({ tool: 'Write', input: { file_path: f, content } });
    // then edits of it (after a Read, as the Edit tool wants): one that keeps the marker, one that drops it
    const edit = (from: string, to: string) => ({ tool: 'Edit', input: { file_path: f, old_string: from, new_string: to } });
    const calls = [write(`${mark}\n# step one\n`), write(`${mark}\n# step two\n`), write(`${mark}\n# step three\n`), write('# no marker\n'), { tool: 'Read', input: { file_path: f } }, edit('# step three', '# step four'), edit(`${mark}\n`, '')];
    const run = await converse(repo, ['one', 'two', 'three', 'four', 'five', 'six', 'seven'], calls, {
      args: ['--session-id', me],
      env: { PATH: PATH_WITH_BIN, GIT_HANDOFF_TRACE: trace },
    });
    expect(run.results.map((r) => r.error)).toEqual([false, false, false, true, false, false, true]);
    expect(run.results[3].text).toContain(mark);
    expect(run.results[6].text).toContain('PreToolUse:Edit hook error');
    expect(readFileSync(f, 'utf8')).toBe(`${mark}\n# step four\n`);
    // node (traced) decides every call on a handoff file: its first look allows the own file's Writes and the Edit that
    // keeps the marker (or, where the session is not recorded yet, the full guard does)
    const lines = readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const looks = lines.filter((l) => l.phase === 'first look').map((l) => l.detail);
    expect(looks.length).toBeGreaterThanOrEqual(calls.filter((c) => c.tool !== 'Read').length);
    // the refused ones are the full guard's
    expect(looks.filter((d) => /pre-tool-write/.test(d))).toHaveLength(1);
    expect(looks.filter((d) => /pre-tool-edit/.test(d))).toHaveLength(1);
    // each allowed call's intent is in the ledger
    const ledger = readFileSync(path.join(repo.dir, '.git', 'handoff', 'ledger', `${me}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(ledger.filter((l) => l.intent && l.paths.includes(rel)).length).toBeGreaterThanOrEqual(3);
  });

  it('runs its PreToolUse as two groups: a Bash or Edit call\'s hook starts no `cat` (sh reads its payload), a Write\'s reads with one; all still refuse', async () => {
    const repo = await wired();
    // a `cat` ahead on PATH that notes each start from a hook of ours (its parent, the hook's sh, runs our wiring)
    const spy = path.join(repo.home, 'spy');
    const marks = path.join(repo.home, 'cat-starts');
    mkdirSync(spy);
    writeFileSync(path.join(spy, 'cat'), `#!/bin/sh\nc=$(/bin/cat /proc/$PPID/cmdline | /usr/bin/tr '\\000' ' ')\ncase $c in *git-handoff*) printf '%s\\n' "$c" >> '${marks}' ;; esac\nexec /bin/cat "$@"\n`);
    chmodSync(path.join(spy, 'cat'), 0o755);
    repo.write('memory/handoff-main-auth-refactor.md', `<!-- claude-session: ${OTHER} -->\ntheirs\n`);
    const calls = [
      { tool: 'Bash', input: { command: 'ls -la' } },
      { tool: 'Bash', input: { command: 'ls' } },
      { tool: 'Write', input: { file_path: path.join(repo.dir, 'src-note.txt'), content: 'x\n' } },
      { tool: 'Bash', input: { command: 'git update-ref -d refs/handoffs/main/auth-refactor' } },
      { tool: 'Write', input: { file_path: path.join(repo.dir, 'memory/handoff-main-auth-refactor.md'), content: 'mine\n' } },
      { tool: 'Edit', input: { file_path: path.join(repo.dir, 'memory/handoff-main-auth-refactor.md'), old_string: 'theirs', new_string: 'mine' } },
    ];
    const run = await converse(repo, ['one', 'two', 'three', 'four', 'five', 'six'], calls, { env: { PATH: `${spy}:${PATH_WITH_BIN}` } });
    expect(run.results.map((r) => r.error)).toEqual([false, false, false, true, true, true]);
    // the Edit refused by our hook (not by the tool), as the Write before it
    expect(run.results[5].text).toContain('PreToolUse:Edit hook error');
    expect(run.results[5].text).toContain(`session ${OTHER.slice(0, 8)}`);
    expect(readFileSync(path.join(repo.dir, 'memory/handoff-main-auth-refactor.md'), 'utf8')).toContain(OTHER);
    const starts = existsSync(marks) ? readFileSync(marks, 'utf8').split('\n').filter(Boolean) : [];
    // the two Writes' hooks read with cat, in the file tools' group; no Bash or Edit hook did (the session's other
    // events, once a session or a turn, are one group each, read with cat)
    expect(starts.filter((c) => c.includes('--sourced-rest'))).toHaveLength(2);
    expect(starts.filter((c) => c.includes('--sourced-line'))).toEqual([]);
    expect(starts.filter((c) => !/--sourced(-rest)? /.test(c))).toEqual([]);
  });

  it('lets ordinary work through and records it; `git handoff write` from its shell is owned by its session', async () => {
    const repo = await wired();
    const { results } = await turn(repo, 'Bash', { command: 'echo hello > notes.txt && git handoff write cache-layer -m "state: notes written"' });
    expect(results[0].error).toBe(false);
    expect(readFileSync(path.join(repo.dir, 'notes.txt'), 'utf8')).toBe('hello\n');
    const owner = repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', 'refs/handoffs/main/cache-layer']).stdout.trim();
    expect(owner).toMatch(/^[0-9a-f-]{36}$/);
    const ledger = readFileSync(path.join(repo.dir, '.git', 'handoff', 'ledger', `${owner}.jsonl`), 'utf8');
    expect(ledger).toContain('notes.txt');
  });

  it('honours the guard\'s updatedInput: a git handoff command gets the session when the hook cannot see the shell has it', async () => {
    const repo = await wired();
    // Hide the client's own session variable from the hook, as an older Claude Code would.
    const file = path.join(repo.dir, '.claude', 'settings.json');
    const wiring = readFileSync(file, 'utf8');
    // the Bash group's command (PreToolUse is two groups: eventGroups)
    const hook = JSON.stringify(eventGroups(WIRING.claude, 'PreToolUse', WIRING.claude.events.PreToolUse, 'git-handoff-guard --client=claude-code')[0].command);
    expect(wiring).toContain(hook);
    writeFileSync(file, wiring.split(hook).join('"env -u CLAUDE_CODE_SESSION_ID git-handoff-guard --client=claude-code"'));
    const { results } = await turn(repo, 'Bash', { command: 'git handoff write cache-layer -m "state" && echo "injected=$GIT_HANDOFF_SESSION"' });
    expect(results[0].error).toBe(false);
    const owner = repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', 'refs/handoffs/main/cache-layer']).stdout.trim();
    expect(owner).toMatch(/^[0-9a-f-]{36}$/);
    expect(results[0].text).toContain(`injected=${owner}`);
  });
});
