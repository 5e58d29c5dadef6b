// Lets a person edit text in their git editor (GIT_EDITOR, core.editor, VISUAL, EDITOR), as `git commit` does.
import { spawnSync } from '../process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { configValue } from '../git/config';
import type { Repo } from '../git/repo';

/** Whether a person is at a terminal who can use an editor. */
export const interactive = () => !!process.stdin.isTTY && !!process.stdout.isTTY;

/** A terminal, or an editor named on purpose (a script can set GIT_EDITOR, as with git commit). */
export function canEdit(repo: Repo): boolean {
  if (interactive()) return true;
  if (process.env.GIT_EDITOR || process.env.VISUAL || process.env.EDITOR) return true;
  return !!configValue(repo.config(), 'core.editor')?.trim();
}

/** Where text typed in the editor is kept when it is not written: the file the editor saved it in. */
export const editFile = (repo: Repo) => path.join(repo.gitDir, 'HANDOFF_EDITMSG');

/** Keeps `text` in the edit file and says where, with the command (`keep`) that writes it later. */
export function keepEdited(repo: Repo, text: string, keep: string): string {
  const file = editFile(repo);
  writeFileSync(file, text);
  return `what the editor saved is kept in ${file} (to write it: ${keep} ${file})`;
}

/**
 * Opens `initial` in the editor (file HANDOFF_EDITMSG in the git directory) and returns what was saved. When the
 * editor fails, the file is kept and the message says how to write it (`keep`: the command to finish with).
 */
export function editText(repo: Repo, initial: string, keep: string): string {
  const editor = repo.out(['var', 'GIT_EDITOR']).trim();
  const file = editFile(repo);
  writeFileSync(file, initial);
  // Like git, the editor value is a shell command: it may carry its own arguments.
  const r = spawnSync('sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit' });
  if (r.error || r.status !== 0) {
    const why = r.error ? `could not start: ${r.error.message}` : `exited with ${r.status}`;
    throw new HandoffError('usage', 'editor-failed', `the editor (${editor}) ${why}, so nothing was written; ${keepEdited(repo, readFileSync(file, 'utf8'), keep)}`);
  }
  const text = readFileSync(file, 'utf8');
  rmSync(file, { force: true });
  return text;
}
