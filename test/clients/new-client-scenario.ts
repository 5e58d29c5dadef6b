// The scenario the real clients of issue 56 (Cline CLI, Kilo Code CLI, Factory droid) are run through, offline: a
// repository wired by `install --agent <client>` next to the person's own AGENTS.md, where another session owns a
// handoff and a protected handoff file, and session A claims src/auth/ with a note. Uninstall must give every file
// install touched back byte for byte.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Agent } from '../../src/clients/names';
import { WIRING } from '../../src/clients/records';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { PATH_WITH_BIN } from './deps';

export const OTHER = 'other-session-5b1e';
export const THEIR_TOPIC = 'topic-one';
export const THEIR_FILE = `memory/handoff-main-${THEIR_TOPIC}.md`;
export const THEIR_TEXT = `<!-- claude-session: ${OTHER} -->\n# Topic one\n\ntheir plan: keep the old parser\n`;
export const HOLDER = 'claims-holder-a1b2';
export const NOTE = 'moving login to OAuth, do not touch';
export const AGENTS_MD = '# Agents\n\nKeep answers short.\n';

/** What install may touch in a worktree for `agent`: its files and its notes file, each with its bytes (null: absent). */
function touched(repo: TestRepo, agent: Agent): Record<string, string | null> {
  const w = WIRING[agent];
  return Object.fromEntries([...w.files!('', repo.dir).map((f) => f.file), w.notes].map((f) => [f, existsSync(path.join(repo.dir, f)) ? readFileSync(path.join(repo.dir, f), 'utf8') : null]));
}

/** The repository of the scenario, wired for `agent`; `before`: what install touched, as it was. */
export async function preparedFor(agent: Agent): Promise<{ repo: TestRepo; before: Record<string, string | null> }> {
  const repo = makeRepo({ commit: true });
  repo.commit('their file', { [THEIR_FILE]: THEIR_TEXT, 'AGENTS.md': AGENTS_MD });
  const before = touched(repo, agent);
  const i = await repo.cli(['install', '--agent', agent], { env: { PATH: PATH_WITH_BIN } });
  expect(i.exitCode, String(i.stderr)).toBe(0);
  expect((await repo.cli(['write', THEIR_TOPIC, '-m', 'their plan: keep the old parser'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
  const c = await repo.cli(['claim', 'src/auth/', '--note', NOTE], { env: { GIT_HANDOFF_SESSION: HOLDER } });
  expect(c.exitCode, String(c.stderr)).toBe(0);
  return { repo, before };
}

/** `uninstall --agent <agent>` gives every file install touched back as it was, byte for byte. */
export async function expectUninstalled(repo: TestRepo, agent: Agent, before: Record<string, string | null>): Promise<void> {
  const r = await repo.cli(['uninstall', '--agent', agent], { env: { PATH: PATH_WITH_BIN } });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(touched(repo, agent)).toEqual(before);
  expect(before['AGENTS.md']).toBe(AGENTS_MD);
}

/** The other session's handoff file and ref, untouched. */
export function expectTheirsIntact(repo: TestRepo): void {
  expect(readFileSync(path.join(repo.dir, THEIR_FILE), 'utf8')).toBe(THEIR_TEXT);
  expect(repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', `refs/handoffs/main/${THEIR_TOPIC}`]).stdout.trim()).toBe(OTHER);
}
