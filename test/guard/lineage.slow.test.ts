// Lineage: a new session id in the same Claude Code process (after /clear or compaction) continues the earlier
// session and inherits its lease, handoffs and claims; a fork, an unrelated session and a resume do not.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf, type TestRepo } from '../helpers/repo';
import { denial, guard, payload, wroteFile } from './helpers';

const A = 'aaaa1111-first-session';
const B = 'bbbb2222-after-clear';
const C = 'cccc3333-after-clear-again';
const F = 'ffff4444-fork';
const U = 'uuuu5555-unrelated';
// Two live processes stand in for two client processes (their start times are read from /proc).
const PID = String(process.pid);
const OTHER_PID = String(process.ppid);
const REF = 'refs/handoffs/main/auth-refactor';

const start = (repo: TestRepo, session: string, source: string, pid = PID) =>
  guard(repo, payload(repo, 'claude-code/session-start.json', { source }, session), { CLAUDE_PID: pid });
const bash = (repo: TestRepo, session: string, command: string, pid = PID, over: Record<string, unknown> = {}) =>
  guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command }, ...over }, session), { CLAUDE_PID: pid });
const wrote = (repo: TestRepo, session: string, file: string, pid = PID, over: Record<string, unknown> = {}) => wroteFile(repo, file, session, { CLAUDE_PID: pid }, over);
const write = (repo: TestRepo, session: string, topic = 'auth-refactor', extra: string[] = []) =>
  repo.cli(['write', topic, '-m', `note by ${session}`, ...extra], { env: { GIT_HANDOFF_SESSION: session, GIT_HANDOFF_CLIENT: 'claude-code' } });
const leaseOf = (repo: TestRepo) => repo.git(['for-each-ref', '--format=%(contents)', 'refs/handoff-leases/']).stdout;
const log = async (repo: TestRepo, topic = 'auth-refactor') => JSON.parse(String((await repo.cli(['log', topic, '--json'])).stdout));
const ledger = (repo: TestRepo, session: string) => {
  try {
    return readFileSync(path.join(repo.dir, '.git', 'handoff', 'ledger', `${session}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  } catch {
    return [];
  }
};

/** Session A in process PID: started, wrote src/app.ts (ledger and lease), owns auth-refactor and cache-layer. */
async function firstSession(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  await start(repo, A, 'startup');
  await wrote(repo, A, 'src/app.ts');
  expect((await write(repo, A)).exitCode).toBe(0);
  expect((await write(repo, A, 'cache-layer')).exitCode).toBe(0);
  expect(leaseOf(repo)).toContain(`Claude-Session-Id: ${A}`);
  expect(leaseOf(repo)).toContain(`Handoff-Pid: ${PID}`);
  return repo;
}

describe('lineage', () => {
  it('a /clear successor inherits the lease, the handoffs (lineage takeovers) and the claims; its next write succeeds', async () => {
    const repo = await firstSession();
    const before = (await write(repo, B)).exitCode;
    expect(before).toBe(3);
    const s = await start(repo, B, 'clear');
    const ctx: string = s.answer.hookSpecificOutput.additionalContext;
    expect(ctx).toContain(`continuing session ${A.slice(0, 8)}`);
    expect(ctx).toContain('auth-refactor, cache-layer');
    // boot's view, given after the inheritance, shows the handoffs as this session's own.
    expect(ctx).toContain('2 of them yours');
    expect(ctx).toContain(`auth-refactor · owner ${B.slice(0, 8)} (you)`);
    expect(leaseOf(repo)).toContain(`Claude-Session-Id: ${B}`);
    expect(leaseOf(repo)).toContain(`Handoff-Lineage-From: ${A}`);
    const w = await write(repo, B);
    expect(w.exitCode).toBe(0);
    const versions = await log(repo);
    expect(versions.map((v: any) => v.session)).toEqual([B, B, A]);
    expect(versions[1]).toMatchObject({ takeoverFrom: A, reason: 'lineage (clear)' });
    expect((await log(repo, 'cache-layer'))[0]).toMatchObject({ session: B, takeoverFrom: A, reason: 'lineage (clear)' });
    expect(ledger(repo, B)).toMatchObject([{ session: B, paths: ['src/app.ts'] }]);
    expect(ledger(repo, A).at(-1)).toMatchObject({ released: true });
    // A second SessionStart for the same successor changes nothing more.
    await start(repo, B, 'clear');
    expect((await log(repo)).length).toBe(3);
  });

  it('without a SessionStart, the first tool call of a new id in the same process inherits; the chain grows', async () => {
    const repo = await firstSession();
    const r = await bash(repo, B, 'npm test');
    expect(r.answer.hookSpecificOutput.additionalContext).toContain(`continuing session ${A.slice(0, 8)}`);
    expect(r.answer.hookSpecificOutput.permissionDecision).toBeUndefined();
    expect((await log(repo))[0]).toMatchObject({ session: B, takeoverFrom: A, reason: 'lineage (tool)' });
    expect((await bash(repo, B, 'npm test')).stdout).toBe('');
    // Compaction, later: C continues B (not A, which B already continued).
    await start(repo, C, 'compact');
    expect((await log(repo))[0]).toMatchObject({ session: C, takeoverFrom: B, reason: 'lineage (compact)' });
    expect((await write(repo, C)).exitCode).toBe(0);
    const chain = JSON.parse(readFileSync(path.join(repo.dir, '.git', 'handoff', 'lineage', `${C}.json`), 'utf8'));
    expect(chain).toMatchObject({ session: C, from: B, source: 'compact', lease: true });
    // `git handoff sessions` shows the lineage.
    const rows = JSON.parse(String((await repo.cli(['sessions', '--json'])).stdout));
    expect(rows.find((r: any) => r.session === C)).toMatchObject({ lineage: [A, B, C], continues: B, continuedBy: null, lease: true, status: 'live', paths: ['src/app.ts'] });
    expect(rows.find((r: any) => r.session === A)).toMatchObject({ continuedBy: B, status: 'released' });
    const text = String((await repo.cli(['sessions'])).stdout);
    expect(text).toMatch(new RegExp(`${C.slice(0, 8)}\\s+\\S+\\s+live\\s+yes.*continues ${B.slice(0, 8)} \\(compact\\)`));
    expect(text).toMatch(new RegExp(`${B.slice(0, 8)}\\s+\\S+\\s+released.*continues ${A.slice(0, 8)} \\(tool\\); continued by ${C.slice(0, 8)}`));
  });

  it('a fork (SessionStart resume with a new id) and an unrelated session in another process inherit nothing', async () => {
    const repo = await firstSession();
    const tip = refOf(repo, REF);
    const f = await start(repo, F, 'resume');
    expect(f.answer.hookSpecificOutput.additionalContext).not.toContain('continuing session');
    // allowed, and not a continuation (the before-tool answer may carry the one "another live session" warning)
    const fb = await bash(repo, F, 'npm test');
    expect(denial(fb)).toBeNull();
    expect(fb.stdout).not.toContain('continuing session');
    expect((await write(repo, F)).exitCode).toBe(3);
    const u = await bash(repo, U, 'npm test', OTHER_PID);
    expect(denial(u)).toBeNull();
    expect(u.stdout).not.toContain('continuing session');
    await start(repo, U, 'clear', OTHER_PID);
    expect((await write(repo, U)).exitCode).toBe(3);
    expect(refOf(repo, REF)).toBe(tip);
    expect(leaseOf(repo)).toContain(`Claude-Session-Id: ${A}`);
  });

  it('resuming the same id in a new process changes only the pid', async () => {
    const repo = await firstSession();
    const tip = refOf(repo, REF);
    const r = await start(repo, A, 'resume', OTHER_PID);
    expect(r.answer.hookSpecificOutput.additionalContext).not.toContain('continuing session');
    expect(refOf(repo, REF)).toBe(tip);
    expect(leaseOf(repo)).toContain(`Claude-Session-Id: ${A}`);
    expect(leaseOf(repo)).toContain(`Handoff-Pid: ${OTHER_PID}`);
    expect((await log(repo)).length).toBe(1);
  });

  it('a subagent acts under its parent: its write lands in the parent\'s ledger, it neither inherits nor takes over', async () => {
    const repo = await firstSession();
    await wrote(repo, A, 'src/helper.ts', PID, { agent_id: 'agent-7' });
    expect(ledger(repo, A).at(-1)).toMatchObject({ session: A, agent: 'agent-7', paths: ['src/helper.ts'] });
    // A subagent payload under a new id starts no lineage.
    const sub = await bash(repo, B, 'npm test', PID, { agent_id: 'agent-9' });
    expect(denial(sub)).toBeNull();
    expect(sub.stdout).not.toContain('continuing session');
    expect((await log(repo)).length).toBe(1);
    const take = await bash(repo, A, `git handoff write other-topic --take-over --reason "mine now"`, PID, { agent_id: 'agent-7' });
    expect(denial(take)).toContain('subagent agent-7 acts under its parent session');
    const release = await bash(repo, A, 'git handoff release', PID, { agent_id: 'agent-7' });
    expect(denial(release)).toContain('neither take over a handoff nor release');
  });
});

describe('lineage and the git hooks', () => {
  it('the successor may commit the files its predecessor wrote; an unrelated session still may not', async () => {
    const repo = await firstSession();
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    repo.write('src/app.ts', 'export const a = 1;\n');
    repo.git(['add', 'src/app.ts']);
    const commitAs = (session: string) => repo.git(['commit', '-qm', 'app'], { allowFail: true, env: { GIT_HANDOFF_SESSION: session } });
    const refused = commitAs(U);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(A.slice(0, 8));
    await start(repo, B, 'clear');
    const ok = commitAs(B);
    expect(ok.status, ok.stderr).toBe(0);
    expect(repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)']).stdout.trim()).toBe(B);
  });
});
