// What git says of ref names: a branch name it allows, the branches it knows.
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
