// drop (issue 27): a throwaway handoff that never left this clone goes away on the record — its versions kept under
// refs/handoff-dropped/, the loss record told (no loss reported, recover leaves it), the hooks passed on the record;
// another session's, or one another clone may have, is not dropped.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { gitRecorder } from '../../sync/world';

const REF = 'refs/handoffs/main/scratch-notes';
const recordText = (repo: TestRepo) => repo.git(['cat-file', 'blob', 'refs/handoff-record:main']).stdout;

/**
 * A reference-transaction hook (core.hooksPath, no git-handoff hooks) that kills the git-handoff process with -9 when
 * the transaction deleting the live ref reaches `state` (prepared: before anything moved; committed: right after).
 */
function killDropAt(repo: TestRepo, state: 'prepared' | 'committed'): void {
  const hooks = `${repo.home}/kill-hooks`;
  mkdirSync(hooks, { recursive: true });
  // $PPID is git; its parent is the git-handoff node process (git runs the hook, git-handoff runs git)
  writeFileSync(
    `${hooks}/reference-transaction`,
    `#!/bin/sh\n[ "$1" = ${state} ] || { cat >/dev/null; exit 0; }\ngrep -q ' 0\\{40\\} ${REF}$' || exit 0\n` +
      `kill -9 "$(awk '{print $4}' /proc/$PPID/stat)"\nsleep 5\n`,
  );
  chmodSync(`${hooks}/reference-transaction`, 0o755);
  repo.git(['config', 'core.hooksPath', hooks]);
}

describe('drop', () => {
  it('drops an own never-pushed handoff, keeps its versions by name, and no check calls it lost (hooks installed)', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    await repo.cli(['write', 'scratch-notes', '--session', 's1', '-m', 'one']);
    await repo.cli(['write', 'scratch-notes', '--session', 's1', '-m', 'two']);
    const tip = refOf(repo, REF)!;
    const other = await repo.cli(['drop', 'scratch-notes', '--session', 's2']);
    expect(other.exitCode).toBe(3);
    expect(refOf(repo, REF)).toBe(tip);
    const r = await repo.cli(['drop', 'scratch-notes', '--session', 's1', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = json(r);
    expect(out.keptAs).toMatch(new RegExp(`^refs/handoff-dropped/main/scratch-notes/\\d+-${tip.slice(0, 12)}$`));
    expect(refOf(repo, REF)).toBeNull();
    expect(refOf(repo, out.keptAs)).toBe(tip);
    expect(repo.git(['rev-list', '--count', out.keptAs]).stdout.trim()).toBe('2');
    // the next commands report no loss, and the audit trail names the passage through the hook
    const list = await repo.cli(['list']);
    expect(String(list.stdout)).toContain('no handoffs on branch main');
    expect(String(list.stderr)).toBe('');
    expect(readFileSync(path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'), 'utf8')).toContain('refs/handoffs/main/scratch-notes');
    // show still reads it, as dropped, with its undo (issue 36: test/cli/commands/drop-restore.slow.test.ts)
    expect(String((await repo.cli(['show', 'scratch-notes'])).stdout)).toContain(`dropped: \`git handoff restore ${out.keptAs}\``);
    // and so does log, with the same undo
    expect(String((await repo.cli(['log', 'scratch-notes'])).stdout)).toMatch(new RegExp(`^dropped: \`git handoff restore ${out.keptAs}\``));
  });

  it('a handoff another clone may have is archived, not dropped', async () => {
    const remote = makeRepo({ init: ['--bare'] });
    const repo = makeRepo({ commit: true });
    repo.git(['remote', 'add', 'origin', remote.dir]);
    await repo.cli(['write', 'scratch-notes', '--session', 's1', '-m', 'one']);
    expect((await repo.cli(['push'])).exitCode).toBe(0);
    const r = await repo.cli(['drop', 'scratch-notes', '--session', 's1']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('origin has a copy');
    expect(String(r.stderr)).toContain('git handoff archive scratch-notes');
    expect(refOf(repo, REF)).not.toBeNull();
  });

  it('moves the ref and the loss record in one transaction: one update-ref, nothing after it', async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['write', 'scratch-notes', '--session', 's1', '-m', 'one']);
    const tip = refOf(repo, REF)!;
    const rec = gitRecorder(repo.home);
    const r = await repo.cli(['drop', 'scratch-notes', '--session', 's1'], { env: rec.env });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(rec.calls().filter((c) => c[0] === 'update-ref')).toHaveLength(1);
    expect(recordText(repo)).toMatch(new RegExp(`^removed ${tip} \\d+ ${REF}$`, 'm'));
    expect(recordText(repo)).not.toContain(`tip ${tip}`);
  });

  for (const state of ['prepared', 'committed'] as const) {
    it(`a drop killed with -9 when its transaction is ${state} leaves the ref and the record consistent: no loss, nothing to recover`, async () => {
      const repo = makeRepo({ commit: true });
      await repo.cli(['write', 'scratch-notes', '--session', 's1', '-m', 'one']);
      expect((await repo.cli(['list'])).stderr).toBe('');
      const tip = refOf(repo, REF)!;
      const before = recordText(repo);
      killDropAt(repo, state);
      const r = await repo.cli(['drop', 'scratch-notes', '--session', 's1']);
      expect(r.signal).toBe('SIGKILL');
      repo.git(['config', '--unset', 'core.hooksPath']);
      if (state === 'prepared') {
        // nothing moved: the ref and the record as they were
        expect(refOf(repo, REF)).toBe(tip);
        expect(recordText(repo)).toBe(before);
      } else {
        // both moved: the ref is gone, kept by name, and the record says it was removed on purpose
        expect(refOf(repo, REF)).toBeNull();
        expect(repo.git(['for-each-ref', '--format=%(objectname)', 'refs/handoff-dropped/']).stdout.trim()).toBe(tip);
        expect(recordText(repo)).toMatch(new RegExp(`^removed ${tip} \\d+ ${REF}$`, 'm'));
      }
      const list = await repo.cli(['list']);
      expect(String(list.stderr)).toBe('');
      const recover = await repo.cli(['recover', '--json']);
      expect(recover.exitCode, String(recover.stderr)).toBe(0);
      expect(json(recover).actions).toEqual([]);
      expect(refOf(repo, REF)).toBe(state === 'prepared' ? tip : null);
    });
  }
});
