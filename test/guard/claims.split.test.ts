// Claims hold where it matters (SPEC 10): a write by a file tool or the shell to a path another live session claims
// is refused with who, why, until when and the ways on (told to the model instead with handoff.claims=tell), through
// the sh front too, and the holder hears of it; the session start view lists the branch's live claims; pre-commit
// refuses a commit of staged claimed paths naming the claimant. No claims, no state file: the front and the fast path
// answer as before.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { quickIt, slowIt, quickDescribe } from '../helpers/sets';
import { makeRepo, ROOT, type TestRepo } from '../helpers/repo';
import { denial, guard, ME, OTHER, payload } from './helpers';

const FRONT = path.join(ROOT, 'bin', 'git-handoff-guard');

async function claim(repo: TestRepo, args: string[]) {
  const r = await repo.cli(['claim', ...args]);
  if (r.exitCode !== 0) throw new Error(`claim failed: ${r.stderr}`);
}

const writeCall = (repo: TestRepo, rel: string, session: string) =>
  payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, rel), content: 'x\n' } }, session);

const contextOf = (a: any): string => a?.hookSpecificOutput?.additionalContext ?? '';

describe('the guard holds a write to a claimed path', () => {
  quickIt('file tool and shell: refused by default with who, why, until when and the ways on; tell makes it advisory; the holder itself and other paths pass silently', async () => {
    const repo = makeRepo({ commit: true });
    await claim(repo, ['src/auth/', '--session', OTHER, '--note', 'moving login to OAuth']);
    const marker = path.join(repo.dir, '.git', 'handoff', 'claims.json');
    expect(existsSync(marker)).toBe(true);

    const refused = await guard(repo, writeCall(repo, 'src/auth/login.ts', ME));
    const why = denial(refused)!;
    expect(why).toContain(`src/auth/login.ts is claimed by session ${OTHER}`);
    expect(why).toContain('"moving login to OAuth"');
    expect(why).toMatch(/until \d{4}-\d\d-\d\dT/);
    expect(why).toContain('git handoff claims');
    expect(why).toContain(`ask session ${OTHER}`);
    expect(why).toContain('git handoff claim src/auth/login.ts --take-over --reason "<why>"');
    expect(why).not.toContain('handoff.claims');

    const shell = await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'echo hi > src/auth/session.ts' } }, ME));
    expect(denial(shell)).toContain(`src/auth/session.ts is claimed by session ${OTHER}`);

    expect(denial(await guard(repo, writeCall(repo, 'src/auth/login.ts', OTHER)))).toBeNull();
    expect(contextOf((await guard(repo, writeCall(repo, 'src/auth/login.ts', OTHER))).answer)).not.toContain('claimed');
    expect(denial(await guard(repo, writeCall(repo, 'src/db.ts', ME)))).toBeNull();

    repo.git(['config', 'handoff.claims', 'tell']);
    const told = await guard(repo, writeCall(repo, 'src/auth/login.ts', ME));
    expect(denial(told)).toBeNull();
    expect(contextOf(told.answer)).toContain(`src/auth/login.ts is claimed by session ${OTHER}`);
    expect(contextOf(told.answer)).toContain('"moving login to OAuth"');
    expect(contextOf(told.answer)).toContain('handoff.claims=tell');

    // released: the state file goes, and the write is silent again
    repo.git(['config', '--unset', 'handoff.claims']);
    const rel = await repo.cli(['release', 'src/auth/', '--session', OTHER]);
    expect(rel.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const free = await guard(repo, writeCall(repo, 'src/auth/login.ts', ME));
    expect(denial(free)).toBeNull();
    expect(contextOf(free.answer)).not.toContain('claimed');
  }, 120_000);

  quickIt('the holder is told at its next tool call and at session start: a write its claim refused, and its claim taken over', async () => {
    const repo = makeRepo({ commit: true });
    // the holder has made tool calls here: a session this clone's guard knows
    await guard(repo, writeCall(repo, 'notes.txt', OTHER));
    await claim(repo, ['src/auth/', '--session', OTHER, '--note', 'moving login to OAuth']);
    expect(denial(await guard(repo, writeCall(repo, 'src/auth/login.ts', ME)))).not.toBeNull();
    // told once, at its next call, before the tool (Claude Code's context), with who and what
    const next = contextOf((await guard(repo, writeCall(repo, 'notes.txt', OTHER))).answer);
    expect(next).toContain('your claim on src/auth/ ("moving login to OAuth") refused session ' + ME);
    expect(next).toContain('a write of src/auth/login.ts');
    expect(contextOf((await guard(repo, writeCall(repo, 'notes.txt', OTHER))).answer)).not.toContain('your claim');

    const took = await repo.cli(['claim', 'src/auth/', '--session', ME, '--take-over', '--reason', 'the OAuth move is mine now']);
    expect(took.exitCode, String(took.stderr)).toBe(0);
    expect(String(took.stdout)).toContain(`took over session ${OTHER}'s claim on src/auth/ (asked: src/auth/), told at its next tool call`);
    expect(String(took.stdout)).toContain('enforced:');
    const start = contextOf((await guard(repo, payload(repo, 'claude-code/session-start.json', {}, OTHER))).answer);
    expect(start).toContain(`session ${ME} (cli) took over your claim on src/auth/ (branch main)`);
    expect(start).toContain('"the OAuth move is mine now"');
    // and now its own write there is refused, naming the taker
    expect(denial(await guard(repo, writeCall(repo, 'src/auth/login.ts', OTHER)))).toContain(`claimed by session ${ME}`);
  }, 120_000);

  quickIt('Gemini CLI: a refusal is its deny reason (the model reads it); with tell, the claim reaches the model after the tool', async () => {
    const repo = makeRepo({ commit: true });
    await claim(repo, ['src/auth/', '--session', OTHER, '--note', 'oauth']);
    const gem = (event: string, extra: Record<string, unknown> = {}) =>
      payload(repo, 'gemini-cli/before-tool-write-file.json', { hook_event_name: event, tool_input: { file_path: path.join(repo.dir, 'src/auth/g.ts'), content: 'x\n' }, ...extra }, ME);
    const refused = await guard(repo, gem('BeforeTool'), {});
    expect(refused.answer.decision).toBe('deny');
    expect(refused.answer.reason).toContain(`src/auth/g.ts is claimed by session ${OTHER}`);
    repo.git(['config', 'handoff.claims', 'tell']);
    const before = await guard(repo, gem('BeforeTool'));
    expect(before.answer?.decision).toBeUndefined();
    expect(JSON.stringify(before.answer ?? {})).not.toContain('claimed by');
    const after = await guard(repo, gem('AfterTool', { tool_response: {} }));
    expect(after.answer.hookSpecificOutput.additionalContext).toContain(`src/auth/g.ts is claimed by session ${OTHER}`);
    expect(after.answer.hookSpecificOutput.additionalContext).toContain('"oauth"');
    // a shell write: its own output carries the claim to the model (no AfterTool is wired for the shell tool)
    const shell = payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: 'echo x > src/auth/h.ts' } }, ME);
    const ran = await guard(repo, shell);
    expect(ran.answer.decision).toBeUndefined();
    expect(ran.answer.hookSpecificOutput.tool_input.command).toMatch(/^printf '%s\\n' 'git-handoff: another live session claims what this call writes:[^']*src\/auth\/h\.ts is claimed by session /);
    expect(ran.answer.hookSpecificOutput.tool_input.command).toMatch(/ >&2\necho x > src\/auth\/h\.ts$/);
    expect(readdirSync(path.join(repo.dir, '.git', 'handoff', 'guard')).filter((f) => f.startsWith(ME) && f.endsWith('.note'))).toEqual([]);
  }, 120_000);

  quickIt("through the sh front: a known session's write goes to node only while a claims state file exists", async () => {
    const repo = makeRepo({ commit: true });
    const front = (rel: string) => execa(FRONT, ['--client=claude-code'], { cwd: repo.dir, env: repo.env, extendEnv: false, input: JSON.stringify(writeCall(repo, rel, ME)), reject: false });
    // the first calls make the session known (lineage, config cache, heartbeat): then the front answers alone
    for (let i = 0; i < 2; i++) expect((await front('a.txt')).exitCode).toBe(0);
    const ledger = path.join(repo.dir, '.git', 'handoff', 'ledger', `${ME}.jsonl`);
    const quiet = await front('src/auth/login.ts');
    expect(String(quiet.stdout)).toBe('');
    await claim(repo, ['src/auth/', '--session', OTHER, '--note', 'oauth']);
    const held = await front('src/auth/login.ts');
    expect(JSON.parse(String(held.stdout)).hookSpecificOutput.permissionDecisionReason).toContain(`claimed by session ${OTHER}`);
    expect(existsSync(ledger)).toBe(true);
  }, 120_000);

  slowIt("the holder's own writes renew its claim once less than a quarter of its lifetime is left", async () => {
    const repo = makeRepo({ commit: true });
    const first = JSON.parse(String((await repo.cli(['claim', 'lib/', '--session', ME, '--ttl', '20s', '--json'])).stdout));
    // early: a write renews nothing (no change of the table)
    const oid = repo.git(['rev-parse', 'refs/claims/main']).stdout.trim();
    await guard(repo, writeCall(repo, 'lib/a.ts', ME));
    expect(repo.git(['rev-parse', 'refs/claims/main']).stdout.trim()).toBe(oid);
    while (Date.parse(first.expires) - Date.now() > 4900) await new Promise((r) => setTimeout(r, 100));
    await guard(repo, writeCall(repo, 'lib/a.ts', ME));
    const now = JSON.parse(String((await repo.cli(['claims', '--json'])).stdout));
    expect(now).toEqual([expect.objectContaining({ id: first.id, session: ME })]);
    expect(Date.parse(now[0].expires)).toBeGreaterThan(Date.parse(first.expires));
    expect(repo.git(['log', '-1', '--format=%B', 'refs/claims/main']).stdout).toContain('Handoff-Claim: renew');
  }, 60_000);

  quickIt("the holder's SessionEnd ends its claims", async () => {
    const repo = makeRepo({ commit: true });
    await claim(repo, ['src/auth/', '--session', ME, '--note', 'mine']);
    await claim(repo, ['docs/', '--session', OTHER]);
    await guard(repo, payload(repo, 'claude-code/real-session-end.json', {}, ME));
    const left = JSON.parse(String((await repo.cli(['claims', '--json'])).stdout));
    expect(left.map((c: any) => c.session)).toEqual([OTHER]);
  }, 60_000);

  quickIt('the session start view lists the live claims on the branch', async () => {
    const repo = makeRepo({ commit: true });
    await claim(repo, ['src/auth/', '--session', OTHER, '--note', 'moving login to OAuth']);
    const r = await guard(repo, payload(repo, 'claude-code/session-start.json', {}, ME));
    const ctx = contextOf(r.answer);
    expect(ctx).toContain('git-handoff claims on this branch');
    expect(ctx).toContain(`- src/auth/: session ${OTHER}`);
    expect(ctx).toContain('"moving login to OAuth"');
  }, 60_000);

  quickIt('pre-commit refuses a commit of staged claimed paths by default, naming the claimant (tell: names it, the commit goes on)', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    await claim(repo, ['src/auth/', '--session', OTHER, '--note', 'oauth']);
    repo.write('src/auth/login.ts', 'x\n');
    repo.git(['add', '-A']);
    const refused = repo.git(['commit', '-m', 'mine'], { env: { GIT_HANDOFF_SESSION: ME }, allowFail: true });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('claimed by another live session');
    expect(refused.stderr).toContain(`src/auth/login.ts is claimed by session ${OTHER}`);
    repo.git(['config', 'handoff.claims', 'tell']);
    const c = repo.git(['commit', '-m', 'mine'], { env: { GIT_HANDOFF_SESSION: ME } });
    expect(c.stderr).toContain(`src/auth/login.ts is claimed by session ${OTHER}`);
  }, 60_000);
});

quickDescribe('the claims tables are moved only by claim and release', () => {
  it("another session's raw update-ref, push or delete of refs/claims/<branch> is refused", async () => {
    const repo = makeRepo({ commit: true });
    await claim(repo, ['src/auth/', '--session', OTHER, '--note', 'moving login to OAuth']);
    for (const command of ['git update-ref -d refs/claims/main', 'git update-ref refs/claims/main HEAD', 'git push origin :refs/claims/main', 'x=claims; git update-ref -d refs/$x/main']) {
      const r = await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, ME));
      expect(denial(r), command).not.toBeNull();
    }
    expect(repo.git(['rev-parse', '-q', '--verify', 'refs/claims/main']).stdout.trim()).not.toBe('');
  });
});
