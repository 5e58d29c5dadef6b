// What the loss record's tests share: a repository with handoffs the record has verified, and raw git with no hooks.
import { makeRepo, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';

export const REF = 'refs/handoffs/main/login-redirect-loop';
export const OTHER_REF = 'refs/handoffs/main/cache-warmup-plan';
export const RECORD = 'refs/handoff-record';

/** raw git with no hooks at all: nothing of the product runs */
export const raw = (repo: TestRepo, args: string[], input?: string) => repo.git(['-c', 'core.hooksPath=/dev/null', ...args], { input });

/** Two versions of login-redirect-loop by sess-owner, cache-warmup-plan by sess-other; a `list` found them in place. */
export async function seeded(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
  await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: two', '--session', 'sess-owner']);
  await ok(repo, ['write', 'cache-warmup-plan', '-m', 'Goal: warm', '--session', 'sess-other']);
  await ok(repo, ['list']);
  return repo;
}
