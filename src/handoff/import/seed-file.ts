// The seed tools' file convention (SPEC 6): `handoff-<branch>-<topic>.md`, line 1 `<!-- claude-session: <id> -->`.

/** handoff-<rest>.md, where <rest> is `<branch slug>-<topic>` */
export const SEED_NAME_RE = /^handoff-(.+)\.md$/;

export const markerLine = (session: string) => `<!-- claude-session: ${session} -->`;

const OPEN = '<!--';
const CLOSE = '-->';
const KEY = 'claude-session:';

/**
 * The id a marker line names (not validated yet), or null when the line is no marker. Read by hand, in one pass: no
 * backtracking expression runs over text a file chooses.
 */
export function parseMarker(line: string): string | null {
  let s = line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
  if (s.endsWith('\r')) s = s.slice(0, -1);
  s = s.trimEnd();
  if (s.length < OPEN.length + CLOSE.length || !s.startsWith(OPEN) || !s.endsWith(CLOSE)) return null;
  const inner = s.slice(OPEN.length, -CLOSE.length).trimStart();
  return inner.startsWith(KEY) ? inner.slice(KEY.length).trim() : null;
}

/**
 * The one reader of a handoff file's owner (the guard's and import's, so a file never has two): the id on line 1, or
 * null. An invalid id is still returned: the file names an owner, only not a valid one.
 */
export function markerOf(text: string): string | null {
  const nl = text.indexOf('\n');
  return parseMarker(nl < 0 ? text : text.slice(0, nl));
}

/** A branch name as the seed tools put it in a file name: lowercase, slashes to dashes. */
export const branchSlug = (branch: string) => branch.toLowerCase().replace(/\//g, '-');
