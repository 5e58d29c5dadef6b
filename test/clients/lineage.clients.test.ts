// The real Claude Code CLI, offline, in a repository wired by `install --agent claude`: after `/clear` the new
// session id continues the old one (its next handoff write succeeds, the history shows the lineage takeover);
// `--resume` continues the same session id (each run's SessionEnd ends its lease); in a shared checkout `git add -A` is refused and the offered command works.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestRepo } from '../helpers/repo';
import { converse, sessionsOf } from './claude-script';
import { PATH_WITH_BIN, useClaude, wiredForClaude } from './deps';

const PATH = PATH_WITH_BIN;

useClaude();
const wired = () => wiredForClaude({ commit: true });

const log = async (repo: TestRepo, topic: string) => JSON.parse(String((await repo.cli(['log', topic, '--json'])).stdout));
const lease = (repo: TestRepo) => repo.git(['for-each-ref', '--format=%(contents)', 'refs/handoff-leases/']).stdout;

describe('Claude Code, offline: sessions as they really behave', () => {
  it('after /clear the new session id inherits the handoff; --resume keeps the id; each exit ends the lease', async () => {
    const repo = await wired();
    const run = await converse(repo, ['step one', '/clear', 'step two'], [
      { tool: 'Bash', input: { command: 'echo one > one.txt && git handoff write auth-refactor -m "before clear"' } },
      { tool: 'Bash', input: { command: 'git handoff write auth-refactor -m "after clear"' } },
    ], { env: { PATH } });
    const [first, second] = sessionsOf(run.stdout);
    expect(second, run.stderr).toBeTruthy();
    expect(run.results.map((r) => r.error)).toEqual([false, false]);
    const versions = await log(repo, 'auth-refactor');
    expect(versions.map((v: any) => v.session)).toEqual([second, second, first]);
    expect(versions[1]).toMatchObject({ takeoverFrom: first, reason: 'lineage (clear)' });
    // claude -p has exited: its SessionEnd ended the lease (issue 26), and sessions says how
    expect(lease(repo)).not.toContain(`Claude-Session-Id: ${second}`);
    const ended = async () => JSON.parse(String((await repo.cli(['sessions', '--json'])).stdout)).find((s: any) => s.session === second);
    expect(await ended()).toMatchObject({ status: 'ended' });

    const resumed = await converse(repo, ['step three'], [{ tool: 'Bash', input: { command: 'git handoff write auth-refactor -m "after resume"' } }], { args: ['--resume', second], env: { PATH } });
    expect(resumed.results.map((r) => r.error)).toEqual([false]);
    const after = await log(repo, 'auth-refactor');
    expect(after.map((v: any) => v.session)).toEqual([second, second, second, first]);
    expect(after.filter((v: any) => v.takeoverFrom)).toHaveLength(1);
    expect(await ended()).toMatchObject({ status: 'ended' });
  });

  it('in a checkout shared with another live session, `git add -A` is refused and the command it offers works', async () => {
    const repo = await wired();
    // Another session (say, a second terminal's agent) changed theirs.txt here and holds the lease.
    // Its guard records the write before the tool runs (Claude Code's wiring has no PostToolUse); the file then shows it ran.
    const other = { session_id: 'other-live-5a5a', hook_event_name: 'PreToolUse', cwd: repo.dir, tool_name: 'Write', tool_input: { file_path: path.join(repo.dir, 'theirs.txt'), content: 'theirs\n' } };
    expect((await repo.cli(['guard', '--client=claude-code'], { input: JSON.stringify(other) })).exitCode).toBe(0);
    repo.write('theirs.txt', 'theirs\n');
    const run = await converse(repo, ['step one', 'step two'], [
      { tool: 'Bash', input: { command: 'echo mine > mine.txt && git add -A' } },
      { tool: 'Bash', input: { command: 'git status --short' } },
    ], { env: { PATH } });
    expect(run.results.length, run.stdout.slice(-3000)).toBe(2);
    expect(run.results[0].error).toBe(true);
    expect(run.results[0].text).toContain('PreToolUse:Bash hook error');
    expect(run.results[0].text).toContain('session other-li');
    expect(run.results[0].text).toContain('theirs.txt');
    expect(repo.git(['diff', '--cached', '--name-only']).stdout).toBe('');
    // The refusal came before the command ran: mine.txt was never written, so nothing of ours is offered yet.
    expect(run.results[1].error).toBe(false);
    // Once this session has written a file, the refusal offers exactly its own paths; that command works.
    const again = await converse(repo, ['step three', 'step four'], [
      { tool: 'Write', input: { file_path: path.join(repo.dir, 'mine.txt'), content: 'mine\n' } },
      { tool: 'Bash', input: { command: 'git add .' } },
    ], { env: { PATH } });
    expect(again.results.map((r) => r.error)).toEqual([false, true]);
    const safe = /instead \(it touches only the paths you wrote\):\n {2}(.+)/.exec(again.results[1].text)?.[1];
    expect(safe).toBe('git add -- mine.txt');
    execFileSync('sh', ['-c', safe!], { cwd: repo.dir, env: repo.env });
    expect(repo.git(['diff', '--cached', '--name-only']).stdout.trim()).toBe('mine.txt');
  });
});
