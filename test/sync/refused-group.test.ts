// A host that refuses one group of refs for itself (an archive: the live ref's deletion and the entry that goes with it,
// which travel together), in words of its own: the push is not halved below a group, so sync says it once with the
// host's words and exits 7, nothing lost, and it ends (it does not send the same group again and again).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refOf } from '../helpers/repo';
import { makeWorld, ok } from './world';

const S = { GIT_HANDOFF_SESSION: 'group-owner-1' };

describe('a host that refuses an archive for itself', () => {
  it('is told once with its words, exit 7, and the handoff is kept', async () => {
    const { a, bare } = await makeWorld('file');
    await ok(a, ['write', 'kept-topic', '-m', 'Goal: one'], 0, S);
    await ok(a, ['sync'], 0, S);
    const pushes = path.join(bare.dir, 'pushes.log');
    // every deletion of a handoff is refused, in the host's own words; each push it sees is counted
    writeFileSync(
      path.join(bare.dir, 'hooks', 'pre-receive'),
      `#!/bin/sh\necho push >> '${pushes}'\nwhile read old new ref; do case "$new:$ref" in 0000000000000000000000000000000000000000:refs/handoffs/*) echo "acme: deleting $ref needs the D right" >&2; exit 1 ;; esac; done\nexit 0\n`,
      { mode: 0o755 },
    );
    const live = refOf(a, 'refs/handoffs/main/kept-topic');
    await ok(a, ['archive', 'kept-topic'], 0, S);
    const r = await a.cli(['sync'], { env: S });
    expect(r.exitCode, String(r.stderr)).toBe(7);
    expect(String(r.stderr)).toContain('acme: deleting refs/handoffs/main/kept-topic needs the D right');
    expect(refOf(bare, 'refs/handoffs/main/kept-topic')).toBe(live);
    expect(a.git(['for-each-ref', 'refs/handoff-archive/']).stdout).toContain('kept-topic');
    // the group is sent a bounded number of times, not halved forever
    expect(readFileSync(pushes, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(4);
  });
});
