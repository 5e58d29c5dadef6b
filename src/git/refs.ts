// What git says of ref names (a branch name it allows, the branches it knows) and of a packing's prunes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packedRefs } from './refs-read';
import type { Repo } from './run';

/** Whether git allows `name` as a branch name (`git check-ref-format --branch`: git's own rules, not a copy of them). */
export function isBranchName(repo: Repo, name: string): boolean {
  return !name.startsWith('-') && repo.git(['check-ref-format', '--branch', name], { allowFail: true }).status === 0;
}

/** The branch names this clone knows: local ones and each remote's (without the remote's name), one for-each-ref. */
export function knownBranchNames(repo: Repo): Set<string> {
  const out = new Set<string>();
  for (const { ref } of repo.listRefNames(['refs/heads/', 'refs/remotes/'])) {
    if (ref.startsWith('refs/heads/')) out.add(ref.slice('refs/heads/'.length));
    else if (ref.startsWith('refs/remotes/')) {
      const name = ref.split('/').slice(3).join('/');
      if (name && name !== 'HEAD') out.add(name);
    }
  }
  return out;
}

/**
 * The deletions in a `prepared` reference-transaction that are git packing refs, not removing them: packed-refs holds
 * the same value and is not locked (git takes packed-refs.lock for every real deletion before the hook runs).
 */
export function packingPrunes(commonDir: string, updates: Array<{ ref: string; oldOid: string | null; newOid: string | null }>): Set<string> {
  const deletions = updates.filter((u) => u.newOid === null && u.oldOid);
  if (deletions.length === 0 || existsSync(path.join(commonDir, 'packed-refs.lock'))) return new Set();
  const packed = packedRefs(commonDir);
  return new Set(deletions.filter((u) => packed.get(u.ref) === u.oldOid).map((u) => u.ref));
}
