// A branch renamed by `git branch -m` leaves its handoffs under the old name (handoff refs are not branches): the
// old name from the branch's reflog, when handoffs are still there, for list and boot to point at `rename-branch`.
import { quote } from 'shell-quote';
import type { Storage } from '../../git/storage';
import { listHandoffs } from './store';

export interface Renamed {
  from: string;
  topics: string[];
}

/** The branch `branch` was renamed from, while handoffs are still under that name; null otherwise. */
export function renamedFrom(repo: Storage, branch: string): Renamed | null {
  const m = /^Branch: renamed refs\/heads\/(.+) to refs\/heads\/.+$/m.exec(repo.reflogSubjects(`refs/heads/${branch}`).join('\n'));
  if (!m || m[1] === branch) return null;
  const topics = listHandoffs(repo, { branch: m[1] }).map((r) => r.topic);
  return topics.length ? { from: m[1], topics } : null;
}

/** What to tell the person: where the handoffs are, and the one command that carries them to `branch`. */
export function renamedHint(r: Renamed, branch: string): string {
  const n = r.topics.length;
  return (
    `${branch} was renamed from ${r.from}, and its ${n} handoff${n === 1 ? ' stays' : 's stay'} there (${r.topics.join(', ')}): git handoff list --branch ${quote([r.from])}\n` +
    `to carry ${n === 1 ? 'it' : 'them'} to ${branch}, on the record: git handoff rename-branch ${quote([r.from])} ${quote([branch])}\n`
  );
}
