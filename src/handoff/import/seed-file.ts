// The seed tools' file convention (SPEC 6): `handoff-<branch>-<topic>.md`, line 1 `<!-- claude-session: <id> -->`.

/** handoff-<rest>.md, where <rest> is `<branch slug>-<topic>` */
export const SEED_NAME_RE = /^handoff-(.+)\.md$/;

/** The ownership marker line; the id inside is checked against SESSION_RE by whoever reads it. */
export const MARKER_RE = /^<!--\s*claude-session:\s*(.*?)\s*-->\s*$/;

export const markerLine = (session: string) => `<!-- claude-session: ${session} -->`;

/** The id a marker line names (not yet validated), or null when the line is no marker. */
export function parseMarker(line: string): string | null {
  const m = MARKER_RE.exec(line.replace(/^\uFEFF/, '').replace(/\r$/, ''));
  return m ? m[1] : null;
}

/** A branch name as the seed tools put it in a file name: lowercase, slashes to dashes. */
export const branchSlug = (branch: string) => branch.toLowerCase().replace(/\//g, '-');
