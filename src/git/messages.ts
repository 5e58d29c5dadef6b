// What git's messages say: a transport cut in passing, a host's limits, why a push was refused, the lock file in the
// way. Read from stderr alone (src/git/run.ts starts git with LC_ALL=C, so they are never translated).
import path from 'node:path';

/** A transport that failed in passing (a connection reset or cut, a server busy): worth another try, not a refusal. */
export function transientTransport(stderr: string): boolean {
  return /connection reset|connection closed by|kex_exchange_identification|ssh_exchange_identification|hung up unexpectedly|early EOF|unexpected disconnect|broken pipe|read error: |The requested URL returned error: 50[234]/i.test(stderr);
}

/** A host refusing a push or fetch for its limits, in the hosts' own words: `rate` (wait), `size` (fewer refs a push), or null. */
export function hostLimit(stderr: string): 'rate' | 'size' | null {
  if (/rate limit|too many requests|returned error: 429|\bHTTP 429\b|retry later|try again later|maximum time in concurrency queue|maximum queue size reached|too many pushes/i.test(stderr)) return 'rate';
  if (/(can ?not|cannot) (update|push) more than \d+|more than \d+ (refs|ref updates|references|branches or tags|changes)|too many ref(erence)?s?\b|too many ref-update commands|refupdatecommandlimit|pack exceeds maximum allowed size|returned error: 413|\bHTTP 413\b/i.test(stderr)) return 'size';
  return null;
}

/** The server's own words (a refusing hook's message), as git relays them. */
export const remoteLines = (stderr: string): string[] =>
  stderr.split('\n').flatMap((l) => (l.startsWith('remote:') ? [l.replace(/^remote:\s?/, '').trimEnd()] : [])).filter(Boolean);

/** Why a push was refused: the host's `remote:` lines (at most 4), then git's reason for the ref, else git's first error. */
export function pushRefusal(stderr: string): string {
  const host = remoteLines(stderr).map((l) => l.trim()).filter((l) => !/^=+$/.test(l) && !/^(Resolving deltas|Counting objects|Compressing objects|Enumerating objects|Total \d)/.test(l));
  const why = /\[remote (?:rejected|failure)\][^(\n]*\(([^)\n]*)\)/.exec(stderr)?.[1];
  if (!host.length && !why) return gitReason(stderr);
  return [...host.slice(0, 4), ...(why ? [`(${why})`] : [])].join(' ');
}

/** What git said, from its first fatal:/error: line on (a reason often follows on the next line), at most 3 lines. */
export function gitReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const from = Math.max(0, lines.findIndex((l) => /^(fatal|error):/.test(l)));
  return lines.slice(from, from + 3).join(' ') || 'no message from git';
}

/** The lock file git names as in its way in `stderr` ("Unable to create '….lock': File exists"), as an absolute path (`cwd`: where git ran), else null. */
export function lockFileNamed(cwd: string, stderr: string): string | null {
  const m = /Unable to create '([^']+\.lock)': File exists/.exec(stderr);
  return m ? path.resolve(cwd, m[1]) : null;
}
