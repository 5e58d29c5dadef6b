// A team for status and web: two clones of one bare remote (file://), three sessions of two clients. Clone A holds
// Claude Code session S1 in its worktree and Gemini CLI session S2 in a second worktree; clone B holds Claude Code
// session S3. Each session starts through the real guard (its SessionStart: the lease), writes a handoff and claims
// paths with a note; both clones sync, so each sees the other's through the remote.
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { guard, payload } from '../guard/helpers';
import type { TestRepo } from '../helpers/repo';
import { makeWorld, ok } from '../sync/world';

export const S1 = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
export const S2 = 'c1d2e3f4-0000-4000-8000-000000000001';
export const S3 = '9b1e77d0-2222-4333-8444-555566667777';

export interface Team {
  bare: TestRepo;
  a: TestRepo;
  b: TestRepo;
  /** clone A's second worktree, where S2 works */
  a2: string;
  /** the environment a session's commands run with: its client's session variable */
  as: Record<string, Record<string, string>>;
}

export const TOPICS: Record<string, string> = { [S1]: 'auth-refactor', [S2]: 'docs-search-index', [S3]: 'billing-webhooks' };
export const CLAIMED: Record<string, { path: string; note: string }> = {
  [S1]: { path: 'src/auth/', note: 'moving login to OAuth' },
  [S2]: { path: 'docs/search/', note: 'rebuilding the index' },
  [S3]: { path: 'src/billing/', note: 'webhook retries' },
};

/** Starts `session` through the real guard's SessionStart in `cwd` (its lease there). */
async function start(repo: TestRepo, session: string, fixture: string, cwd: string): Promise<void> {
  const r = await guard(repo, payload(repo, fixture, { cwd }, session));
  expect(r.exitCode, r.stderr).toBe(0);
}

export async function makeTeam(): Promise<Team> {
  const { bare, a, b } = await makeWorld('file');
  const a2 = path.join(mkdtempSync(path.join(path.dirname(a.dir), 'wt-')), 'docs');
  a.git(['worktree', 'add', '-q', '-b', 'docs-work', a2]);
  const as: Record<string, Record<string, string>> = { [S1]: { CLAUDE_CODE_SESSION_ID: S1 }, [S2]: { GEMINI_SESSION_ID: S2 }, [S3]: { CLAUDE_CODE_SESSION_ID: S3 } };
  await start(a, S1, 'claude-code/session-start.json', a.dir);
  await start(a, S2, 'gemini-cli/session-start.json', a2);
  await start(b, S3, 'claude-code/session-start.json', b.dir);
  // every session works on main, where the team meets (S2 from its own worktree names the branch)
  const work: Array<[TestRepo, string, string]> = [[a, S1, a.dir], [a, S2, a2], [b, S3, b.dir]];
  for (const [repo, s, cwd] of work) {
    const w = await repo.cli(['write', TOPICS[s], '--branch', 'main', '-m', `Goal: ${TOPICS[s]} by ${s.slice(0, 8)}`, '-m', 'Next action: keep going'], { cwd, env: as[s] });
    expect(w.exitCode, String(w.stderr)).toBe(0);
    const c = await repo.cli(['claim', CLAIMED[s].path, '--branch', 'main', '--note', CLAIMED[s].note], { cwd, env: as[s] });
    expect(c.exitCode, String(c.stderr)).toBe(0);
  }
  await ok(b, ['sync']);
  await ok(a, ['sync']);
  await ok(b, ['sync']);
  return { bare, a, b, a2, as };
}
