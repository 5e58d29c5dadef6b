// A repository whose hook stubs an older build installed, run by this build's handlers: the previous build's stub
// (git show 212c0be:git-hooks/stub.sh, installed as its install did: the launcher's path in GIT_HANDOFF_BIN) adds the
// session's trailer in sh and calls no prepare-commit-msg handler, and its pre-commit calls node where another session
// wrote here. Called without this build's argument (STUB_ARG), the handler checks what that stub left to it, and puts
// this build's stubs in place of git-handoff's own, keeping the hook each chains.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STUB_ARG } from '../../src/git/hook-stub';
import { stubText } from '../../src/hooks/install';
import { HOOK_NAMES } from '../../src/git/hook-stub';
import { BIN, ROOT } from '../helpers/repo';
import { A, B, gitAs, head, hookedRepo, hooksDir, lease, ledgerWrite, messageOf, script, stagedTakeBack } from './helpers';

const PREVIOUS = '212c0be';

/** The previous build's stub as its install wrote it: the template with the launcher's path recorded. */
function previousStub(launcher: string): string {
  const r = spawnSync('git', ['show', `${PREVIOUS}:git-hooks/stub.sh`], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git show ${PREVIOUS}:git-hooks/stub.sh: ${r.stderr}`);
  return r.stdout.replace(/^GIT_HANDOFF_BIN=.*$/m, () => `GIT_HANDOFF_BIN='${launcher.replace(/'/g, `'\\''`)}'`);
}

/** A hooked repository (a person's pre-commit chained) whose five stubs are the previous build's. */
async function upgradedRepo() {
  const repo = await hookedRepo();
  const dir = hooksDir(repo);
  for (const name of HOOK_NAMES) script(path.join(dir, name), previousStub(BIN));
  // a hook that was there before install, chained by the stub
  const ran = path.join(repo.dir, '.git', 'chained-ran');
  script(path.join(dir, 'pre-commit.handoff-chained'), `#!/bin/sh\necho ran >> '${ran}'\n`);
  return { repo, dir, ran };
}

const stubsCurrent = (dir: string) => HOOK_NAMES.every((n) => readFileSync(path.join(dir, n), 'utf8') === stubText(BIN));

describe("an older build's stubs with this build's handlers", () => {
  it("a session's commit that takes back another live session's commit is refused; the stubs are then this build's, the chained hook kept", async () => {
    const { repo, dir, ran } = await upgradedRepo();
    expect(readFileSync(path.join(dir, 'prepare-commit-msg'), 'utf8')).not.toContain(STUB_ARG);
    // A changes shared.txt (the previous stub adds A's trailer in sh), and B stages it as before
    const before = stagedTakeBack(repo);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}`);
    // A is live here: its lease, and the ledger its guard keeps (what the previous pre-commit stub hands to node on)
    lease(repo, A);
    ledgerWrite(repo, A, ['shared.txt']);
    const r = gitAs(repo, B, ['commit', '-m', 'B takes it back']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/take back a commit of another session|last written by another live session/);
    expect(head(repo)).toBe(before);
    // the handler brought git-handoff's own stubs up to this build: the next commit runs them
    expect(r.stderr).toMatch(/the git hooks here were an older build's; brought up to this one/);
    expect(stubsCurrent(dir)).toBe(true);
    expect(readFileSync(path.join(dir, 'pre-commit.handoff-chained'), 'utf8')).toContain('echo ran');
    expect(readFileSync(ran, 'utf8')).toContain('ran');
    // refused again through this build's stubs (prepare-commit-msg's handler), the chained hook still run
    const chainedRuns = readFileSync(ran, 'utf8').split('\n').filter(Boolean).length;
    const again = gitAs(repo, B, ['commit', '-m', 'B takes it back']);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/take back a commit of another session|last written by another live session/);
    expect(again.stderr).not.toMatch(/older build/);
    expect(head(repo)).toBe(before);
    // a person's commit goes on, and runs the chained hook
    expect(gitAs(repo, null, ['commit', '-q', '-m', 'a person reverts it']).status).toBe(0);
    expect(readFileSync(ran, 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(chainedRuns);
  });

  it('pre-commit called as the previous stub calls it (no STUB_ARG) checks the session\'s staged changes itself; as this build\'s stub calls it, not', async () => {
    const repo = await hookedRepo();
    stagedTakeBack(repo);
    lease(repo, A);
    ledgerWrite(repo, A, ['shared.txt']);
    const env = { GIT_HANDOFF_SESSION: B, GIT_AUTHOR_DATE: '@1700000000 +0000' };
    const older = await repo.cli(['githook', 'pre-commit'], { env });
    expect(older.exitCode, String(older.stderr)).toBe(3);
    expect(String(older.stderr)).toMatch(/take back a commit of another session|last written by another live session/);
    const current = await repo.cli(['githook', 'pre-commit', STUB_ARG], { env });
    expect(current.exitCode, String(current.stderr)).toBe(0);
    expect(String(current.stderr)).toBe('');
  });

  it("this build's stubs are left as they are, and a session's pre-commit is prepare-commit-msg's: no handler run for it", async () => {
    const repo = await hookedRepo();
    const dir = hooksDir(repo);
    const stamps = HOOK_NAMES.map((n) => statSync(path.join(dir, n)).mtimeMs);
    lease(repo, A);
    ledgerWrite(repo, A, ['a.txt']);
    repo.write('b.txt', 'B\n');
    repo.git(['add', '-A']);
    const r = gitAs(repo, B, ['commit', '-q', '-m', 'B'], { GIT_HANDOFF_TRACE: path.join(repo.dir, '.git', 'trace.jsonl') });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(HOOK_NAMES.map((n) => statSync(path.join(dir, n)).mtimeMs)).toEqual(stamps);
    // node ran for prepare-commit-msg alone
    const started = readFileSync(path.join(repo.dir, '.git', 'trace.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((l) => l.phase === 'start');
    expect(started.map((l) => l.detail.split(' ').slice(0, 2).join(' '))).toEqual(['githook prepare-commit-msg']);
    expect(started[0].detail).toContain(STUB_ARG);
    expect(readdirSync(dir).filter((f) => f.endsWith('.handoff-tmp'))).toEqual([]);
    expect(existsSync(path.join(dir, 'pre-commit.handoff-chained'))).toBe(false);
  });
});
