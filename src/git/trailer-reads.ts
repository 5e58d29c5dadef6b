// The trailer read that runs git (trailers.ts imports no command line): a message file's trailers.
import type { Repo } from './run';

/** The trailers of a message file as git reads them (comments and a scissors line ignored; no `---` divider). */
export function messageFileTrailerLines(repo: Repo, file: string): string[] {
  return repo.out(['interpret-trailers', '--parse', '--no-divider', file]).split('\n').filter(Boolean);
}
