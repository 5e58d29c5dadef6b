// git-handoff's block between two marker lines in a person's file (the startup note, the exclude lines): the rest of
// the file is the person's, kept as it is.

/** The block's offsets in `text`, from its start marker to the end of its end marker, or null where it has none. */
function blockAt(text: string, start: string, end: string): [number, number] | null {
  const s = text.indexOf(start);
  const e = text.indexOf(end);
  return s >= 0 && e > s ? [s, e + end.length] : null;
}

/** The lines between the markers (none where there is no block). */
export const blockLines = (text: string, start: string, end: string): string[] => {
  const at = blockAt(text, start, end);
  return at ? text.slice(at[0] + start.length, at[1] - end.length).split('\n').filter(Boolean) : [];
};

/** `text` with `block` in place of its marked one, else at its end after a blank line. */
export function withBlock(text: string, block: string, start: string, end: string): string {
  const at = blockAt(text, start, end);
  if (at) return text.slice(0, at[0]) + block + text.slice(at[1]);
  return text === '' ? `${block}\n` : `${text.replace(/\n*$/, '\n\n')}${block}\n`;
}

/** `text` without its marked block and the blank lines around it, or null where it has none. */
export function withoutBlock(text: string, start: string, end: string): string | null {
  const at = blockAt(text, start, end);
  if (!at) return null;
  const before = text.slice(0, at[0]).replace(/\n+$/, '');
  const after = text.slice(at[1]).replace(/^\n+/, '');
  const next = before && after ? `${before}\n\n${after}` : before || after;
  return next === '' || next.endsWith('\n') ? next : `${next}\n`;
}
