// Notes left for a session (SPEC 3, 10), told at its next tool call, after-tool hook or session start: by another
// process, or by its own guard for a client whose model reads no context before a tool (`kept`). Leaving one removes
// the session's heartbeat file, and the sh front sends an after-tool hook to node while one is pending.
import { renameSync } from 'node:fs';
import path from 'node:path';
import { encodeBranch, handoffDir, jsonLinesIn } from './paths';
import { appendState, optionalWrite, removeFile } from './state-file';

type NoteKind = 'takeover' | 'claim-refused' | 'claim-taken' | 'beside' | 'kept';

export interface Note {
  kind: NoteKind;
  text: string;
  /** unix ms */
  t: number;
  /** one pending note per key (its text when it has none): the same event told again is not repeated */
  key?: string;
}

/** The guard's per-session files (`<session>.json`, `.note`, `.beat`); the sh front reads some. */
export const guardStateDir = (commonDir: string) => path.join(handoffDir(commonDir), 'guard');
export const sessionStateFile = (commonDir: string, session: string, ext: string) => path.join(guardStateDir(commonDir), `${encodeBranch(session)}.${ext}`);

const MAX_NOTES_FILE = 64 * 1024;

const pending = (file: string): Note[] => jsonLinesIn(file).filter((n) => typeof n.text === 'string' && typeof n.kind === 'string');

/** Optional state (a full disk skips it). */
export function leaveNote(commonDir: string, session: string, note: { kind: NoteKind; text: string; key?: string }): void {
  optionalWrite(() => {
    const file = sessionStateFile(commonDir, session, 'note');
    if (pending(file).some((n) => (n.key ?? n.text) === (note.key ?? note.text))) return;
    appendState(file, JSON.stringify({ ...note, t: Date.now() }) + '\n', handoffDir(commonDir), MAX_NOTES_FILE);
    removeFile(sessionStateFile(commonDir, session, 'beat'));
  });
}

/** The notes left for `session`, taken once (a note left meanwhile waits for the next call). */
export function takeNotes(commonDir: string, session: string): Note[] {
  const file = sessionStateFile(commonDir, session, 'note');
  const taking = `${file}.${process.pid}.taking`;
  try {
    renameSync(file, taking);
  } catch {
    return [];
  }
  try {
    return pending(taking);
  } finally {
    removeFile(taking);
  }
}
