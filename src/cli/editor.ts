// Lets a person edit text in their git editor (GIT_EDITOR, core.editor, VISUAL, EDITOR), as `git commit` does.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';

/** Whether a person is at a terminal who can use an editor. */
export const interactive = () => !!process.stdin.isTTY && !!process.stdout.isTTY;

/** Opens `initial` in the editor (file HANDOFF_EDITMSG in the git directory) and returns what was saved. */
export function editText(repo: Repo, initial: string): string {
  const editor = repo.out(['var', 'GIT_EDITOR']).trim();
  const file = path.join(repo.gitDir, 'HANDOFF_EDITMSG');
  writeFileSync(file, initial);
  try {
    // Like git, the editor value is a shell command: it may carry its own arguments.
    const r = spawnSync('sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit' });
    if (r.error || r.status !== 0) {
      throw new HandoffError('usage', 'editor-failed', `the editor (${editor}) ${r.error ? `could not start: ${r.error.message}` : `exited with ${r.status}`}; nothing was written`);
    }
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(file, { force: true });
  }
}
