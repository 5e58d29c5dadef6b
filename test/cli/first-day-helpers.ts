// Shared by the first-day tests.
import type { TestRepo } from '../helpers/repo';

/** Every handoff and archive ref, as `ref oid` lines. */
export const handoffRefsOf = (repo: TestRepo) =>
  repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoffs/', 'refs/handoff-archive/']).stdout.trim();
