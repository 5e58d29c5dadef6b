// The helpers the real clients' tests share; the clients themselves and their pinned versions are test/clients/installs.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import { makeRepo, ROOT, type TestRepo } from '../helpers/repo';
import { CLAUDE_OFFLINE, ensureClaude } from './installs';

export * from './installs';

/** Installs a client once before a file's tests (a first download can take minutes); `.path` is what `ensure` gave. */
export function useOffline(harness: string | undefined, name: string, ensure: () => string): { path: string } {
  const got = { path: '' };
  beforeAll(() => {
    expect(harness, `shared/tools/${name} beside the repository`).toBeTruthy();
    got.path = ensure();
  }, 900_000);
  return got;
}

/** The paths a harness prints after its run: `<label>: <path>` lines. */
export function harnessPaths(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of stdout.matchAll(/(requests|output|codex --json events|stderr)[^:]*: (\S+)/g)) out[m[1]] = m[2];
  return out;
}

/** PATH with this checkout's launcher first, as a user who installed git-handoff has it. */
export const PATH_WITH_BIN = `${path.join(ROOT, 'bin')}:${process.env.PATH}`;

/** Installs the offline Claude Code once before a file's tests (a first download can take minutes). */
export function useClaude(): void {
  beforeAll(() => {
    expect(CLAUDE_OFFLINE, 'shared/tools/claude-offline beside the repository').toBeTruthy();
    ensureClaude();
  }, 900_000);
}

/** A repository wired by `install --agent claude`; with `commit`, the wiring is committed (a clean tree). */
export const wiredForClaude = (o: { commit?: boolean } = {}) => wiredFor('claude', o);

/** A repository wired by `install --agent <agent>`; with `commit`, the wiring is committed (a clean tree). */
export async function wiredFor(agent: 'claude' | 'gemini' | 'codex' | 'copilot' | 'opencode' | 'qwen', o: { commit?: boolean } = {}): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  expect((await repo.cli(['install', '--agent', agent], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
  if (o.commit) {
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'wiring']);
  }
  return repo;
}

/** The JSON lines a logging hook or plugin wrote, in order (none when it never ran). */
export function logLines(file: string): any[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}
