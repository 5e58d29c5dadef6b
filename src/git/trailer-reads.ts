// The trailer reads that run git (trailers.ts imports no command line): a message file's trailers, a walk's, git log's rows.
import type { Repo } from './run';
import { trailerBlockLines } from './trailers';

/** The trailers of a message file as git reads them (comments and a scissors line ignored; no `---` divider). */
export function messageFileTrailerLines(repo: Repo, file: string): string[] {
  return repo.out(['interpret-trailers', '--parse', '--no-divider', file]).split('\n').filter(Boolean);
}

/** Each commit a `git log <args>` walk reaches, its name (`%S`) and git's trailer block; `allowFail`: a failed walk is none. */
export function logTrailers(repo: Repo, args: string[], o: { allowFail?: boolean } = {}): Array<{ oid: string; source: string; trailers: string[] }> {
  const r = repo.git(['log', '--format=%H%x00%S%x00%(trailers)%x00', ...args], { allowFail: o.allowFail });
  return rowsOf(r.status === 0 ? r.stdout : '', 3).map(([oid, source, block]) => ({ oid, source, trailers: trailerBlockLines(block) }));
}

/** `git log` output whose format ends each of its `n` fields in a NUL (git prints none from a message), as rows. */
export function rowsOf(stdout: string, n: number): string[][] {
  const f = stdout.split('\0');
  // each commit's first field follows the newline git ends the one before with
  return Array.from({ length: Math.floor(f.length / n) }, (_, i) => f.slice(i * n, (i + 1) * n)).map(([first, ...rest]) => [first.replace(/^\n/, ''), ...rest]);
}
