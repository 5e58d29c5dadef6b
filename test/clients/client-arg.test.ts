// Issue 14: the wiring names the client (`git-handoff guard --client=<id>`), which overrides payload sniffing; without
// it, every real payload of every client is still told apart (Codex's SessionStart has no turn_id).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectClient, namedClient } from '../../src/clients/index';
import { json, makeRepo, type TestRepo } from '../helpers/repo';
import { FIXTURES, guard, payload } from '../guard/helpers';

const CODEX_A = '01a20482-dae9-7c61-9fd3-3484b571af55';
const CODEX_B = '01a20482-e011-7a02-8c1d-0a9e5b3c2d10';

const guardAs = async (repo: TestRepo, client: string | null, p: Record<string, unknown>) => {
  const r = await repo.cli(client ? ['guard', `--client=${client}`] : ['guard'], { input: JSON.stringify(p) });
  const out = String(r.stdout).trim();
  return { exitCode: r.exitCode, answer: out ? JSON.parse(out) : null };
};

const clientOf = async (repo: TestRepo, session: string) =>
  json(await repo.cli(['sessions', '--json'])).find((s: any) => s.session === session)?.client ?? null;

describe('--client=<id>', () => {
  it('reads only the arguments after `guard`, and ignores unknown names', () => {
    expect(namedClient(['node', '/x/bin/git-handoff', 'guard', '--client=codex'])).toBe('codex');
    expect(namedClient(['node', '/x/bin/git-handoff', 'guard', '--client', 'gemini-cli'])).toBe('gemini-cli');
    expect(namedClient(['node', '/x/bin/git-handoff', 'guard'])).toBeNull();
    expect(namedClient(['node', '/x/bin/git-handoff', 'guard', '--client=__proto__'])).toBeNull();
    expect(namedClient(['node', '/x/bin/git-handoff', 'guard', '--client=vim'])).toBeNull();
    expect(namedClient(['node', '/tmp/--client=codex/git-handoff', 'guard'])).toBeNull();
  });

  it('overrides sniffing: a Codex SessionStart is recorded as codex even with nothing in it to tell', async () => {
    const repo = makeRepo({ commit: true });
    const bare = payload(repo, 'codex/real-session-start.json', { transcript_path: null }, CODEX_A);
    expect((await guardAs(repo, 'codex', bare)).exitCode).toBe(0);
    expect(await clientOf(repo, CODEX_A)).toBe('codex');
    // the same payload unnamed looks like Claude Code's: that is why the wiring states the client
    const other = makeRepo({ commit: true });
    await guardAs(other, null, payload(other, 'codex/real-session-start.json', { transcript_path: null }, CODEX_A));
    expect(await clientOf(other, CODEX_A)).toBe('claude-code');
  });

  it('answers in the named client\'s shape', async () => {
    const repo = makeRepo({ commit: true });
    const command = 'git update-ref -d refs/handoffs/main/auth-refactor';
    const g = payload(repo, 'gemini-cli/real-before-tool-run-shell-command.json', { tool_input: { command } });
    expect((await guardAs(repo, 'gemini-cli', g)).answer).toMatchObject({ decision: 'deny' });
    const p = payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } });
    expect((await guardAs(repo, 'codex', p)).answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect((await guardAs(repo, 'nonsense', p)).answer.hookSpecificOutput.permissionDecision).toBe('deny');
    // a Claude-shaped payload named as Codex's is recorded as Codex's
    await guardAs(repo, 'codex', payload(repo, 'claude-code/pre-tool-use-bash.json', {}, CODEX_B));
    expect(await clientOf(repo, CODEX_B)).toBe('codex');
  });

  it('without it, the real Codex SessionStart (no turn_id) is still codex, by its rollout transcript', async () => {
    const repo = makeRepo({ commit: true });
    await guard(repo, payload(repo, 'codex/real-session-start.json', {}, CODEX_A));
    expect(await clientOf(repo, CODEX_A)).toBe('codex');
  });
});

describe('every fixture of every client, sniffed', () => {
  const expected: Record<string, string> = { 'claude-code': 'claude-code', 'gemini-cli': 'gemini-cli', codex: 'codex', cursor: 'cursor' };
  for (const dir of Object.keys(expected)) {
    it(`${dir}: every event is told apart as ${expected[dir]}`, () => {
      const files = readdirSync(path.join(FIXTURES, dir)).filter((f) => f.endsWith('.json'));
      expect(files.length).toBeGreaterThan(2);
      for (const f of files) {
        const p = JSON.parse(readFileSync(path.join(FIXTURES, dir, f), 'utf8'));
        expect(detectClient(p, null).client, `${dir}/${f}`).toBe(expected[dir]);
        expect(detectClient(p, null).parse(p).kind, `${dir}/${f}`).not.toBe('other');
      }
    });
  }
});

describe('two Codex sessions in one worktree (UUIDv7 ids sharing 8 hex digits)', () => {
  it('are warned with ids that tell them apart', async () => {
    const repo = makeRepo({ commit: true });
    await guardAs(repo, 'codex', payload(repo, 'codex/real-session-start.json', {}, CODEX_A));
    const r = await guardAs(repo, 'codex', payload(repo, 'codex/real-session-start.json', {}, CODEX_B));
    const ctx: string = r.answer.hookSpecificOutput.additionalContext;
    expect(ctx).toContain('another live session, 01a20482-d (codex');
    expect(ctx).toContain('You are session 01a20482-e.');
    // what each writes is recorded before its tool runs (and counts once the file shows it ran)
    await guardAs(repo, 'codex', payload(repo, 'codex/pre-tool-use-bash.json', { tool_input: { command: 'echo x > a.txt' } }, CODEX_A));
    writeFileSync(path.join(repo.dir, 'a.txt'), 'x\n');
    await guardAs(repo, 'codex', payload(repo, 'codex/pre-tool-use-bash.json', { tool_input: { command: 'echo y > b.txt' } }, CODEX_B));
    writeFileSync(path.join(repo.dir, 'b.txt'), 'y\n');
    const table = String((await repo.cli(['sessions'])).stdout);
    expect(table).toContain('01a20482-d');
    expect(table).toContain('01a20482-e');
  });
});
