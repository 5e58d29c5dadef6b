// The store's format version (SPEC 2, "Format version") and the check every command makes before it touches the store;
// read from the config text repository discovery already read, so it costs no git process.
import { keyName, setting } from '../../config-keys';
import { HandoffError } from '../../errors';
import { ARCHIVE_PREFIX } from './names';
import { trailerReader } from '../../git/trailers';
import { configValue } from '../../git/config-values';
import type { Storage } from '../../git/storage';
import type { DoctorItem } from '../../wiring';

/** The format this build writes; SPEC 2 says what each number means. */
export const FORMAT_VERSION = 3;
/** The trailer of a format-2 archive entry that stands beside a format-1 entry (the archived tip itself). */
export const MIGRATED_FROM = 'Handoff-Migrated-From';

const readMigratedFrom = trailerReader({ from: MIGRATED_FROM });

/** The format-1 entries a set of archive entries stand beside: each one is shown through its format-2 partner. */
export const besideEntries = (recs: Array<{ trailers: string[] }>): Set<string> => new Set(recs.flatMap((r) => readMigratedFrom(r.trailers).from ?? []));

/** The oldest format whose archives a repository takes in, by push or fetch (default 2; SPEC 2). */
export const MIN_FORMAT_KEY = keyName('minFormat');

/** Whether a format-1 archive (an entry at the tip itself, naming nobody) is taken in: only with `handoff.minFormat 1`. */
export function takesFormat1Archives(repo: Storage): boolean {
  return setting(repo.config(), 'minFormat') === '1';
}

/** What a format-1 archive that is not taken in gets told: who makes them, and the two ways on. */
export const FORMAT1_ARCHIVE_HINT =
  `a format-1 client (git-handoff 094717a or older) archives this way; upgrade it (its archives then name who archived), or take its archives as format 1 did with \`git config ${MIN_FORMAT_KEY} 1\` (on the server and in each clone)`;

/** The key, in the repository's own config file, naming the format its store holds. */
export const FORMAT_KEY = keyName('formatVersion');

/** A store newer than this build is never read: it exits 7 (`format-too-new`) naming both versions and the way on. */
export function assertKnownFormat(repo: Storage): void {
  const format = repo.storeFormat;
  if (format === null || format === undefined || format <= FORMAT_VERSION) return;
  // a value that is not a whole number is read as newer than any build: named as it is written
  const found = Number.isSafeInteger(format) && format < Number.MAX_SAFE_INTEGER ? format : (configValue(repo.config(), FORMAT_KEY) ?? String(format));
  throw new HandoffError(
    'environment',
    'format-too-new',
    `this repository's handoff store is format ${found} (${FORMAT_KEY} in ${repo.commonDir}/config), and this git-handoff reads formats up to ${FORMAT_VERSION}: ` +
      `it would misread the store, so it reads and writes nothing. Upgrade git-handoff (npm install -g git-handoff@latest), or run the newer copy that wrote it`,
    { found, supported: FORMAT_VERSION, key: FORMAT_KEY },
  );
}

/** doctor's row: the store's format, and what a format-1 client (094717a or older) sharing a remote sees of this one. */
export function doctorFormat(repo: Storage): DoctorItem[] {
  const takes = takesFormat1Archives(repo);
  const store = repo.storeFormat ? `format ${repo.storeFormat}` : 'format 1 or 2 (handoff.formatVersion unset)';
  // what a format-1 client makes of this store matters only where one may share it: archives and a remote to
  // share them through, or handoff.minFormat set; a new repository gets the one line
  const shared = takes || (repo.remoteNames().length > 0 && repo.firstRef([ARCHIVE_PREFIX]) !== null);
  const detail = `store ${store}; this build writes format ${FORMAT_VERSION} (marked at its first fetch)`;
  return [
    {
      component: 'format',
      status: 'info',
      detail: !shared
        ? `${detail}.`
        : `${detail}. A format-1 client (git-handoff 094717a or older) sharing a remote lists each archive made here twice (the tip and the archive version) and can restore either; ` +
          (takes
            ? `its archives, which name nobody, are taken in here (${MIN_FORMAT_KEY} 1)`
            : `its archives, which name nobody, are refused here and by this build's server check (${MIN_FORMAT_KEY} 2): \`git config ${MIN_FORMAT_KEY} 1\` takes them while such clients remain`),
    },
  ];
}
