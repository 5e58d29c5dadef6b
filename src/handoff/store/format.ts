// The store's format version (SPEC 2, "Format version"): which format this build reads and writes, and the one
// check every command makes before it reads or writes the store. The version a repository holds is
// `handoff.formatVersion` in its own config file, read from the text repository discovery reads already
// (src/git/repo.ts), so the check costs no git process. Absent, the store is format 1 or 2, both read here.
import { HandoffError } from '../../errors';
import type { Repo } from '../../git/repo';

/** The format this build writes; SPEC 2 says what each number means. */
export const FORMAT_VERSION = 2;
/** The key, in the repository's own config file, naming the format its store holds. */
export const FORMAT_KEY = 'handoff.formatVersion';

/** A store newer than this build is never read: it exits 7 (`format-too-new`) naming both versions and the way on. */
export function assertKnownFormat(repo: Repo): void {
  const found = repo.storeFormat;
  if (found === null || found === undefined || found <= FORMAT_VERSION) return;
  throw new HandoffError(
    'environment',
    'format-too-new',
    `this repository's handoff store is format ${found} (${FORMAT_KEY} in ${repo.commonDir}/config), and this git-handoff reads formats up to ${FORMAT_VERSION}: ` +
      `it would misread the store, so it reads and writes nothing. Upgrade git-handoff (npm install -g git-handoff@latest), or run the newer copy that wrote it`,
    { found, supported: FORMAT_VERSION, key: FORMAT_KEY },
  );
}
