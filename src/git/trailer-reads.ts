// The trailer reads that run git (src/git/trailers.ts parses what git prints and imports no command line, so the
// storage port's users can import it): a message file's trailers by git's own parse, the trailers of a walk.
import type { Repo } from './run';
import { trailerBlockLines } from './trailers';

/** The trailers of a message file as git reads them (comments and a scissors line ignored; no `---` divider). */
export function messageFileTrailerLines(repo: Repo, file: string): string[] {
  return repo.out(['interpret-trailers', '--parse', '--no-divider', file]).split('\n').filter(Boolean);
}

/**
 * Each commit a `git log <args>` walk reaches, with the name it came through (`%S`: a ref with `--source`) and git's trailer
 * block (NUL-separated: git never prints one from a message). `allowFail`: a failed walk is no commits.
 */
export function logTrailers(repo: Repo, args: string[], o: { allowFail?: boolean } = {}): Array<{ oid: string; source: string; trailers: string[] }> {
  const r = repo.git(['log', '--format=%H%x00%S%x00%(trailers)%x00', ...args], { allowFail: o.allowFail });
  const fields = r.status === 0 ? r.stdout.split('\0') : [];
  const out: Array<{ oid: string; source: string; trailers: string[] }> = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const oid = fields[i].replace(/^\n/, '');
    if (oid) out.push({ oid, source: fields[i + 1], trailers: trailerBlockLines(fields[i + 2]) });
  }
  return out;
}
