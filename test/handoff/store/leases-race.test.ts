// The lease's compare-and-swap reports the truth (issue 35): a touch that loses every race says `lost`, never
// `fresh` (it neither took nor refreshed the lease), and a touch that wins says so; through tx's one retry loop.
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { readLease, touchLease } from '../../../src/handoff/store/leases';
import { leaseRef } from '../../../src/handoff/store/names';
import { makeRepo } from '../../helpers/repo';

describe('touchLease', () => {
  it('says lost when every try loses its race, and takes the lease once the way is clear', () => {
    const repo = makeRepo({ commit: true });
    const r = openRepo(repo.dir);
    const ref = leaseRef(r.worktree!);
    // the lease ref holds a commit that is no lease (no session): read as no lease, so each create loses to it
    repo.git(['update-ref', ref, 'HEAD']);
    const lost = touchLease(r, 'sess-lost-1', r.worktree!, { minIntervalMs: 0 });
    expect(lost).toEqual({ status: 'lost', lease: null });
    expect(repo.git(['rev-parse', ref]).stdout.trim()).toBe(repo.git(['rev-parse', 'HEAD']).stdout.trim());
    repo.git(['update-ref', '-d', ref]);
    const won = touchLease(r, 'sess-lost-1', r.worktree!, { minIntervalMs: 0 });
    expect(won.status).toBe('acquired');
    expect(readLease(r, r.worktree!)?.session).toBe('sess-lost-1');
    expect(touchLease(r, 'sess-lost-1', r.worktree!, { minIntervalMs: 0 }).status).toBe('refreshed');
    expect(touchLease(r, 'sess-lost-1', r.worktree!).status).toBe('fresh');
  });
});
