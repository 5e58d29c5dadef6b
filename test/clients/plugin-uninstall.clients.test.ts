// Installs leave nothing they did not say (issue 27): with the real Claude Code and Gemini CLI, offline, `install
// --agent claude --plugin` / `--agent gemini --extension` (twice, as after an upgrade) then `uninstall` give HOME
// back byte for byte — a settings file we did not write keeps its own formatting, no empty keys, folders or
// caches stay — and the uninstall says what it restored and what it deleted. Gemini CLI trusts the extension's
// own folder only, never the repository the command was typed in.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { claudeBin, ensureGeminiCli, useClaude } from './deps';

let GEMINI_JS = '';
beforeAll(() => {
  GEMINI_JS = ensureGeminiCli();
}, 900_000);
useClaude();

/** PATH with the clients and the system's tools, and no git-handoff anywhere. */
function clientPath(repo: TestRepo): string {
  const dir = path.join(repo.home, 'client-bin');
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, 'claude'))) symlinkSync(claudeBin(), path.join(dir, 'claude'));
  writeFileSync(path.join(dir, 'gemini'), `#!/bin/sh\nexec node '${GEMINI_JS}' "$@"\n`, { mode: 0o755 });
  const system = (process.env.PATH ?? '').split(':').filter((d) => d && !existsSync(path.join(d, 'git-handoff')));
  return [dir, ...system].join(':');
}

/** Every path under HOME with its bytes (git-handoff's own cache too: an install that made it, its uninstall removes it). */
function tree(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const n of readdirSync(dir)) {
      const p = path.join(dir, n);
      const rel = path.relative(home, p);
      const st = lstatSync(p);
      if (st.isDirectory()) {
        out[`${rel}/`] = '';
        walk(p);
      } else out[rel] = st.isSymbolicLink() ? 'link' : readFileSync(p).toString('base64');
    }
  };
  walk(home);
  return out;
}

async function roundTrip(repo: TestRepo, flags: string[]) {
  const PATH = clientPath(repo);
  const before = tree(repo.home);
  for (let i = 0; i < 2; i++) {
    const r = await repo.cli(['install', ...flags], { env: { PATH } });
    expect(r.exitCode, String(r.stderr)).toBe(0);
  }
  const during = tree(repo.home);
  const un = await repo.cli(['uninstall', ...flags], { env: { PATH } });
  expect(un.exitCode, String(un.stderr)).toBe(0);
  return { before, during, after: tree(repo.home), out: String(un.stdout) };
}

describe('uninstall gives HOME back', () => {
  it('Claude Code plugin: settings.json byte for byte (our formatting never), no empty keys, folders or caches', async () => {
    const repo = makeRepo({ commit: true });
    const settings = path.join(repo.home, '.claude', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    // a file the user wrote, formatted their way
    writeFileSync(settings, '{\n    "theme": "dark",\n  "model":"opus"}\n');
    const { before, during, after, out } = await roundTrip(repo, ['--agent', 'claude', '--plugin']);
    expect(JSON.parse(Buffer.from(during[path.join('.claude', 'settings.json')], 'base64').toString()).enabledPlugins).toEqual({ 'git-handoff@git-handoff': true });
    expect(after).toEqual(before);
    expect(out).toContain('~/.claude/settings.json: restored byte for byte from the copy saved before install');
    expect(out).toMatch(/known_marketplaces\.json: deleted \(install created it/);
    expect(out).not.toMatch(/settings\.json: deleted/);
  });

  it('Gemini CLI extension: only its own folder is trusted; uninstall removes the trust entry and the extension copy', async () => {
    const repo = makeRepo({ commit: true });
    mkdirSync(path.join(repo.home, '.gemini'), { recursive: true });
    writeFileSync(path.join(repo.home, '.gemini', 'settings.json'), '{"security":{"auth":{"selectedType":"gemini-api-key"}}}\n');
    // a trust the user gave before, in their own formatting
    writeFileSync(path.join(repo.home, '.gemini', 'trustedFolders.json'), '{ "/srv/mine": "TRUST_FOLDER" }\n');
    const { before, during, after, out } = await roundTrip(repo, ['--agent', 'gemini', '--extension']);
    const trusted = JSON.parse(Buffer.from(during[path.join('.gemini', 'trustedFolders.json')], 'base64').toString());
    expect(Object.keys(trusted).sort()).toEqual(['/srv/mine', path.join(repo.home, '.local', 'share', 'git-handoff', 'gemini-extension')]);
    expect(trusted[repo.dir]).toBeUndefined();
    expect(during[path.join('.local', 'share', 'git-handoff', 'gemini-extension') + '/']).toBe('');
    expect(after).toEqual(before);
    expect(out).toContain('~/.gemini/trustedFolders.json: restored byte for byte from the copy saved before install');
    expect(out).toContain('gemini-extension: removed (the copy the extension was installed from)');
  });
});
