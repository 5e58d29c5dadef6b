// The real clients these tests drive, installed once into the user cache (outside the repository): the
// Claude Code native CLI (~360 MB) and @google/gemini-cli-core. Pinned versions, npm's ordinary client.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import { makeRepo, ROOT, type TestRepo } from '../helpers/repo';

export const CLAUDE_VERSION = process.env.CLAUDE_CODE_VERSION ?? '2.1.328';
export const GEMINI_CORE_VERSION = process.env.GEMINI_CLI_CORE_VERSION ?? '0.61.0';
const CACHE = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
export const CLAUDE_DIR = process.env.CLAUDE_CODE_DIR ?? path.join(CACHE, 'claude-code-offline');
export const GEMINI_DIR = path.join(CACHE, 'gemini-cli-core');

/** The scripted-API harness shipped beside the repository (shared/tools/claude-offline). */
export const CLAUDE_OFFLINE = [path.resolve(ROOT, '../shared/tools/claude-offline'), '/work/shared/tools/claude-offline'].find((d) => existsSync(path.join(d, 'run-claude.sh')))!;

function npmInstall(dir: string, spec: string, extra: string[] = []): void {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{"name":"client-cache","private":true}\n');
  execFileSync('npm', ['install', spec, '--no-audit', '--no-fund', '--no-save', ...extra], { cwd: dir, stdio: 'inherit' });
}

export const claudeBin = () => path.join(CLAUDE_DIR, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');

export function ensureClaude(): string {
  if (!existsSync(claudeBin())) npmInstall(CLAUDE_DIR, `@anthropic-ai/claude-code@${CLAUDE_VERSION}`);
  return claudeBin();
}

export const geminiCoreDir = () => path.join(GEMINI_DIR, 'node_modules', '@google', 'gemini-cli-core');

export function ensureGeminiCore(): string {
  if (!existsSync(path.join(geminiCoreDir(), 'dist', 'src', 'hooks', 'hookRunner.js'))) {
    npmInstall(GEMINI_DIR, `@google/gemini-cli-core@${GEMINI_CORE_VERSION}`, ['--ignore-scripts']);
  }
  return geminiCoreDir();
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
export async function wiredForClaude(o: { commit?: boolean } = {}): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  expect((await repo.cli(['install', '--agent', 'claude'], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
  if (o.commit) {
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'wiring']);
  }
  return repo;
}
