// A session that ended is never described as working beside another (issue 73): a newcomer after its end hears of
// nobody, a holder whose newcomer ended before its next call hears nothing of it, and a live one is still told once.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, type TestRepo } from '../helpers/repo';
import { guard, ME, OTHER, payload } from './helpers';

const start = (repo: TestRepo, s: string) => guard(repo, payload(repo, 'claude-code/session-start.json', {}, s));
const end = (repo: TestRepo, s: string) => guard(repo, payload(repo, 'claude-code/real-session-end.json', {}, s));
const write = (repo: TestRepo, s: string) => guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', {}, s));
/** What the model is shown of a call's answer. */
const told = (r: { stdout: string }) => r.stdout;
const BESIDE = /beside you|another live session/;

describe('a session told of another in its worktree', () => {
  it('an ended session is not working beside the next one', async () => {
    const repo = makeRepo({ commit: true });
    expect((await start(repo, ME)).exitCode).toBe(0);
    await write(repo, ME);
    expect((await end(repo, ME)).exitCode).toBe(0);
    for (const r of [await start(repo, OTHER), await write(repo, OTHER), await write(repo, OTHER)]) expect(told(r)).not.toMatch(BESIDE);
  });

  it('a newcomer that ended before the holder heard of it (SessionEnd) is not told to the holder', async () => {
    const repo = makeRepo({ commit: true });
    await start(repo, ME);
    await write(repo, ME);
    const joined = await start(repo, OTHER);
    expect(told(joined)).toContain(`another live session, ${ME.slice(0, 8)}`);
    await end(repo, OTHER);
    expect(told(await write(repo, ME))).not.toMatch(BESIDE);
  });

  it('a newcomer whose client process exited (no end event) is not told to the holder', async () => {
    const repo = makeRepo({ commit: true });
    await start(repo, ME);
    await write(repo, ME);
    // its client: a shell that runs the guard as Claude Code does (CLAUDE_PID, an ancestor of the guard), then exits
    const asClient = (fixture: string) =>
      execa('sh', ['-c', 'CLAUDE_PID=$$ "$0" guard; :', BIN], { cwd: repo.dir, env: repo.env, extendEnv: false, input: JSON.stringify(payload(repo, fixture, {}, OTHER)) });
    expect((await asClient('claude-code/session-start.json')).stdout).toContain(`another live session, ${ME.slice(0, 8)}`);
    await asClient('claude-code/pre-tool-use-write.json');
    expect(told(await write(repo, ME))).not.toMatch(BESIDE);
  });

  it('a live newcomer is told to the holder once, and the holder to it once', async () => {
    const repo = makeRepo({ commit: true });
    await start(repo, ME);
    await write(repo, ME);
    const joined = await start(repo, OTHER);
    expect(told(joined)).toContain(`another live session, ${ME.slice(0, 8)}`);
    expect(told(await write(repo, OTHER))).not.toMatch(BESIDE);
    expect(told(await write(repo, ME))).toContain(`another session, ${OTHER.slice(0, 8)}`);
    expect(told(await write(repo, ME))).not.toMatch(BESIDE);
  });
});
