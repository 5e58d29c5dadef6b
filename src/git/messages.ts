// What git's messages say: a transport cut in passing, a host's limits, why a push was refused, the lock file in the
// way. Read from stderr alone (src/git/run.ts starts git with LC_ALL=C, so they are never translated).
import path from 'node:path';

/**
 * A transport that failed in passing: the connection reset or cut mid-answer, or an HTTP server busy (a git daemon
 * past its --max-connections drops a connection; sshd past its MaxStartups closes one before the key exchange; a
 * proxy answers 502–504). Worth a short wait and another try before a remote counts as unreachable. Not: a refusal,
 * a missing repository, authentication, a timeout.
 */
export function transientTransport(stderr: string): boolean {
  return /connection reset|connection closed by|kex_exchange_identification|ssh_exchange_identification|hung up unexpectedly|early EOF|unexpected disconnect|broken pipe|read error: |The requested URL returned error: 50[234]/i.test(stderr);
}

/**
 * A host refusing a push or fetch for its limits, in the hosts' own words: `rate` (too many operations: wait and try
 * again — GitHub's "secondary rate limit", HTTP 429, GitLab's "Retry later" and Gitaly's concurrency queue), `size` (too
 * much in one push: fewer refs per push — "more than N refs", a pack over the maximum, HTTP 413, receive-pack's
 * refupdatecommandlimit), or null.
 */
export function hostLimit(stderr: string): 'rate' | 'size' | null {
  if (/rate limit|too many requests|returned error: 429|\bHTTP 429\b|retry later|try again later|maximum time in concurrency queue|maximum queue size reached|too many pushes/i.test(stderr)) return 'rate';
  if (/(can ?not|cannot) (update|push) more than \d+|more than \d+ (refs|ref updates|references|branches or tags|changes)|too many ref(erence)?s?\b|too many ref-update commands|refupdatecommandlimit|pack exceeds maximum allowed size|returned error: 413|\bHTTP 413\b/i.test(stderr)) return 'size';
  return null;
}

/**
 * Why a push was refused, with the host's own words first: its `remote:` lines (a hook's or a host's message, at most
 * 4), then git's reason for the ref (`[remote rejected] … (<why>)`), else git's own first error.
 */
export function pushRefusal(stderr: string): string {
  const host = stderr.split('\n').filter((l) => l.startsWith('remote:')).map((l) => l.replace(/^remote:\s?/, '').trim()).filter((l) => l && !/^=+$/.test(l) && !/^(Resolving deltas|Counting objects|Compressing objects|Enumerating objects|Total \d)/.test(l));
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
