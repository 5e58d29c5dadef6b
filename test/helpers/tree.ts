// A worktree's files as bytes, to compare before an install and after its uninstall.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file under the worktree but .git, with its bytes. */
export function tree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of readdirSync(path.join(dir, rel))) {
    if (rel === '' && n === '.git') continue;
    const f = path.join(rel, n);
    if (statSync(path.join(dir, f)).isDirectory()) Object.assign(out, tree(dir, f));
    else out[f] = readFileSync(path.join(dir, f), 'utf8');
  }
  return out;
}
