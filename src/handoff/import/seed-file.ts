// The seed tools' file convention (SPEC 6): `handoff-<branch>-<topic>.md`, line 1 `<!-- claude-session: <id> -->`.

/** handoff-<rest>.md, where <rest> is `<branch slug>-<topic>` */
export const SEED_NAME_RE = /^handoff-(.+)\.md$/;

export const markerLine = (session: string) => `<!-- claude-session: ${session} -->`;

const OPEN = '<!--';
const CLOSE = '-->';
const KEY = 'claude-session:';

/**
 * The id a marker line names (not yet validated: whoever reads it checks it against SESSION_RE), or null when the
 * line is no marker: `<!--`, blanks, `claude-session:`, the id (blanks around it dropped, blanks inside kept), `-->`,
 * blanks. A leading byte-order mark and a trailing CR are not the line's. Read by hand, in one pass over the whole
 * line however long it is: no backtracking expression runs over text a file chooses, and nothing is cut.
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
 * The one reader of a handoff file's ownership marker, used by the guard (src/guard/rules/files.ts) and `import`
 * alike, so one file never has two owners: the id on line 1 of `text` (the whole line, after a byte-order mark),
 * or null when line 1 is no marker. An id that is empty or no valid session id is still returned: the file names an
 * owner, only not a valid one (the guard refuses other sessions its file, import refuses to import it).
 */
export function markerOf(text: string): string | null {
  const nl = text.indexOf('\n');
  return parseMarker(nl < 0 ? text : text.slice(0, nl));
}

/** A branch name as the seed tools put it in a file name: lowercase, slashes to dashes. */
export const branchSlug = (branch: string) => branch.toLowerCase().replace(/\//g, '-');
