// A plugin or extension install the client refuses (no `gemini` or `claude` on PATH) leaves nothing in HOME: not the
// copy it assembled (1.4 MB), not the folders it made for it; and uninstall takes away what an older build's refused
// install left, with the folder it leaves empty (issue 53).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../helpers/repo';

/** Everything under HOME but the git configuration the fixture writes and the code cache every command keeps (~/.cache). */
const homeEntries = (home: string) => readdirSync(home).filter((n) => n !== '.gitconfig' && n !== '.cache');

describe('a plugin install the client refuses', () => {
  for (const [agent, flag, client] of [['gemini', '--extension', 'gemini'], ['claude', '--plugin', 'claude']] as const) {
    it(`install --agent ${agent} ${flag} with no \`${client}\` on PATH: exit 7, and HOME as it was`, async () => {
      const repo = makeRepo({ commit: true });
      const before = homeEntries(repo.home);
      const r = await repo.cli(['install', '--agent', agent, flag, '--json']);
      expect(r.exitCode).toBe(7);
      expect(json(r).error.code).toBe('client-missing');
      expect(json(r).error.message).toContain(`\`${client}\` is not on PATH`);
      expect(existsSync(path.join(repo.home, '.local'))).toBe(false);
      expect(homeEntries(repo.home)).toEqual(before);
    });
  }

  it("uninstall removes the copy an older build's refused install left, and git-handoff's data folder it empties", async () => {
    const repo = makeRepo({ commit: true });
    const data = path.join(repo.home, '.local', 'share', 'git-handoff');
    mkdirSync(path.join(data, 'gemini-extension', 'bin'), { recursive: true });
    writeFileSync(path.join(data, 'gemini-extension', 'bin', 'git-handoff'), '#!/bin/sh\n');
    const r = await repo.cli(['uninstall', '--agent', 'gemini', '--extension']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain(`${path.join(data, 'gemini-extension')}: removed (the copy the extension was installed from)`);
    expect(String(r.stdout)).toContain(`${data}: removed (git-handoff's data folder, left empty)`);
    expect(existsSync(data)).toBe(false);
    // the user's own folders stay
    expect(existsSync(path.join(repo.home, '.local', 'share'))).toBe(true);
  });
});
