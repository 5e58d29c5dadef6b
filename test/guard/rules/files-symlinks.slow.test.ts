// src/guard/rules/files.ts against an attacker, through the real `git-handoff guard`: write targets the guard cannot
// resolve, and symlinked directories and files, judged where they lead.
import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { denial, ME, OTHER, withHandoff, writeTool } from '../helpers';

describe('write targets the guard cannot resolve, and symlinked directories (5)', () => {
  it('the Write tool through a symlinked directory or file is judged where it leads', async () => {
    const repo = await withHandoff();
    const theirs = `<!-- claude-session: ${OTHER} -->\ntheir note\n`;
    repo.write('memory/handoff-main-auth-refactor.md', theirs);
    symlinkSync(path.join(repo.dir, 'memory'), path.join(repo.dir, 'notes'));
    symlinkSync(path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md'), path.join(repo.dir, 'todo.md'));
    for (const file of [path.join(repo.dir, 'notes', 'handoff-main-auth-refactor.md'), path.join(repo.dir, 'todo.md')]) {
      const r = await writeTool(repo, file, `<!-- claude-session: ${ME} -->\nmine now\n`);
      expect(denial(r), file).toMatch(/belongs to session/);
    }
    // a symlink into the ref store
    symlinkSync(path.join(repo.dir, '.git', 'refs'), path.join(repo.dir, 'r'));
    expect(denial(await writeTool(repo, path.join(repo.dir, 'r', 'handoffs', 'main', 'auth-refactor'), '0'.repeat(40)))).toMatch(/ref store/);
    expect(readFileSync(path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md'), 'utf8')).toBe(theirs);
    // an ordinary file through a symlinked directory is still fine
    symlinkSync(path.join(repo.dir), path.join(repo.dir, 'here'));
    expect(await writeTool(repo, path.join(repo.dir, 'here', 'src', 'app.ts'), 'x')).toMatchObject({ exitCode: 0, stdout: '' });
  });
});
