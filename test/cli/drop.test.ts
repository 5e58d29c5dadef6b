// drop (issue 27): a throwaway handoff that never left this clone goes away on the record — its versions kept under
// refs/handoff-dropped/, the loss record told (no loss reported, recover leaves it), the hooks passed on the record;
// another session's, or one another clone may have, is not dropped.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf } from '../helpers/repo';

const REF = 'refs/handoffs/main/scratch-notes';

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
    expect((await repo.cli(['show', 'scratch-notes'])).exitCode).toBe(2);
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
});
