// autoSyncPush, what the pre-push hook calls with handoff.autoSync=true: pushes handoffs, never throws, never recurses.
import { existsSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo';
import { autoSyncPush } from '../../src/sync/push';
import { refOf, tempDir } from '../helpers/repo';
import { makeWorld, ok } from './world';

const REF = 'refs/handoffs/main/auth-refactor';
let saved: NodeJS.ProcessEnv;
beforeEach(() => {
  saved = { ...process.env };
});
afterEach(() => {
  process.env = saved;
});

describe('autoSyncPush', () => {
  it('pushes changed handoff refs with --no-verify and says so', async () => {
    const { a, bare } = await makeWorld('file');
    Object.assign(process.env, { HOME: a.home, GIT_CONFIG_NOSYSTEM: '1' });
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    const marker = path.join(tempDir(), 'pre-push-ran');
    writeFileSync(path.join(a.dir, '.git', 'hooks', 'pre-push'), `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(path.join(a.dir, '.git', 'hooks', 'pre-push'), 0o755);
    const line = await autoSyncPush(openRepo(a.dir), 'origin');
    expect(line).toMatch(/autoSync: pushed 1 handoff ref to origin/);
    expect(refOf(bare, REF)).toBe(refOf(a, REF));
    expect(existsSync(marker)).toBe(false);
    expect(await autoSyncPush(openRepo(a.dir), 'origin')).toBeNull();
    // The same hook does run for a push that does not skip it.
    a.git(['push', '-q', 'origin', 'main']);
    expect(existsSync(marker)).toBe(true);
  });

  it('never throws: an unreachable remote or a bare URL gives a line and the user push goes on', async () => {
    const { a, url } = await makeWorld('file');
    Object.assign(process.env, { HOME: a.home, GIT_CONFIG_NOSYSTEM: '1' });
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    expect(await autoSyncPush(openRepo(a.dir), url)).toMatch(/skipped: .* is not a named remote/);
    a.git(['remote', 'set-url', 'origin', `file://${tempDir()}/gone.git`]);
    const before = a.git(['for-each-ref']).stdout;
    expect(await autoSyncPush(openRepo(a.dir), 'origin')).toMatch(/could not push handoffs .*your push goes on/);
    expect(a.git(['for-each-ref']).stdout).toBe(before);
  });
});
