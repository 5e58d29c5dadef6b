// Claude Code's wiring reads the sh front into its own sh (src/clients/wiring.ts, shPayloadCommand). A repository's
// settings are shared by clones whose git-handoff may be older than the wiring: an older front, read in, would hand
// over with the client's sh as its $0, find no node (127) and the client would run the call. The wiring reads the
// front through a name only fronts that know it have (bin/git-handoff-front), so an older installation gets the
// front run as a program, as its own wiring did. Real fronts (this one and the one from before the change, from
// git's history), real sh.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shPayloadCommand } from '../../src/clients/wiring';
import { makeRepo, ROOT, tempDir } from '../helpers/repo';

/** The sh front of the build before Claude Code's wiring read it in (7dff5f3), from this repository's history. */
const OLD_FRONT = '7dff5f3';

describe('Claude Code’s wiring with the front another installation has', () => {
  it('an older front on PATH is run as a program, and refuses what it refuses; this one is read in and does the same', () => {
    const old = spawnSync('git', ['show', `${OLD_FRONT}:bin/git-handoff-guard`], { cwd: ROOT, encoding: 'utf8' });
    expect(old.status, `git show ${OLD_FRONT}:bin/git-handoff-guard (the test needs this repository's history): ${old.stderr}`).toBe(0);
    const install = tempDir('gh-old-install-');
    mkdirSync(path.join(install, 'bin'));
    writeFileSync(path.join(install, 'bin', 'git-handoff-guard'), old.stdout);
    chmodSync(path.join(install, 'bin', 'git-handoff-guard'), 0o755);
    symlinkSync(path.join(ROOT, 'dist'), path.join(install, 'dist'));
    const repo = makeRepo({ commit: true });
    const payload = JSON.stringify({ session_id: 'sess-compat', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git update-ref refs/handoffs/main/auth HEAD' } });
    const wiring = shPayloadCommand('git-handoff-guard --client=claude-code');
    const run = (bin: string) => spawnSync('/bin/sh', ['-c', wiring], { cwd: repo.dir, env: { ...repo.env, PATH: `${bin}:${process.env.PATH}` }, input: payload, encoding: 'utf8' });
    for (const bin of [path.join(install, 'bin'), path.join(ROOT, 'bin')]) {
      const r = run(bin);
      expect(r.status, `${bin}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, bin).toBe('deny');
    }
  });
});
